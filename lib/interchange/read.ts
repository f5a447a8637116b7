/**
 * One file read and checked: what the import operation, the CLI and the pull
 * share. The file is read by its format, and every record it yields is
 * checked as a save checks it (the record schema and the engine's checks),
 * so each caller decides what to write from the same findings.
 */
import { parseJson } from '../decimal/json.ts';
import { recordProblems } from '../authoring/record-check.ts';
import { workflowKind, type EntityInput, type EntityType } from '../entities/schema.ts';
import type { PathProblem } from '../vocabulary/errors.ts';
import { jsonDepthProblem } from '../vocabulary/json-bounds.ts';
import type { Warning } from '../store/types.ts';
import { ImportBoundExceeded, importBounds, isJdmDocument, refuseOversizeFile, type Format } from './format-contract.ts';

export interface CheckedRecord {
  entityType: EntityType;
  input: EntityInput;
  warnings: Warning[];
}

/** A file read and checked: its records, what refuses it, and what it held that no record keeps. */
export interface CheckedFile {
  records: CheckedRecord[];
  problems: PathProblem[];
  notCarried: PathProblem[];
}

/** JSON that is not a JDM graph: this service's own records, one or a list (what GET and the pull's files hold). */
function nativeRecords(bytes: Uint8Array): unknown[] | undefined {
  refuseOversizeFile(bytes);
  let value: unknown;
  try {
    value = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new ImportBoundExceeded('format', 'the file is not JSON in UTF-8');
  }
  const tooDeep = jsonDepthProblem(value, importBounds.maxDepth);
  if (tooDeep) throw new ImportBoundExceeded('maxDepth', `the JSON ${tooDeep}`);
  if (isJdmDocument(value)) return undefined;
  const records = Array.isArray(value) ? value : [value];
  if (records.length > importBounds.maxTables)
    throw new ImportBoundExceeded('maxTables', `the file holds ${records.length} records; at most ${importBounds.maxTables}`);
  return records;
}

/**
 * Reads one file in `format` and checks every record it yields as a save
 * would. Throws ImportBoundExceeded when the file passes a bound (checked
 * before the part it bounds is parsed); everything else is in the answer.
 */
export async function readRuleFile(origin: string, bytes: Uint8Array, format: Format): Promise<CheckedFile> {
  const native = format.name === 'jdm' ? nativeRecords(bytes) : undefined;
  const reading = native ? { records: native, problems: [], notCarried: [] } : await format.read(bytes, origin);
  const at = (element: string) => (element ? `${origin}: ${element}` : origin);
  const problems: PathProblem[] = reading.problems.map((p) => ({ path: at(p.element), message: p.message }));
  const records: CheckedRecord[] = [];
  reading.records.forEach((raw, i) => {
    const record = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const kind = String(record.type);
    // As its kind says: a record of another kind than its type is refused by recordProblems.
    const entityType: EntityType = kind === workflowKind ? 'workflow' : 'rule';
    const name = typeof record.id === 'string' ? record.id : `record ${i + 1}`;
    const { input, issues, warnings } = recordProblems(entityType, record);
    problems.push(...issues.map((issue) => ({ path: at(`${name} ${issue.field}`), message: issue.message })));
    if (input) records.push({ entityType, input, warnings });
  });
  return { records, problems, notCarried: reading.notCarried.map((n) => ({ path: at(n.element), message: n.message })) };
}
