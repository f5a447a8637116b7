/**
 * What every interchange format shares (DMN 1.5 XML, XLSX, CSV, GoRules
 * JDM): how a file's reading is reported, how a written file is described,
 * and the bounds an imported file is held to before it is parsed. The
 * formats are pure (no I/O), so the API, the CLI, the pull and the console
 * read and write files with the same code.
 *
 * A reading never drops anything silently: what refuses the file is a
 * `problem`; what the file holds that the service cannot keep is listed in
 * `notCarried`, element by element, with the reason. The records it yields are
 * raw entity records (`{ id, name, description, tags, type, definition }`),
 * validated afterwards by the one entity schema, as an API save is.
 */
import type { EntityInput } from '../entities/schema.ts';

export const formatNames = ['dmn', 'xlsx', 'csv', 'jdm'] as const;
export type FormatName = (typeof formatNames)[number];

/**
 * How each format's files are told: the content type an export is sent with,
 * the types an import accepts, and the file extensions the CLI, the pull and
 * the console's file picker go by. Each format module spreads its entry.
 */
export const formatFiles = {
  dmn: { contentType: 'application/xml', acceptedContentTypes: ['application/xml', 'text/xml', 'application/dmn+xml'], extensions: ['.dmn', '.xml'] },
  xlsx: {
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    acceptedContentTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    extensions: ['.xlsx'],
  },
  csv: { contentType: 'text/csv', acceptedContentTypes: ['text/csv', 'application/csv'], extensions: ['.csv'] },
  jdm: { contentType: 'application/json', acceptedContentTypes: ['application/json', 'application/vnd.gorules.decision'], extensions: ['.json'] },
} as const satisfies Record<FormatName, { contentType: string; acceptedContentTypes: readonly string[]; extensions: readonly string[] }>;

/** Whether parsed JSON is a JDM graph (its `nodes` and `edges`) rather than one of this service's records: how a `.json` file is told. */
export const isJdmDocument = (value: unknown): value is { nodes: unknown[]; edges: unknown[] } =>
  typeof value === 'object' && value !== null && Array.isArray((value as { nodes?: unknown }).nodes) && Array.isArray((value as { edges?: unknown }).edges);

/** Every content type an import takes, for the API document and the 415's list. */
export const importContentTypes: readonly string[] = [...new Set(Object.values(formatFiles).flatMap((format) => format.acceptedContentTypes))];

/** The format a request body's content type (lower case, without parameters) says. */
export const formatOfContentType = (contentType: string): FormatName | undefined =>
  formatNames.find((format) => (formatFiles[format].acceptedContentTypes as readonly string[]).includes(contentType));

/** The format a file name says, by its extension (`.json` is JDM or this service's own records, told by content). */
export const formatOfExtension = (name: string): FormatName | undefined => {
  const lower = name.toLowerCase();
  return formatNames.find((format) => formatFiles[format].extensions.some((extension) => lower.endsWith(extension)));
};

/** Where in the file a finding is: an element's id or path (`decision#discount`, `Sheet1!C7`, `nodes[2].content.rules[0]`). */
export interface Finding {
  element: string;
  message: string;
}

export interface FileReading {
  /** Raw entity records, one per table or rule the file holds. */
  records: unknown[];
  /** What makes the file unimportable as it is. */
  problems: Finding[];
  /** What the file holds that no record keeps, and why. */
  notCarried: Finding[];
}

export interface WrittenFile {
  fileName: string;
  contentType: string;
  body: Uint8Array;
}

/**
 * The bounds an imported file is held to, each checked before the part it
 * bounds is parsed. A file past `maxFileBytes` is 413; every other bound is
 * a 400 naming it.
 */
export const importBounds = {
  /** Bytes of one file: a Lambda request holds 6 MB, and API Gateway sends a binary body base64-encoded (4/3 larger). */
  maxFileBytes: 4 * 1024 * 1024,
  /** Rule rows of one table (as many as a decision table may hold). */
  maxRows: 10_000,
  /** Columns of one table: 50 inputs, 50 outputs, a row id and an annotation. */
  maxColumns: 102,
  /** Tables (decisions, sheets, nodes) one file may hold. */
  maxTables: 100,
  /** Nesting of XML elements or JSON values. */
  maxDepth: 64,
  /** XLSX: entries of the ZIP archive. */
  maxZipEntries: 1_000,
  /** XLSX: bytes of all entries once inflated. */
  maxUnzippedBytes: 64 * 1024 * 1024,
  /** XLSX: how much larger an entry may inflate than it is stored (zip bombs inflate by thousands). */
  maxZipRatio: 200,
} as const;

/** A file refused for a bound: 413 when it is too large to read at all, 400 otherwise. */
export class ImportBoundExceeded extends Error {
  constructor(
    readonly bound: keyof typeof importBounds | 'doctype' | 'encoding' | 'format',
    message: string,
    readonly status: 400 | 413 = 400,
  ) {
    super(message);
    this.name = 'ImportBoundExceeded';
  }
}

/** How a file is written, where a format offers a choice. */
export interface WriteOptions {
  /** DMN: 1.5 (the default), or 1.3's namespaces for Camunda Modeler and dmn-js, whose model is DMN 1.3's. */
  dmnVersion?: '1.3' | '1.5';
}

/** The first bound every reading checks, before it reads a byte of the file: 413 past it. */
export function refuseOversizeFile(body: Uint8Array): void {
  if (body.byteLength > importBounds.maxFileBytes)
    throw new ImportBoundExceeded('maxFileBytes', `The file has ${body.byteLength} bytes; at most ${importBounds.maxFileBytes} are read.`, 413);
}

/** A format reads and writes files; `write` refuses (with a reason) an entity the format cannot hold. */
export interface Format {
  readonly name: FormatName;
  /** The content type its files are sent with, and the types a request body may name. */
  readonly contentType: string;
  readonly acceptedContentTypes: readonly string[];
  /** File extensions it reads (a pull tells formats by extension), lower case with the dot. */
  readonly extensions: readonly string[];
  /** Reads one file; throws ImportBoundExceeded for a bound, reports everything else in the reading. */
  read(body: Uint8Array, origin: string): Promise<FileReading>;
  /** Why this format cannot hold the entity, or undefined when it can. */
  cannotHold(entity: EntityInput): string | undefined;
  write(entity: EntityInput, options?: WriteOptions): Promise<WrittenFile>;
}

/** A file name from an entity id: ids are letters, digits, '.', '_' and '-', so they are safe as they are. */
export const fileNameOf = (entity: { id: string }, extension: string) => `${entity.id}${extension}`;
