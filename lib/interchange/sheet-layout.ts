/**
 * The one layout of a decision table as a sheet, shared by the XLSX and CSV
 * formats: a decision-table entity becomes a grid of cells and back. The grid
 * is what a person reads and types, so the layout is labelled rather than
 * positional, and every row a person would not think of may be left out.
 *
 * ```
 * Rule id           | discount                      ← the entity id (else the sheet's name made into one)
 * Name              | Discounts                     ← else the sheet's name
 * Description       | …                             ← optional
 * Hit policy        | unique                        ← optional (first); also U, A, P, F, O, R, C, C+, C<, C>, C#
 * Aggregation       | sum                           ← optional, collect only
 * Tags              | pricing | retail              ← optional, one tag a cell
 * Parameters        | [{"name":"total",…}]          ← optional, the service's own parts, as JSON
 * Tests             | […]
 * Settings          | {…}
 *
 * Column            | input         | input       | output        | annotation
 * Id                | customerType  | orderTotal  | discount      |              ← optional (from the expression or name)
 * Label             | Customer type | Order total | Discount      |              ← optional
 * Type              | string        | number      | number        |
 * Allowed values    |               |             | 0, 0.05, 0.1  |              ← optional, outputs: a list of FEEL literals
 * Default           |               |             | 0             |              ← optional, outputs: the entry when no rule matches
 * Expression / name | customer.type | order.total | discount      |
 * gold-big          | "gold"        | >= 100      | 0.1           | Gold, large orders
 * ```
 *
 * Rows before the `Column` row describe the table, each by its label in
 * column A; the rows from `Column` to `Expression / name` describe the
 * columns; every row below `Expression / name` is a rule: its id in column A
 * (optional), its input cells (FEEL unary tests, empty for any), its output
 * entries (an empty cell is null), and the first annotation column's text as
 * its description. Labels are matched without regard to case, spaces or
 * punctuation. The header ends at `Expression / name` (a label no rule id
 * can be), so a rule may be called `default` or `type`; a rule called like a
 * header row the header lacks is refused, as that row was most likely put
 * below the header by mistake.
 *
 * Cells are typed as a spreadsheet types them. Text is FEEL; a number, date
 * or boolean typed in a column becomes the FEEL literal of the column's type
 * (a number in a number column, a date in a date, date and time or time
 * column, a boolean in a boolean column) and anywhere else is a problem.
 * Text that looks like a number or date written for a locale (`1,5`,
 * `1.234,5`, `31/01/2025`) in a number or date column is refused with the
 * cell named rather than guessed: FEEL would read `1,5` as the tests 1 or 5,
 * and `31/01/2025` as a division.
 *
 * Nothing is dropped silently: cells outside the table's columns, rows with
 * unknown labels, header cells of columns that have no such part, and extra
 * annotation columns are listed in `notCarried`.
 */
import { Decimal } from '../decimal/decimal.ts';
import { parseJson } from '../decimal/json.ts';
import { aggregations, hitPolicies, valueTypes, type Aggregation, type HitPolicy, type OutputEntry, type ValueType } from '../engine/definitions.ts';
import { briefList } from '../engine/brief-list.ts';
import type { EntityInput } from '../entities/schema.ts';
import { feelLiteralList, feelNumberText, parseLiteralList, type LiteralValue } from './feel-literals.ts';
import { importBounds, ImportBoundExceeded, type Finding } from './format-contract.ts';
import { localeProblem, sheetDateKind, sheetDateText, temporalLiteral, type SheetDate } from './typed-text.ts';

/** A cell's value. No cell is `undefined`; a cell holding empty text ('') is there (a label or description that is empty). */
export type CellValue = string | number | boolean | SheetDate;
export type SheetRow = (CellValue | undefined)[];

export interface Sheet {
  name: string;
  rows: SheetRow[];
}

/** What a written sheet's cells hold: text, numbers and booleans (a date is written as FEEL text). */
export type WrittenRow = (string | number | boolean | undefined)[];

/** Rows a sheet may have: the rule rows a table may hold, and the rows that describe the table and its columns. */
export const maxSheetRows = importBounds.maxRows + 100;

/** Throws when a sheet's row or column (0-based) lies past the bounds; formats call it before converting the row or cell. */
export function checkSheetBounds(sheetName: string, row: number, column: number) {
  if (row >= maxSheetRows)
    throw new ImportBoundExceeded(
      'maxRows',
      `${sheetName} has more than ${maxSheetRows} rows (${importBounds.maxRows} rules, and the rows that describe them).`,
    );
  if (column >= importBounds.maxColumns) throw new ImportBoundExceeded('maxColumns', `${sheetName} has more than ${importBounds.maxColumns} columns.`);
}

export const tableLabels = {
  id: 'Rule id',
  name: 'Name',
  description: 'Description',
  hitPolicy: 'Hit policy',
  aggregation: 'Aggregation',
  tags: 'Tags',
  parameters: 'Parameters',
  tests: 'Tests',
  settings: 'Settings',
} as const;
type TableField = keyof typeof tableLabels;

export const headerLabels = {
  kind: 'Column',
  id: 'Id',
  label: 'Label',
  type: 'Type',
  allowedValues: 'Allowed values',
  default: 'Default',
  expression: 'Expression / name',
} as const;
type HeaderField = keyof typeof headerLabels;

export const columnKinds = ['input', 'output', 'annotation'] as const;
export type ColumnKind = (typeof columnKinds)[number];

/** The kinds of column each header row describes: an input has no allowed values or default here, an annotation only its kind. */
const headerRowKinds: Record<HeaderField, readonly ColumnKind[]> = {
  kind: columnKinds,
  id: ['input', 'output'],
  label: ['input', 'output'],
  type: ['input', 'output'],
  allowedValues: ['output'],
  default: ['output'],
  expression: ['input', 'output'],
};

/** How labels and keywords are compared: case, spaces and punctuation aside. */
const normalized = (text: string) => text.toLowerCase().replace(/[^a-z0-9+<>#]/g, '');

const byNormalLabel = <F extends string>(labels: Record<F, string>) =>
  new Map(Object.entries<string>(labels).map(([field, label]) => [normalized(label), field as F]));
const tableFieldOf = byNormalLabel(tableLabels);
const headerFieldOf = byNormalLabel(headerLabels);

/** Hit policies by their names here and in DMN, and DMN's single letters; C+, C<, C>, C# carry their aggregation. */
const hitPolicyOf = new Map<string, { hitPolicy: HitPolicy; aggregation?: Aggregation }>([
  ...hitPolicies.map((hitPolicy) => [normalized(hitPolicy), { hitPolicy }] as const),
  ...hitPolicies.map((hitPolicy) => [hitPolicy[0]!, { hitPolicy }] as const),
  ['c+', { hitPolicy: 'collect', aggregation: 'sum' }],
  ['c<', { hitPolicy: 'collect', aggregation: 'min' }],
  ['c>', { hitPolicy: 'collect', aggregation: 'max' }],
  ['c#', { hitPolicy: 'collect', aggregation: 'count' }],
]);
const aggregationOf = new Map<string, Aggregation>([...aggregations.map((a) => [a, a] as const), ['+', 'sum'], ['<', 'min'], ['>', 'max'], ['#', 'count']]);
/** The types a column is given (`object` and `array` are read as the older names they are). */
export const typeNames = valueTypes.filter((type) => type !== 'object' && type !== 'array');
/** The types by name, and FEEL's name of date and time. */
const typeOf = new Map<string, ValueType>([...valueTypes.map((t) => [t, t] as const), ['dateandtime', 'datetime']]);

/** `A`, `B`, … `Z`, `AA`: a column's letters from its 0-based index. */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A sheet's name as a reference writes it: quoted unless it is a plain name. */
const sheetReference = (name: string) => (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`);

/** A cell's address, as Excel writes it: `Discounts!C7`. */
export const cellAddress = (sheetName: string, row: number, column: number) => `${sheetReference(sheetName)}!${columnLetters(column)}${row + 1}`;

const isDate = (value: CellValue): value is SheetDate => typeof value === 'object';

/** A cell as plain text (a label, a name, an id): a typed cell as it reads. */
const plainText = (value: CellValue): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? feelNumberText(value) : typeof value === 'boolean' ? String(value) : sheetDateText(value);

/** The FEEL literal a typed cell (number, boolean, date) stands for in a column of this type, or why it stands for none. */
function typedLiteral(value: number | boolean | SheetDate, type: ValueType): { literal: string | number | boolean } | { problem: string } {
  if (typeof value === 'number')
    return type === 'number'
      ? { literal: value }
      : { problem: `a number in a ${type} column: type FEEL text (a string in quotes: "${feelNumberText(value)}")` };
  if (typeof value === 'boolean') return type === 'boolean' ? { literal: value } : { problem: `${value} typed as a boolean in a ${type} column` };
  const literal = temporalLiteral(value, type);
  return literal ? { literal } : { problem: `${sheetDateText(value)} typed as a ${sheetDateKind(value)} in a ${type} column` };
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

type DecisionTable = Extract<EntityInput, { type: 'decisionTable' }>;

/** A sheet written from a table, with what a spreadsheet styles: where the hit policy and the column header are, and each column's kind. */
export interface WrittenSheet {
  sheet: { name: string; rows: WrittenRow[] };
  /** The hit policy's row (its value in column B). */
  hitPolicyRow: number;
  /** The rows from `Column` to `Expression / name`. */
  header: { first: number; last: number };
  /** The table's columns from column B on, in order. */
  columns: { kind: ColumnKind; type?: ValueType }[];
}

/**
 * An output entry's cell: a number (that a double holds) in a number column as a number, a boolean in a boolean
 * column as a boolean, as a person would type them; any other value as its FEEL text, which the entity schema reads
 * back as that value (a Decimal's digits, `false` in a number column).
 */
function outputCell(entry: OutputEntry, type: ValueType): string | number | boolean | undefined {
  if (entry === null) return undefined;
  if (typeof entry === 'number') return type === 'number' ? entry : feelNumberText(entry);
  if (typeof entry === 'boolean') return type === 'boolean' ? entry : String(entry);
  return entry instanceof Decimal ? feelNumberText(entry) : entry;
}

export function tableToSheet(entity: DecisionTable, sheetName: string): WrittenSheet {
  const { id, name, description, tags, definition } = entity;
  const { inputs, outputs, rules } = definition;
  const json = (field: 'parameters' | 'tests' | 'settings') =>
    definition[field] === undefined ? [] : [[tableLabels[field], JSON.stringify(definition[field])] as WrittenRow];
  const tableRows: WrittenRow[] = [
    [tableLabels.id, id],
    [tableLabels.name, name],
    ...(description ? [[tableLabels.description, description]] : []),
    [tableLabels.hitPolicy, definition.hitPolicy],
    ...(definition.aggregation ? [[tableLabels.aggregation, definition.aggregation]] : []),
    ...(tags.length ? [[tableLabels.tags, ...tags]] : []),
    ...json('parameters'),
    ...json('tests'),
    ...json('settings'),
    [],
  ];
  const blankInputs = inputs.map(() => undefined);
  const header: Record<HeaderField, WrittenRow> = {
    kind: [headerLabels.kind, ...inputs.map(() => 'input'), ...outputs.map(() => 'output'), 'annotation'],
    id: [headerLabels.id, ...inputs.map((c) => c.id), ...outputs.map((c) => c.id)],
    label: [headerLabels.label, ...inputs.map((c) => c.label), ...outputs.map((c) => c.label)],
    type: [headerLabels.type, ...inputs.map((c) => c.type), ...outputs.map((c) => c.type)],
    allowedValues: [headerLabels.allowedValues, ...blankInputs, ...outputs.map((c) => c.allowedValues && feelLiteralList(c.allowedValues))],
    default: [
      headerLabels.default,
      ...blankInputs,
      ...outputs.map((c) => (c.default === null ? 'null' : c.default === undefined ? undefined : outputCell(c.default, c.type))),
    ],
    expression: [headerLabels.expression, ...inputs.map((c) => c.expression), ...outputs.map((c) => c.name)],
  };
  const ruleRows = rules.map((rule): WrittenRow => {
    const row: WrittenRow = [
      rule.id,
      ...rule.when.map((cell) => cell || undefined),
      ...rule.then.map((entry, i) => outputCell(entry, outputs[i]!.type)),
      rule.description,
    ];
    // A row with nothing in it would read as a blank line: its first cell is written as the empty text it holds.
    if (!row.some((cell) => cell !== undefined)) row[1] = '';
    return row;
  });
  const headerRows = Object.values(header);
  return {
    sheet: { name: sheetName, rows: [...tableRows, ...headerRows, ...ruleRows] },
    hitPolicyRow: tableRows.findIndex((row) => row[0] === tableLabels.hitPolicy),
    header: { first: tableRows.length, last: tableRows.length + headerRows.length - 1 },
    columns: [
      ...inputs.map((c) => ({ kind: 'input' as const, type: c.type })),
      ...outputs.map((c) => ({ kind: 'output' as const, type: c.type })),
      { kind: 'annotation' },
    ],
  };
}

/** Why the layout cannot give the entity back as it is, or undefined when it can. */
export function sheetCannotHold(entity: EntityInput): string | undefined {
  if (entity.type !== 'decisionTable') return `a sheet holds a decision table, not a ${entity.type}`;
  const { inputs, outputs, rules } = entity.definition;
  const misread = (text: string, type: ValueType, where: string) => {
    const problem = localeProblem(text, type);
    return problem && `${where} would be refused when read back: ${problem}`;
  };
  for (const [i, rule] of rules.entries()) {
    for (const [j, cell] of rule.when.entries()) {
      const problem = misread(cell, inputs[j]!.type, `rules[${i}].when[${j}]`);
      if (problem) return problem;
    }
    for (const [j, entry] of rule.then.entries()) {
      const problem = typeof entry === 'string' && misread(entry, outputs[j]!.type, `rules[${i}].then[${j}]`);
      if (problem) return problem;
    }
  }
  for (const [j, output] of outputs.entries()) {
    const problem = typeof output.default === 'string' && misread(output.default, output.type, `outputs[${j}].default`);
    if (problem) return problem;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

export interface SheetReading {
  /** False for a sheet with no `Column` row: it holds no table. */
  isTable: boolean;
  /** The raw entity record, when the sheet has no problem. */
  record?: unknown;
  problems: Finding[];
  notCarried: Finding[];
}

interface Column {
  index: number;
  kind: ColumnKind;
  type?: ValueType;
}

/** An id made from text: runs of other characters become '-', within an entity id's 128 characters. */
const idFrom = (text: string) =>
  text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 128)
    .replace(/-+$/, '');

class SheetReader {
  readonly problems: Finding[] = [];
  readonly notCarried: Finding[] = [];
  /** Cells left out, by column and reason, to report once rather than once per cell. */
  private readonly leftOut = new Map<string, { column: number; reason: string; addresses: string[] }>();

  constructor(private readonly sheet: Sheet) {}

  cells(row: number): SheetRow {
    return this.sheet.rows[row] ?? [];
  }

  cell(row: number, column: number): CellValue | undefined {
    return this.sheet.rows[row]?.[column];
  }

  address(row: number, column: number) {
    return cellAddress(this.sheet.name, row, column);
  }

  problem(row: number, column: number, message: string) {
    this.problems.push({ element: this.address(row, column), message });
  }

  notKept(row: number, column: number, message: string) {
    this.notCarried.push({ element: this.address(row, column), message });
  }

  leaveOut(row: number, column: number, reason: string) {
    const key = `${column} ${reason}`;
    const entry = this.leftOut.get(key) ?? { column, reason, addresses: [] };
    entry.addresses.push(this.address(row, column));
    this.leftOut.set(key, entry);
  }

  reportLeftOut() {
    for (const { column, reason, addresses } of this.leftOut.values())
      this.notCarried.push({
        element: `${sheetReference(this.sheet.name)}!${columnLetters(column)}:${columnLetters(column)}`,
        message: `${addresses.length} cell${addresses.length === 1 ? '' : 's'} not read (${briefList(addresses)}): ${reason}`,
      });
  }

  /** A cell as plain text; undefined when there is no cell. */
  text(row: number, column: number): string | undefined {
    const value = this.cell(row, column);
    return value === undefined ? undefined : plainText(value);
  }

  /** The normalized label of a row (column A), or undefined for none. */
  label(row: number): string | undefined {
    const text = this.text(row, 0);
    return text ? normalized(text) : undefined;
  }

  /** A row with no cell in column A nor in any of these columns (all of them when none are given). */
  isBlank(row: number, columns?: ReadonlySet<number>) {
    return this.cells(row).every((value, column) => value === undefined || (columns !== undefined && column > 0 && !columns.has(column)));
  }

  /** A FEEL text cell of a column: typed cells become the column type's literals; text that a locale wrote is refused. */
  feel(row: number, column: Column): string | number | boolean | undefined {
    const value = this.cell(row, column.index);
    if (value === undefined) return undefined;
    if (typeof value === 'string') {
      const problem = localeProblem(value, column.type!);
      if (problem) this.problem(row, column.index, problem);
      return value;
    }
    const typed = typedLiteral(value, column.type!);
    if ('problem' in typed) this.problem(row, column.index, typed.problem);
    return 'literal' in typed ? typed.literal : undefined;
  }

  unaryTests(row: number, column: Column): string {
    const value = this.feel(row, column);
    return typeof value === 'number' ? feelNumberText(value) : value === undefined ? '' : String(value);
  }

  allowedValues(row: number, column: Column): LiteralValue[] | undefined {
    const value = this.cell(row, column.index);
    if (value === undefined) return undefined;
    if (typeof value === 'number' || typeof value === 'boolean') return [value];
    if (isDate(value)) {
      this.problem(row, column.index, `${sheetDateText(value)} typed as a date: allowed values are strings in quotes, numbers, true or false`);
      return undefined;
    }
    const list = parseLiteralList(value);
    if ('problem' in list) this.problem(row, column.index, `allowed values are a list of FEEL literals ("gold", "silver", 5): ${list.problem}`);
    return 'values' in list ? list.values : undefined;
  }
}

/** Reads the table a sheet holds, if it holds one. */
export function readSheet(sheet: Sheet): SheetReading {
  const reader = new SheetReader(sheet);
  const rowCount = sheet.rows.length;
  const kindRow = sheet.rows.findIndex((_, row) => reader.label(row) === normalized(headerLabels.kind));
  if (kindRow < 0) return { isTable: false, problems: [], notCarried: [] };

  const tableRows = labelledRows(reader, 0, kindRow, tableFieldOf, 'the table');
  const expressionRow = sheet.rows.findIndex((_, row) => row > kindRow && reader.label(row) === normalized(headerLabels.expression));
  if (expressionRow < 0) {
    reader.problem(kindRow, 0, `no "${headerLabels.expression}" row below the "${headerLabels.kind}" row: it names each column, and the rules start below it`);
    return { isTable: true, problems: reader.problems, notCarried: reader.notCarried };
  }
  const headerRows = labelledRows(reader, kindRow + 1, expressionRow, headerFieldOf, 'the columns');
  headerRows.set('kind', kindRow);
  headerRows.set('expression', expressionRow);

  const columns = tableColumns(reader, kindRow);
  const inputs = columns.filter((c) => c.kind === 'input');
  const outputs = columns.filter((c) => c.kind === 'output');
  const [annotation, ...moreAnnotations] = columns.filter((c) => c.kind === 'annotation');
  if (!inputs.length) reader.problem(kindRow, 0, 'the table has no input column');
  if (!outputs.length) reader.problem(kindRow, 0, 'the table has no output column');

  const typeRow = headerRows.get('type');
  if (typeRow === undefined)
    reader.problem(kindRow, 0, `no "${headerLabels.type}" row between the "${headerLabels.kind}" and "${headerLabels.expression}" rows`);
  for (const column of [...inputs, ...outputs]) {
    const text = typeRow === undefined ? undefined : reader.text(typeRow, column.index);
    column.type = text ? typeOf.get(normalized(text)) : undefined;
    if (typeRow !== undefined && !column.type)
      reader.problem(typeRow, column.index, text ? `"${text}" is not a type (${typeNames.join(', ')})` : 'the column has no type');
  }
  // Without every column's type, its cells cannot be read.
  if (reader.problems.length) return { isTable: true, problems: reader.problems, notCarried: reader.notCarried };

  const isTableColumn = new Set(columns.map((c) => c.index));
  for (const [field, row] of headerRows)
    for (const column of columns)
      if (!headerRowKinds[field].includes(column.kind) && reader.cell(row, column.index) !== undefined)
        reader.notKept(row, column.index, `an ${column.kind} column has no ${headerLabels[field].toLowerCase()}: the cell is not read`);
  for (const column of moreAnnotations)
    for (let row = expressionRow + 1; row < rowCount; row++)
      if (reader.cell(row, column.index) !== undefined) reader.leaveOut(row, column.index, 'a rule has one description: the first annotation column');
  for (let row = kindRow; row < rowCount; row++)
    reader.cells(row).forEach((value, column) => {
      if (value !== undefined && column > 0 && !isTableColumn.has(column))
        reader.leaveOut(row, column, `outside the table: the "${headerLabels.kind}" row gives this column no kind (input, output or annotation)`);
    });

  const headerText = (field: HeaderField, column: Column) => {
    const row = headerRows.get(field);
    return row === undefined ? undefined : reader.text(row, column.index);
  };
  const expressions = [...inputs, ...outputs].map((column) => {
    const text = headerText('expression', column);
    if (!text) reader.problem(expressionRow, column.index, column.kind === 'input' ? 'the input has no expression' : 'the output has no name');
    return text ?? '';
  });
  const ids = columnIds(
    [...inputs, ...outputs].map((column) => headerText('id', column)),
    expressions,
    [...inputs.map((_, i) => `input-${i + 1}`), ...outputs.map((_, i) => `output-${i + 1}`)],
  );
  const label = (column: Column) => headerText('label', column);
  const definition = {
    ...tableSettings(reader, tableRows),
    inputs: inputs.map((column, i) => ({ id: ids[i]!, ...optional('label', label(column)), expression: expressions[i]!, type: column.type! })),
    outputs: outputs.map((column, i) => {
      const allowedRow = headerRows.get('allowedValues');
      const defaultRow = headerRows.get('default');
      const allowedValues = allowedRow === undefined ? undefined : reader.allowedValues(allowedRow, column);
      const defaultEntry = defaultRow === undefined ? undefined : reader.feel(defaultRow, column);
      return {
        id: ids[inputs.length + i]!,
        ...optional('label', label(column)),
        name: expressions[inputs.length + i]!,
        type: column.type!,
        ...optional('allowedValues', allowedValues),
        ...optional('default', defaultEntry),
      };
    }),
    rules: [] as { id?: string; description?: string; when: string[]; then: OutputEntry[] }[],
  };

  const lacking = new Set([...headerFieldOf].filter(([, field]) => !headerRows.has(field)).map(([label]) => label));
  for (let row = expressionRow + 1; row < rowCount; row++) {
    if (reader.isBlank(row, isTableColumn)) continue;
    const id = reader.text(row, 0) || undefined;
    if (id && lacking.has(normalized(id)))
      reader.problem(row, 0, `a rule called "${id}" below the "${headerLabels.expression}" row, in a table with no such header row: header rows go above it`);
    const description = annotation && reader.text(row, annotation.index);
    definition.rules.push({
      ...optional('id', id),
      ...optional('description', description),
      when: inputs.map((column) => reader.unaryTests(row, column)),
      then: outputs.map((column) => reader.feel(row, column) ?? null),
    });
  }
  reader.reportLeftOut();

  const record = { ...tableIdentity(reader, tableRows, sheet.name), type: 'decisionTable', definition };
  return { isTable: true, ...(!reader.problems.length && { record }), problems: reader.problems, notCarried: reader.notCarried };
}

const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/** The rows between `from` and `to` with a label of this block, by field; unknown and repeated labels are reported. */
function labelledRows<F extends string>(reader: SheetReader, from: number, to: number, fieldOf: Map<string, F>, block: string): Map<F, number> {
  const rows = new Map<F, number>();
  for (let row = from; row < to; row++) {
    if (reader.isBlank(row)) continue;
    const label = reader.label(row);
    const field = label === undefined ? undefined : fieldOf.get(label);
    if (field === undefined) {
      const text = reader.text(row, 0);
      reader.notKept(row, 0, text ? `"${text}" is not a label of ${block}: the row is not read` : 'a row with no label in column A is not read');
    } else if (rows.has(field)) reader.problem(row, 0, `a second "${reader.text(row, 0)}" row`);
    else rows.set(field, row);
  }
  return rows;
}

/** The table's columns, from the kinds the `Column` row gives them. */
function tableColumns(reader: SheetReader, kindRow: number): Column[] {
  const columns: Column[] = [];
  const cells = reader.cells(kindRow);
  for (let index = 1; index < cells.length; index++) {
    const text = reader.text(kindRow, index);
    if (!text) continue;
    const kind = columnKinds.find((k) => k === normalized(text));
    if (kind) columns.push({ index, kind });
    else reader.problem(kindRow, index, `"${text}" is not a kind of column: input, output or annotation`);
  }
  return columns;
}

/** Column ids: those given, and for the others one made from the expression or name (else from the column's place), unique among all. */
function columnIds(given: (string | undefined)[], expressions: string[], places: string[]): string[] {
  const taken = new Set(given.filter((id): id is string => !!id));
  return given.map((id, i) => {
    if (id) return id;
    const base = idFrom(expressions[i]!) || places[i]!;
    let made = base;
    for (let n = 2; taken.has(made); n++) made = `${base}-${n}`;
    taken.add(made);
    return made;
  });
}

function tableIdentity(reader: SheetReader, rows: Map<TableField, number>, sheetName: string) {
  const value = (field: TableField) => {
    const row = rows.get(field);
    return row === undefined ? undefined : reader.text(row, 1);
  };
  const tags: string[] = [];
  const tagRow = rows.get('tags');
  if (tagRow !== undefined)
    reader.cells(tagRow).forEach((cell, column) => {
      if (column > 0 && cell !== undefined) tags.push(plainText(cell));
    });
  const name = value('name') || sheetName.trim();
  return {
    id: value('id') || idFrom(sheetName) || 'table',
    name,
    ...optional('description', value('description')),
    ...(tagRow !== undefined && { tags }),
  };
}

/** The hit policy, aggregation and the service's own parts, from the rows that describe the table. */
function tableSettings(reader: SheetReader, rows: Map<TableField, number>) {
  for (const [field, row] of rows)
    if (field !== 'tags')
      reader.cells(row).forEach((cell, column) => {
        if (column > 1 && cell !== undefined) reader.leaveOut(row, column, `"${tableLabels[field]}" takes one value, in column B`);
      });
  const settings: { hitPolicy?: HitPolicy; aggregation?: Aggregation; parameters?: unknown; tests?: unknown; settings?: unknown } = {};
  const hitPolicyRow = rows.get('hitPolicy');
  const hitPolicyText = hitPolicyRow === undefined ? undefined : reader.text(hitPolicyRow, 1);
  if (hitPolicyRow !== undefined && hitPolicyText) {
    const found = hitPolicyOf.get(normalized(hitPolicyText));
    if (found) Object.assign(settings, found);
    else reader.problem(hitPolicyRow, 1, `"${hitPolicyText}" is not a hit policy (${hitPolicies.join(', ')}, or DMN's U, A, P, F, O, R, C, C+, C<, C>, C#)`);
  }
  const aggregationRow = rows.get('aggregation');
  const aggregationText = aggregationRow === undefined ? undefined : reader.text(aggregationRow, 1);
  if (aggregationRow !== undefined && aggregationText) {
    const aggregation = aggregationOf.get(normalized(aggregationText));
    if (!aggregation) reader.problem(aggregationRow, 1, `"${aggregationText}" is not an aggregation (${aggregations.join(', ')})`);
    else if (settings.aggregation && settings.aggregation !== aggregation)
      reader.problem(aggregationRow, 1, `the hit policy "${hitPolicyText}" aggregates by ${settings.aggregation}, this row by ${aggregation}`);
    else settings.aggregation = aggregation;
  }
  for (const field of ['parameters', 'tests', 'settings'] as const) {
    const row = rows.get(field);
    const text = row === undefined ? undefined : reader.text(row, 1);
    if (row === undefined || text === undefined) continue;
    try {
      settings[field] = parseJson(text);
    } catch (error) {
      reader.problem(row, 1, `"${tableLabels[field]}" is JSON: ${(error as Error).message}`);
    }
  }
  return settings;
}
