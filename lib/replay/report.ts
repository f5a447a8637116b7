/**
 * What a replay found, and how: the reference of a report (`ReplayReport`),
 * the tally of one shard's inputs (`ReportTally`), the merge of the parts
 * that shards tallied (`mergeParts`), and the report they make
 * (`shownReport`). Pure: no I/O, so the worker, the publish gate and the
 * tests all tally alike.
 *
 * A report split across shards equals the one a single pass makes: counts
 * and hits add up; a shard keeps the first changed cases in its input order
 * and the merge the first of those in shard order; a shard tallies the first
 * output fields in text order, so the fields any merge keeps are tallied
 * whole (see `FieldTallies`). Numbers are exact (lib/decimal): a field's
 * deltas are candidate − baseline, summed to 34 significant digits.
 *
 * A completed replay keeps its report in its task, one DynamoDB item of at
 * most 400 KB, so every part is bounded (`reportBounds`): the report is at
 * most about 250 KB of JSON, a shard's part about 300 KB.
 */
import { add, compare, divide, isNum, subtract, type Num } from '../decimal/decimal.ts';
import { compareOutcomes, hitsOf, sameValue, type Comparison, type CoverageUnit, type Outcome } from '../engine/index.ts';
import { reportBounds } from './bounds.ts';

export interface ReplayCounts {
  inputs: number;
  /** The same answer: the same output (lib/engine/outcome.ts says when two are the same). */
  same: number;
  /** Another answer: both answered, differently, or both failed with different codes. */
  changed: number;
  /** The baseline answered, the candidate failed. */
  newlyFailing: number;
  /** The baseline failed, the candidate answered. */
  newlySucceeding: number;
  /** Both failed, with the same code. */
  bothFailing: number;
}

/** Inputs whose outcome the candidate changes: another output, or an answer where there was a failure or the other way round. */
export const changedOutcomes = (counts: ReplayCounts) => counts.changed + counts.newlyFailing + counts.newlySucceeding;

/** Candidate − baseline over the changed values of a field where both are numbers: exact, until a sum outgrows decimal128 (`overflow`). */
export interface Deltas {
  count: number;
  sum: Num;
  min: Num;
  max: Num;
}

export interface FieldTally {
  /** Changed outputs in which this field differs. */
  changed: number;
  deltas?: Deltas;
  /** A delta or sum beyond decimal128's range: no statistics are given. */
  overflow?: true;
}

/** One side of a changed case as a report shows it. */
export interface CaseSide {
  output?: unknown;
  error?: { code: string; message?: string };
  /** The rows, entries or branches that gave the answer, by name (the first `reportBounds.caseHits`). */
  hits: string[];
  /** How many more there were. */
  moreHits?: number;
}

/** A changed outcome as a report shows it. */
export interface ChangedCase {
  /** Its place among the replay's inputs, from 0: the executions oldest first, or the list's order. */
  inputIndex: number;
  /** The recorded execution it replays. */
  executionId?: string;
  /** The params, as recorded or given. */
  input?: unknown;
  baseline: CaseSide;
  candidate: CaseSide;
  /** The case was larger than `reportBounds.caseBytes`: its input, outputs and error messages are left out. */
  omitted?: true;
}

/** How often a row, entry or branch gave the answer. */
export interface UnitHits {
  name: string;
  id?: string;
  hits: number;
}

export interface FieldChange {
  /** A top-level output field, or `[i]` for the i-th item of a list answer, or `(answer)` for an answer of neither kind. */
  field: string;
  changed: number;
  /** Candidate − baseline, when both values were numbers in some of the changes. */
  delta?: { count: number; mean: Num; min: Num; max: Num };
  overflow?: true;
}

/** A replay's report, as a completed task holds it. */
export interface ReplayReport {
  counts: ReplayCounts;
  /** Per row, entry or branch of each side (they may have different ones), in their order: how often each gave the answer. */
  hits: { baseline: UnitHits[]; candidate: UnitHits[]; notListed?: { baseline: number; candidate: number } };
  /** The fields of changed outputs that changed, most often first (at most `reportBounds.listedFields`). */
  fields: FieldChange[];
  /** Fields that changed but are not listed. */
  moreFields?: number;
  /** Outputs had more than `reportBounds.trackedFields` fields in all: those after it in text order are not tallied. */
  fieldsNotTracked?: true;
  /** The first changed outcomes in input order. */
  sample: ChangedCase[];
}

/** What a shard tallied, or the merge of several shards' (the same shape, so merges chain). Stored as JSON text with exact numbers. */
export interface ReportPart {
  /** The shards merged into it, each with the inputs it had, by shard. */
  shards: [shard: number, inputs: number][];
  counts: ReplayCounts;
  hits: { baseline: number[]; candidate: number[] };
  /** Sorted by field, in code-point order. */
  fields: [field: string, tally: FieldTally][];
  fieldsCut: boolean;
  /** The first changed cases of the shards merged, in input order; `inputIndex` counts within the shard. */
  sample: (ChangedCase & { shard: number })[];
}

const emptyCounts = (): ReplayCounts => ({ inputs: 0, same: 0, changed: 0, newlyFailing: 0, newlySucceeding: 0, bothFailing: 0 });

// ---------------------------------------------------------------------------------------------------------------------
// An answer's fields.

/** An answer's fields: an object's by key, a list's by index (`[0]`), anything else as the one field `(answer)`. */
function fieldsOf(value: unknown): Map<string, unknown> {
  if (Array.isArray(value)) return new Map(value.map((item, i) => [`[${i}]`, item]));
  if (value !== null && typeof value === 'object' && !isNum(value)) return new Map(Object.entries(value));
  return new Map([['(answer)', value]]);
}

const codePointOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------------------------------------------------------------
// Field tallies.

/**
 * The tallies of the first `reportBounds.trackedFields` fields in text
 * order. Once full, a field after the last kept one is dropped and one
 * before it takes the last one's place; so the last kept field only moves
 * back, a dropped field is never taken again, and every kept field's tally
 * is whole. Merged, the first fields of the union are whole too: each was
 * among the first of every shard that met it.
 */
class FieldTallies {
  readonly tallies = new Map<string, FieldTally>();
  cut = false;

  /** The tally of `field`, or undefined when it is not tracked. */
  of(field: string): FieldTally | undefined {
    const kept = this.tallies.get(field);
    if (kept) return kept;
    if (this.tallies.size >= reportBounds.trackedFields) {
      this.cut = true;
      const last = [...this.tallies.keys()].reduce((a, b) => (codePointOrder(a, b) > 0 ? a : b));
      if (codePointOrder(field, last) > 0) return undefined;
      this.tallies.delete(last);
    }
    const tally: FieldTally = { changed: 0 };
    this.tallies.set(field, tally);
    return tally;
  }

  sorted(): [string, FieldTally][] {
    return [...this.tallies.entries()].sort(([a], [b]) => codePointOrder(a, b));
  }
}

/** Adds one delta, or a part's deltas, to a tally; a result beyond decimal128 ends the tally's statistics. */
function addDeltas(tally: FieldTally, more: Deltas) {
  if (tally.overflow) return;
  const known = tally.deltas;
  const sum = known ? add(known.sum, more.sum) : more.sum;
  if (sum === null) {
    delete tally.deltas;
    tally.overflow = true;
    return;
  }
  tally.deltas = known
    ? {
        count: known.count + more.count,
        sum,
        min: compare(more.min, known.min) < 0 ? more.min : known.min,
        max: compare(more.max, known.max) > 0 ? more.max : known.max,
      }
    : more;
}

function mergeTally(into: FieldTally, from: FieldTally) {
  into.changed += from.changed;
  if (from.overflow) {
    delete into.deltas;
    into.overflow = true;
  } else if (from.deltas) addDeltas(into, from.deltas);
}

// ---------------------------------------------------------------------------------------------------------------------
// Tallying one shard.

/** The coverage units of each side: what hit indexes are counted against and named by. */
export interface SideUnits {
  baseline: CoverageUnit[];
  candidate: CoverageUnit[];
}

/** The names of the units hit, the first `reportBounds.caseHits`. */
function namedHits(hits: number[], units: CoverageUnit[]): Pick<CaseSide, 'hits' | 'moreHits'> {
  const names = hits.slice(0, reportBounds.caseHits).map((index) => units[index]?.name ?? `#${index}`);
  return { hits: names, ...(hits.length > names.length && { moreHits: hits.length - names.length }) };
}

const shownSide = (outcome: Outcome, units: CoverageUnit[]): CaseSide => ({
  ...('error' in outcome ? { error: outcome.error } : { output: outcome.output }),
  ...namedHits(hitsOf(outcome), units),
});

/** Without its input, answers and error messages: what a case larger than `reportBounds.caseBytes` keeps. */
const briefSide = ({ error, hits, moreHits }: CaseSide): CaseSide => ({
  ...(error && { error: { code: error.code } }),
  hits,
  ...(moreHits !== undefined && { moreHits }),
});

function boundedCase(shown: ChangedCase): ChangedCase {
  if (Buffer.byteLength(JSON.stringify(shown)) <= reportBounds.caseBytes) return shown;
  const { inputIndex, executionId, baseline, candidate } = shown;
  return { inputIndex, ...(executionId !== undefined && { executionId }), baseline: briefSide(baseline), candidate: briefSide(candidate), omitted: true };
}

/** Tallies one shard's inputs, one at a time, into its part. */
export class ReportTally {
  private readonly counts = emptyCounts();
  private readonly hits: { baseline: number[]; candidate: number[] };
  private readonly fields = new FieldTallies();
  private readonly sample: (ChangedCase & { shard: number })[] = [];

  constructor(
    private readonly shard: number,
    private readonly units: SideUnits,
  ) {
    this.hits = { baseline: units.baseline.map(() => 0), candidate: units.candidate.map(() => 0) };
  }

  add(input: unknown, baseline: Outcome, candidate: Outcome, executionId?: string): void {
    const inputIndex = this.counts.inputs++;
    for (const index of hitsOf(baseline)) this.hits.baseline[index]!++;
    for (const index of hitsOf(candidate)) this.hits.candidate[index]!++;
    const comparison: Comparison = compareOutcomes(baseline, candidate);
    this.counts[comparison]++;
    if (comparison === 'same' || comparison === 'bothFailing') return;
    if ('output' in baseline && 'output' in candidate) this.tallyFields(baseline.output, candidate.output);
    if (this.sample.length < reportBounds.sampleCases)
      this.sample.push({
        shard: this.shard,
        ...boundedCase({
          inputIndex,
          ...(executionId !== undefined && { executionId }),
          input,
          baseline: shownSide(baseline, this.units.baseline),
          candidate: shownSide(candidate, this.units.candidate),
        }),
      });
  }

  private tallyFields(before: unknown, after: unknown) {
    const [was, is] = [fieldsOf(before), fieldsOf(after)];
    for (const field of new Set([...was.keys(), ...is.keys()])) {
      const [a, b] = [was.get(field), is.get(field)];
      if (sameValue(a, b)) continue;
      const tally = this.fields.of(field);
      if (!tally) continue;
      tally.changed++;
      if (!isNum(a) || !isNum(b)) continue;
      const delta = subtract(b, a);
      if (delta === null) {
        delete tally.deltas;
        tally.overflow = true;
      } else addDeltas(tally, { count: 1, sum: delta, min: delta, max: delta });
    }
  }

  part(): ReportPart {
    return {
      shards: [[this.shard, this.counts.inputs]],
      counts: this.counts,
      hits: this.hits,
      fields: this.fields.sorted(),
      fieldsCut: this.fields.cut,
      sample: this.sample,
    };
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Merging parts, and the report they make.

const sumInto = (into: number[], from: number[]) => from.forEach((n, i) => (into[i] = (into[i] ?? 0) + n));

/** The part of several parts together: what one shard covering all their inputs would have tallied. */
export function mergeParts(parts: Iterable<ReportPart>): ReportPart {
  const merged: ReportPart = { shards: [], counts: emptyCounts(), hits: { baseline: [], candidate: [] }, fields: [], fieldsCut: false, sample: [] };
  const fields = new Map<string, FieldTally>();
  for (const part of parts) {
    merged.shards.push(...part.shards);
    for (const key of Object.keys(merged.counts) as (keyof ReplayCounts)[]) merged.counts[key] += part.counts[key];
    sumInto(merged.hits.baseline, part.hits.baseline);
    sumInto(merged.hits.candidate, part.hits.candidate);
    for (const [field, tally] of part.fields) {
      const into = fields.get(field);
      if (into) mergeTally(into, tally);
      else fields.set(field, { ...tally, ...(tally.deltas && { deltas: { ...tally.deltas } }) });
    }
    merged.fieldsCut ||= part.fieldsCut;
    merged.sample = [...merged.sample, ...part.sample].sort((a, b) => a.shard - b.shard || a.inputIndex - b.inputIndex).slice(0, reportBounds.sampleCases);
  }
  const sortedFields = [...fields.entries()].sort(([a], [b]) => codePointOrder(a, b));
  merged.fieldsCut ||= sortedFields.length > reportBounds.trackedFields;
  merged.fields = sortedFields.slice(0, reportBounds.trackedFields);
  return merged;
}

/** The units of one side with their hits, in order, as many as `reportBounds.listedUnitsBytes` of JSON hold. */
function listedUnits(units: CoverageUnit[], hits: number[]): UnitHits[] {
  const listed: UnitHits[] = [];
  let bytes = 0;
  for (const unit of units) {
    const entry: UnitHits = { name: unit.name, ...(unit.id !== undefined && { id: unit.id }), hits: hits[unit.index] ?? 0 };
    bytes += Buffer.byteLength(JSON.stringify(entry)) + 1;
    if (bytes > reportBounds.listedUnitsBytes) break;
    listed.push(entry);
  }
  return listed;
}

function fieldChange([field, { changed, deltas, overflow }]: [string, FieldTally]): FieldChange {
  const mean = deltas ? divide(deltas.sum, deltas.count) : undefined;
  if (overflow || mean === null) return { field, changed, overflow: true };
  return { field, changed, ...(deltas && mean !== undefined && { delta: { count: deltas.count, mean, min: deltas.min, max: deltas.max } }) };
}

/** The report of all a replay's shards, merged: its units named, its fields and rows listed within bounds, its sample's cases placed among all the inputs. */
export function shownReport(part: ReportPart, units: SideUnits): ReplayReport {
  const baseline = listedUnits(units.baseline, part.hits.baseline);
  const candidate = listedUnits(units.candidate, part.hits.candidate);
  const notListed = { baseline: units.baseline.length - baseline.length, candidate: units.candidate.length - candidate.length };
  const fields = [...part.fields].sort(([a, x], [b, y]) => y.changed - x.changed || codePointOrder(a, b));
  const offsets = new Map<number, number>();
  let offset = 0;
  for (const [shard, inputs] of [...part.shards].sort(([a], [b]) => a - b)) {
    offsets.set(shard, offset);
    offset += inputs;
  }
  return {
    counts: part.counts,
    hits: { baseline, candidate, ...((notListed.baseline || notListed.candidate) && { notListed }) },
    fields: fields.slice(0, reportBounds.listedFields).map(fieldChange),
    ...(fields.length > reportBounds.listedFields && { moreFields: fields.length - reportBounds.listedFields }),
    ...(part.fieldsCut && { fieldsNotTracked: true as const }),
    sample: part.sample.map(({ shard, inputIndex, ...shown }) => ({ ...shown, inputIndex: offsets.get(shard)! + inputIndex })),
  };
}
