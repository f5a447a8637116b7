/**
 * The rules engine's speed beside @gorules/zen-engine (Rust, Node bindings)
 * and json-rules-engine: the issue's "Speed" section. Each decision table is
 * built once as this engine's definition and translated, from its prepared
 * (parsed) form, to zen's JDM graph and to json-rules-engine rules; all three
 * must give the same answers on the inputs before anything is timed. Then
 * throughput and per-call latency per table and engine, and compile time per
 * 1,000 rows.
 *
 * `npm run bench` runs it as one section of the bench (run.ts appends its
 * tables to RESULTS.md); `npm run bench:engine` runs it alone and rewrites
 * only its section of RESULTS.md. Not a test: vitest does not collect it.
 */
import { readFile } from 'node:fs/promises';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { loadZenEngine, zenVersion, type ZenDecision } from './zen-engine.ts';
import { Engine as RulesEngine, type NestedCondition, type RuleProperties } from 'json-rules-engine';
import { negate, type Num } from '../../lib/decimal/decimal.ts';
import { compileRule, evaluateRule, type CompiledRule } from '../../lib/engine/compile.ts';
import type { DecisionTableDefinition } from '../../lib/engine/definitions.ts';
import type { Expr, Test, UnaryTests } from '../../lib/engine/feel/ast.ts';
import { prepareRule } from '../../lib/engine/prepare.ts';
import type { PreparedDecisionTable } from '../../lib/engine/prepared.ts';
import { seeded } from '../helpers/seeded.ts';
import { putSection } from './results-file.ts';

/** The issue's targets. */
export const engineTargets = { overZen: 20, overJsonRules: 100, largeOverSmall: 3 } as const;

/** Each timed measurement is `rounds` windows of `windowMs`, the contenders taking turns; `warmupMs` untimed before. */
const settings = { rounds: 4, windowMs: 400, warmupMs: 300, inFlight: 64, perCategory: 64, sampleEvery: 7, largeTableChecks: 4, seed: 20_251_122 };
const compileRepeats = { small: 15, large: 5 };
const compileWarmupMs = 500;

export type Params = Record<string, string | number>;
type Category = 'early' | 'middle' | 'late' | 'none';
const categories: readonly Category[] = ['early', 'middle', 'late', 'none'];

// ---------------------------------------------------------------- the tables

/** A table's params and its input columns, one per param, read as they are: each name given once. */
const declared = (...columns: [name: string, type: 'string' | 'number'][]) => ({
  parameters: columns.map(([name, type]) => ({ name, type })),
  inputs: columns.map(([id, type]) => ({ id, expression: id, type })),
});

/** A decision table and a generator of candidate inputs; the inputs are then picked by where their first hit falls. */
export interface TableSpec {
  key: 'a' | 'b' | 'c';
  title: string;
  definition: DecisionTableDefinition;
  candidate: (random: () => number) => Params;
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: () => number, lo: number, hi: number) => lo + Math.floor(random() * (hi - lo));
/** A whole number of cents as the decimal it names (19.99, not 19.990000000000002), as a definition's JSON carries it. */
const cents = (n: number) => Number(`${n}e-2`);

/** (a) 20 rows over 4 inputs: string equality (one value or several), number comparisons, ranges open and closed, and `-`; no catch-all. */
function mixedTable(): TableSpec {
  const cells = [
    ['"gold"', '< 18', '-', '"US"'],
    ['"gold"', '[18..65]', '>= 1000', '-'],
    ['"gold"', '[18..65]', '< 1000', '"US","CA"'],
    ['"gold"', '> 65', '-', '-'],
    ['"silver"', '< 25', '-', '"US"'],
    ['"silver"', '[25..40)', '[500..5000]', '-'],
    ['"silver"', '[40..65]', '> 2000', '"DE","FR"'],
    ['"silver"', '-', '<= 100', '-'],
    ['"bronze"', '[18..30]', '-', '"US","CA","MX"'],
    ['"bronze"', '(30..50]', '>= 250', '-'],
    ['"bronze"', '> 50', '< 250', '"DE"'],
    ['-', '< 18', '> 5000', '-'],
    ['"gold","silver"', '-', '[1000..2000)', '"FR"'],
    ['"bronze"', '-', '> 8000', '"US"'],
    ['-', '[70..80]', '-', '"CA"'],
    ['"platinum"', '-', '-', '"US"'],
    ['"platinum"', '>= 30', '(100..900)', '-'],
    ['-', '-', '> 9000', '"MX"'],
    ['"silver","bronze"', '(65..75)', '-', '"FR","DE"'],
    ['"platinum"', '< 30', '-', '"JP"'],
  ];
  return {
    key: 'a',
    title: '(a) 20 rows, mixed cells, 4 inputs',
    definition: {
      hitPolicy: 'first',
      ...declared(['tier', 'string'], ['age', 'number'], ['amount', 'number'], ['country', 'string']),
      outputs: [
        { id: 'discount', name: 'discount', type: 'number' },
        { id: 'code', name: 'code', type: 'string' },
      ],
      rules: cells.map((when, r) => ({ when, then: [cents((r % 7) * 5), `"r${r + 1}"`] })),
    },
    candidate: (random) => ({
      tier: pick(random, ['gold', 'silver', 'bronze', 'platinum', 'basic']),
      age: between(random, 10, 90),
      amount: between(random, 0, 1_000_000) / 100,
      country: pick(random, ['US', 'CA', 'MX', 'DE', 'FR', 'JP', 'BR']),
    }),
  };
}

/** (b) 1,000 rows of range cells over 2 inputs: score in [10i..10i+10), amount in [0..500] (even rows) or (500..1000] (odd rows). */
function rangeTable(): TableSpec {
  const rows = 1_000;
  return {
    key: 'b',
    title: '(b) 1,000 rows, range cells, 2 inputs',
    definition: {
      hitPolicy: 'first',
      ...declared(['score', 'number'], ['amount', 'number']),
      outputs: [
        { id: 'rate', name: 'rate', type: 'number' },
        { id: 'code', name: 'code', type: 'string' },
      ],
      rules: Array.from({ length: rows }, (_, r) => ({
        when: [`[${r * 10}..${r * 10 + 10})`, r % 2 === 0 ? '[0..500]' : '(500..1000]'],
        then: [cents((r % 13) * 100 + (r % 100)), `"r${r + 1}"`],
      })),
    },
    candidate: (random) => ({ score: between(random, -200, 10_200), amount: between(random, 0, 110_000) / 100 }),
  };
}

/** (c) 10,000 rows whose first column is an equality test: 2,500 SKUs of 4 rows each (quantity bands by channel, then the SKU's `-` row). */
function equalityTable(): TableSpec {
  const skus = 2_500;
  const sku = (k: number) => `SKU-${String(k).padStart(5, '0')}`;
  const variants = [
    ['< 10', '"web"'],
    ['[10..100)', '"web","store"'],
    ['>= 100', '-'],
    ['-', '-'],
  ];
  return {
    key: 'c',
    title: '(c) 10,000 rows, equality first column, 3 inputs',
    definition: {
      hitPolicy: 'first',
      ...declared(['sku', 'string'], ['quantity', 'number'], ['channel', 'string']),
      outputs: [
        { id: 'price', name: 'price', type: 'number' },
        { id: 'code', name: 'code', type: 'string' },
      ],
      rules: Array.from({ length: skus * variants.length }, (_, r) => ({
        when: [`"${sku(Math.floor(r / variants.length))}"`, ...variants[r % variants.length]!],
        then: [cents((99 + (r % 97)) * 100 + 99), `"r${r + 1}"`],
      })),
    },
    // SKUs past the last one are unknown: no row matches.
    candidate: (random) => ({
      sku: sku(between(random, 0, Math.round(skus * 1.2))),
      quantity: between(random, 1, 200),
      channel: pick(random, ['web', 'store', 'phone']),
    }),
  };
}

// ---------------------------------------------------------------- translations

const literalOf = (e: Expr): string | Num | boolean => {
  if (e.k === 'str' || e.k === 'num' || e.k === 'bool') return e.v;
  if (e.k === 'neg' && e.of.k === 'num') return negate(e.of.v);
  throw new Error(`the translation handles literals only, not ${JSON.stringify(e)}`);
};

function inputNames(prepared: PreparedDecisionTable): string[] {
  return prepared.inputs.map((input) => {
    if (input.expr.k !== 'var') throw new Error(`the translation handles inputs that name a param, not ${input.text}`);
    return input.expr.name;
  });
}

/** A row's outputs as plain values, by output name. */
const rowOutputs = (prepared: PreparedDecisionTable, row: PreparedDecisionTable['rows'][number]) =>
  Object.fromEntries(row.outputs.map((o, i) => [prepared.outputs[i]!.name, 'literal' in o ? o.literal : literalOf(o.expr)]));

function checkTranslatable(prepared: PreparedDecisionTable) {
  if (prepared.hitPolicy !== 'first' && prepared.hitPolicy !== 'collect')
    throw new Error(`the translation handles first and collect, not ${prepared.hitPolicy}`);
  if (prepared.aggregation) throw new Error('the translation handles collect without aggregation');
}

const zenLiteral = (v: string | Num | boolean) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

function zenTest(test: Test): string {
  if (test.k === 'cmp') {
    if (test.op === '=') return zenLiteral(literalOf(test.r));
    if (test.op === '!=') throw new Error('the translation does not handle !=');
    return `${test.op} ${zenLiteral(literalOf(test.r))}`;
  }
  const e = test.e;
  if (e.k !== 'range') return zenLiteral(literalOf(e));
  if (!e.lo || !e.hi) throw new Error('the translation handles ranges with both ends');
  return `${e.loClosed ? '[' : '('}${zenLiteral(literalOf(e.lo))}..${zenLiteral(literalOf(e.hi))}${e.hiClosed ? ']' : ')'}`;
}

function zenCell(cell: UnaryTests): string {
  if (cell.k === 'any') return '';
  if (cell.not) throw new Error('the translation does not handle not(...)');
  return cell.tests.map(zenTest).join(', ');
}

/** zen's JDM: an input node, one decision table node (unary cells on `field` columns), an output node. */
export function toZen(prepared: PreparedDecisionTable): object {
  checkTranslatable(prepared);
  const fields = inputNames(prepared);
  const inputIds = fields.map((_, i) => `in${i}`);
  const outputIds = prepared.outputs.map((_, i) => `out${i}`);
  const position = { x: 0, y: 0 };
  return {
    contentType: 'application/vnd.gorules.decision',
    nodes: [
      { id: 'request', type: 'inputNode', name: 'Request', position },
      {
        id: 'table',
        type: 'decisionTableNode',
        name: 'Table',
        position,
        content: {
          hitPolicy: prepared.hitPolicy,
          inputs: fields.map((field, i) => ({ id: inputIds[i], name: field, field })),
          outputs: prepared.outputs.map((o, i) => ({ id: outputIds[i], name: o.name, field: o.name })),
          rules: prepared.rows.map((row, r) => {
            const rule: Record<string, string> = { _id: `row${r + 1}` };
            row.cells.forEach((cell, i) => (rule[inputIds[i]!] = zenCell(cell)));
            Object.values(rowOutputs(prepared, row)).forEach((value, i) => (rule[outputIds[i]!] = value === null ? 'null' : zenLiteral(value)));
            return rule;
          }),
        },
      },
      { id: 'response', type: 'outputNode', name: 'Response', position },
    ],
    edges: [
      { id: 'e1', type: 'edge', sourceId: 'request', targetId: 'table' },
      { id: 'e2', type: 'edge', sourceId: 'table', targetId: 'response' },
    ],
  };
}

const jsonRulesOperator = { '<': 'lessThan', '<=': 'lessThanInclusive', '>': 'greaterThan', '>=': 'greaterThanInclusive', '=': 'equal' } as const;

/** The conditions (all must hold) of one unary test on `fact`. */
function jsonRulesTest(fact: string, test: Test): NestedCondition[] {
  if (test.k === 'cmp') {
    if (test.op === '!=') throw new Error('the translation does not handle !=');
    return [{ fact, operator: jsonRulesOperator[test.op], value: literalOf(test.r) }];
  }
  const e = test.e;
  if (e.k !== 'range') return [{ fact, operator: 'equal', value: literalOf(e) }];
  const ends: NestedCondition[] = [];
  if (e.lo) ends.push({ fact, operator: e.loClosed ? 'greaterThanInclusive' : 'greaterThan', value: literalOf(e.lo) });
  if (e.hi) ends.push({ fact, operator: e.hiClosed ? 'lessThanInclusive' : 'lessThan', value: literalOf(e.hi) });
  return ends;
}

/** A cell as conditions to AND: none for `-`, `in` for a list of values, `any` for other lists. */
function jsonRulesCell(fact: string, cell: UnaryTests): NestedCondition[] {
  if (cell.k === 'any') return [];
  if (cell.not) throw new Error('the translation does not handle not(...)');
  if (cell.tests.length === 1) return jsonRulesTest(fact, cell.tests[0]!);
  const values = cell.tests.map((t) => (t.k === 'expr' && t.e.k !== 'range' ? literalOf(t.e) : t.k === 'cmp' && t.op === '=' ? literalOf(t.r) : undefined));
  if (values.every((v) => v !== undefined)) return [{ fact, operator: 'in', value: values }];
  return [{ any: cell.tests.map((t) => ({ all: jsonRulesTest(fact, t) })) }];
}

/** One rule per row, its outputs in the event; priorities falling with the row, so rows run in order. */
export function toJsonRules(prepared: PreparedDecisionTable): RuleProperties[] {
  checkTranslatable(prepared);
  const facts = inputNames(prepared);
  const rows = prepared.rows.length;
  return prepared.rows.map((row, r) => ({
    name: `row ${r + 1}`,
    priority: rows - r,
    conditions: { all: row.cells.flatMap((cell, i) => jsonRulesCell(facts[i]!, cell)) },
    event: { type: 'row', params: rowOutputs(prepared, row) },
  }));
}

// ---------------------------------------------------------------- timing

/** Latency samples in milliseconds, in a growing typed array (millions of calls for the fast engines). */
class Samples {
  private data = new Float64Array(1 << 16);
  length = 0;
  push(ms: number) {
    if (this.length === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = ms;
  }
  /** Nearest-rank quantiles, as stats.ts computes them. */
  quantiles(qs: number[]): number[] {
    const sorted = this.data.slice(0, this.length).sort();
    return qs.map((q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!);
  }
}

type Mode = 'sync' | 'sequential' | 'concurrent';
type Call = (params: Params) => unknown;

interface Contender {
  engine: 'ours' | 'zen' | 'jsonRules';
  /** How it was driven: a plain call (ours), awaited one at a time, or `inFlight` awaited at once (zen). */
  mode: Mode;
  label: string;
  call: Call;
}

interface Tally {
  calls: number;
  ms: number;
  /** The process's CPU time (user + system, all threads) over the windows. */
  cpuMs: number;
  /** Evaluations per second in each round's window. */
  perRound: number[];
  samples: Samples;
}

/** Where results go, so that no call is optimised away. */
let sink: unknown;

/** Runs `call` over the inputs in turn for `ms`, timing each call (one in `sampleEvery` of a sync one); returns the calls made and the window's wall time. */
async function runWindow(
  contender: Contender,
  inputs: Params[],
  ms: number,
  start: number,
  samples: Samples | null,
): Promise<{ calls: number; ms: number; next: number }> {
  let next = start;
  let calls = 0;
  const began = performance.now();
  const deadline = began + ms;
  const { call, mode } = contender;
  if (mode === 'sync') {
    // One call in `sampleEvery` is timed on its own (from the timestamp that ends the previous batch), the rest run untimed:
    // a sub-microsecond call would otherwise carry two clock reads of its own. 7 is prime to the 256 inputs, so every input gets timed.
    let t0 = began;
    while (t0 < deadline) {
      sink = call(inputs[next++ % inputs.length]!);
      samples?.push(performance.now() - t0);
      for (let k = 1; k < settings.sampleEvery; k++) sink = call(inputs[next++ % inputs.length]!);
      calls += settings.sampleEvery;
      t0 = performance.now();
    }
    return { calls, ms: t0 - began, next };
  }
  const worker = async () => {
    while (performance.now() < deadline) {
      const params = inputs[next++ % inputs.length]!;
      const t0 = performance.now();
      sink = await call(params);
      samples?.push(performance.now() - t0);
      calls++;
    }
  };
  await Promise.all(Array.from({ length: mode === 'concurrent' ? settings.inFlight : 1 }, worker));
  return { calls, ms: performance.now() - began, next };
}

/** Warms every contender, then times them in rounds, taking turns with the order rotating, so drift and GC fall on all alike. */
async function measure(contenders: Contender[], inputs: Params[]): Promise<Tally[]> {
  const tallies: Tally[] = contenders.map(() => ({ calls: 0, ms: 0, cpuMs: 0, perRound: [], samples: new Samples() }));
  const cursors = contenders.map(() => 0);
  for (const contender of contenders) await runWindow(contender, inputs, settings.warmupMs, 0, null);
  for (let round = 0; round < settings.rounds; round++)
    for (let turn = 0; turn < contenders.length; turn++) {
      const i = (round + turn) % contenders.length;
      const cpu = process.cpuUsage();
      const window = await runWindow(contenders[i]!, inputs, settings.windowMs, cursors[i]!, tallies[i]!.samples);
      const used = process.cpuUsage(cpu);
      tallies[i]!.cpuMs += (used.user + used.system) / 1000;
      cursors[i] = window.next;
      tallies[i]!.calls += window.calls;
      tallies[i]!.ms += window.ms;
      tallies[i]!.perRound.push((window.calls / window.ms) * 1000);
    }
  return tallies;
}

/** What the sync loop measures around an empty function: the clock's share of each latency sample (median), and of each call's mean (1 ÷ throughput). */
async function timerOverhead(): Promise<{ sampleNs: number; meanNs: number }> {
  const nothing: Contender = { engine: 'ours', mode: 'sync', label: 'empty', call: () => null };
  await runWindow(nothing, [{}], 100, 0, null);
  const samples = new Samples();
  const { calls, ms } = await runWindow(nothing, [{}], 300, 0, samples);
  return { sampleNs: samples.quantiles([0.5])[0]! * 1e6, meanNs: (ms / calls) * 1e6 };
}

const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length / 2) - 1]!;

/** The median of `repeats` timed runs, after untimed ones for at least `compileWarmupMs` (one at least), so that the JIT has settled. */
function timeSync(repeats: number, run: () => void): number {
  for (const started = performance.now(); performance.now() - started < compileWarmupMs;) run();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  return medianOf(times);
}

// ---------------------------------------------------------------- the section

export interface ContenderFigures {
  engine: Contender['engine'];
  mode: Mode;
  label: string;
  calls: number;
  perSecond: number;
  perRound: number[];
  meanUs: number;
  /** CPU time of the whole process per call: robust to other work on the machine, and counting zen-engine's native threads too. */
  cpuUs: number;
  medianUs: number;
  p99Us: number;
}

export interface WorkloadFigures {
  key: string;
  title: string;
  hitPolicy: 'first' | 'collect';
  rows: number;
  contenders: ContenderFigures[];
}

export interface CompileFigures {
  key: string;
  rows: number;
  prepareMs: number;
  compileMs: number;
  zenCreateMs: number;
  zenFirstEvaluateMs: number;
  jsonRulesEngineMs: number;
}

export interface InputFigures {
  key: string;
  inputs: number;
  byCategory: Record<Category, number>;
  rowsHit: { first: number; last: number };
  zenChecked: number;
  jsonRulesChecked: number;
  collectMatches?: { min: number; max: number; mean: number };
}

export interface EngineFigures {
  startedAt: Date;
  durationMs: number;
  machine: string;
  versions: string;
  timerOverhead: { sampleNs: number; meanNs: number };
  /** os.loadavg() (1, 5, 15 minutes) before and after: other work on the machine slows every engine. */
  load: { before: number[]; after: number[] };
  workloads: WorkloadFigures[];
  compile: CompileFigures[];
  inputs: InputFigures[];
}

/** The three tables, as this engine's definitions (for the bench, and for profiling one of them alone). */
export const benchTables = (): TableSpec[] => [mixedTable(), rangeTable(), equalityTable()];

/** Picks `perCategory` inputs of each category (where the first hit falls: first, middle or last third of the rows, or none) from seeded candidates. */
export function chooseInputs(spec: TableSpec, firstHitRow: (params: Params) => number | null): { inputs: Params[]; rowsHit: number[] } {
  const random = seeded(settings.seed + spec.key.charCodeAt(0));
  const rows = spec.definition.rules.length;
  const chosen = new Map<Category, Params[]>(categories.map((c) => [c, []]));
  const rowsHit: number[] = [];
  for (let tries = 0; [...chosen.values()].some((list) => list.length < settings.perCategory); tries++) {
    if (tries > 1_000_000) throw new Error(`table ${spec.key}: the candidates do not reach every category`);
    const params = spec.candidate(random);
    const row = firstHitRow(params);
    const category: Category = row === null ? 'none' : row < rows / 3 ? 'early' : row < (2 * rows) / 3 ? 'middle' : 'late';
    const list = chosen.get(category)!;
    if (list.length >= settings.perCategory) continue;
    list.push(params);
    if (row !== null) rowsHit.push(row);
  }
  // Interleaved, so that every window of calls sees every category.
  const inputs: Params[] = [];
  for (let i = 0; i < settings.perCategory; i++) for (const c of categories) inputs.push(chosen.get(c)![i]!);
  return { inputs, rowsHit };
}

const codeRow = (output: unknown): number | null => {
  if (output === null) return null;
  const code = (output as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^r\d+$/.test(code)) throw new Error(`unexpected output ${JSON.stringify(output)}`);
  return Number(code.slice(1)) - 1;
};

function compiled(definition: DecisionTableDefinition): { rule: CompiledRule; prepared: PreparedDecisionTable } {
  const { prepared, problems } = prepareRule({ kind: 'decisionTable', definition });
  if (problems.length)
    throw new Error(
      `the bench table has problems: ${problems
        .slice(0, 3)
        .map((p) => `${p.path} ${p.message}`)
        .join('; ')}`,
    );
  return { rule: compileRule(prepared), prepared: prepared as PreparedDecisionTable };
}

const jsonRulesFirst = (engine: RulesEngine) => async (params: Params) => (await engine.run(params)).events[0]?.params ?? null;
const jsonRulesAll = (engine: RulesEngine) => async (params: Params) => (await engine.run(params)).events.map((e) => e.params);

/** json-rules-engine's own way to stop at the first hit: `stop()` on the first success (one run at a time only: it stops the engine, not the run). */
function jsonRulesStopping(rules: RuleProperties[]): Call {
  const engine = new RulesEngine(rules, { allowUndefinedFacts: true });
  engine.on('success', () => {
    engine.stop();
  });
  return jsonRulesFirst(engine);
}

async function checkSame(key: string, name: string, call: Call, ours: Call, inputs: Params[]): Promise<number> {
  for (const params of inputs) {
    const [theirs, mine] = [await call(params), ours(params)];
    if (!isDeepStrictEqual(theirs, mine))
      throw new Error(
        `table ${key}: ${name} answers ${JSON.stringify(theirs)} where this engine answers ${JSON.stringify(mine)} for ${JSON.stringify(params)}: the translation or an engine is wrong, so the timings would compare different work`,
      );
  }
  return inputs.length;
}

const toFigures = (contender: Contender, tally: Tally): ContenderFigures => {
  const [median, p99] = tally.samples.quantiles([0.5, 0.99]);
  return {
    engine: contender.engine,
    mode: contender.mode,
    label: contender.label,
    calls: tally.calls,
    perSecond: (tally.calls / tally.ms) * 1000,
    perRound: tally.perRound,
    meanUs: (tally.ms / tally.calls) * 1000,
    cpuUs: (tally.cpuMs / tally.calls) * 1000,
    medianUs: median! * 1000,
    p99Us: p99! * 1000,
  };
};

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

async function installed(name: string): Promise<string> {
  return (JSON.parse(await readFile(`${repoRoot}node_modules/${name}/package.json`, 'utf8')) as { version: string }).version;
}

/** Runs the whole section. */
export async function measureEngines(log: (message: string) => void = console.log): Promise<EngineFigures> {
  const startedAt = new Date();
  const loadBefore = loadavg();
  const { ZenEngine } = loadZenEngine();
  const zen = new ZenEngine();
  const workloads: WorkloadFigures[] = [];
  const compile: CompileFigures[] = [];
  const inputFigures: InputFigures[] = [];
  try {
    for (const spec of benchTables()) {
      const rows = spec.definition.rules.length;
      log(`engine: table ${spec.key}, ${rows.toLocaleString('en-US')} rows`);
      const first = compiled(spec.definition);
      const ours: Call = (params) => evaluateRule(first.rule, params).output;
      const { inputs, rowsHit } = chooseInputs(spec, (params) => codeRow(ours(params)));

      // Compile time: this engine's prepare and compile, zen's createDecision (and its first evaluation), json-rules-engine's constructor with the rules.
      const repeats = rows >= 1_000 ? compileRepeats.large : compileRepeats.small;
      const zenContent = toZen(first.prepared);
      const jsonRules = toJsonRules(first.prepared);
      let prepared = first.prepared;
      const prepareMs = timeSync(
        repeats,
        () => void (prepared = prepareRule({ kind: 'decisionTable', definition: spec.definition }).prepared as PreparedDecisionTable),
      );
      const compileMs = timeSync(repeats, () => void (sink = compileRule(prepared)));
      const zenCreateMs = timeSync(repeats, () => void (sink = zen.createDecision(zenContent)));
      const firstEvaluations: number[] = [];
      for (let i = 0; i < repeats; i++) {
        const decision = zen.createDecision(zenContent);
        const t0 = performance.now();
        await decision.evaluate(inputs[0]!);
        firstEvaluations.push(performance.now() - t0);
      }
      const jsonRulesEngineMs = timeSync(repeats, () => void (sink = new RulesEngine(jsonRules, { allowUndefinedFacts: true })));
      compile.push({ key: spec.key, rows, prepareMs, compileMs, zenCreateMs, zenFirstEvaluateMs: medianOf(firstEvaluations), jsonRulesEngineMs });

      const policies: ('first' | 'collect')[] = spec.key === 'c' ? ['first', 'collect'] : ['first'];
      const checked = { zen: 0, jsonRules: 0 };
      let collectMatches: InputFigures['collectMatches'];
      for (const hitPolicy of policies) {
        const definition = { ...spec.definition, hitPolicy };
        const { rule, prepared: table } = hitPolicy === 'first' ? first : compiled(definition);
        const oursCall: Call = (params) => evaluateRule(rule, params).output;
        const decision: ZenDecision = zen.createDecision(toZen(table));
        // zen answers a first-hit table that matched no row with an empty object: the null this engine gives (every row here has outputs).
        const zenCall: Call =
          hitPolicy === 'first'
            ? async (params) => {
                const { result } = await decision.evaluate(params);
                return result === null || result === undefined || Object.keys(result).length === 0 ? null : result;
              }
            : async (params) => (await decision.evaluate(params)).result;
        const rulesEngine = new RulesEngine(toJsonRules(table), { allowUndefinedFacts: true });
        const contenders: Contender[] = [
          { engine: 'ours', mode: 'sync', label: 'this engine, `evaluateRule`', call: oursCall },
          { engine: 'zen', mode: 'sequential', label: 'zen-engine, one call at a time', call: zenCall },
          { engine: 'zen', mode: 'concurrent', label: `zen-engine, ${settings.inFlight} calls in flight`, call: zenCall },
        ];
        if (hitPolicy === 'first') {
          contenders.push(
            { engine: 'jsonRules', mode: 'sequential', label: 'json-rules-engine, every rule run, first event taken', call: jsonRulesFirst(rulesEngine) },
            { engine: 'jsonRules', mode: 'sequential', label: 'json-rules-engine, `stop()` on the first success', call: jsonRulesStopping(toJsonRules(table)) },
          );
        } else {
          contenders.push({ engine: 'jsonRules', mode: 'sequential', label: 'json-rules-engine, every rule run, all events', call: jsonRulesAll(rulesEngine) });
          const counts = inputs.map((params) => (oursCall(params) as unknown[]).length);
          collectMatches = { min: Math.min(...counts), max: Math.max(...counts), mean: counts.reduce((a, b) => a + b, 0) / counts.length };
        }

        // The same answers first: every input for zen; for json-rules-engine every input too, but a few of each category on the 10,000-row table, where it takes 0.1–0.2 s a call.
        log(`engine: table ${spec.key} (${hitPolicy}): checking answers`);
        checked.zen += await checkSame(spec.key, 'zen-engine', zenCall, oursCall, inputs);
        const sample = rows > 1_000 ? inputs.filter((_, i) => Math.floor(i / categories.length) < settings.largeTableChecks) : inputs;
        for (const contender of contenders.filter((c) => c.engine === 'jsonRules'))
          checked.jsonRules += await checkSame(spec.key, contender.label, contender.call, oursCall, sample);

        log(`engine: table ${spec.key} (${hitPolicy}): timing ${contenders.length} contenders`);
        const tallies = await measure(contenders, inputs);
        workloads.push({ key: spec.key, title: spec.title, hitPolicy, rows, contenders: contenders.map((c, i) => toFigures(c, tallies[i]!)) });
      }
      const byCategory = Object.fromEntries(categories.map((c) => [c, settings.perCategory])) as Record<Category, number>;
      inputFigures.push({
        key: spec.key,
        inputs: inputs.length,
        byCategory,
        rowsHit: { first: Math.min(...rowsHit) + 1, last: Math.max(...rowsHit) + 1 },
        zenChecked: checked.zen,
        jsonRulesChecked: checked.jsonRules,
        ...(collectMatches && { collectMatches }),
      });
    }
  } finally {
    zen.dispose();
  }
  void sink;
  const cpu = cpus();
  return {
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    machine: `Node ${process.version}, ${platform()} ${release()}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
    versions: `@gorules/zen-engine ${zenVersion} (fetched by the bench), json-rules-engine ${await installed('json-rules-engine')}`,
    timerOverhead: await timerOverhead(),
    load: { before: loadBefore, after: loadavg() },
    workloads,
    compile,
    inputs: inputFigures,
  };
}

// ---------------------------------------------------------------- report

function table(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const us = (v: number) => (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : count(v));
const ms = (v: number) => (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : count(v));
const ratio = (v: number) => `${v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : count(v)}×`;
const verdict = (met: boolean) => (met ? 'met' : '**missed**');
const workloadName = (w: WorkloadFigures) => `${w.title}, ${w.hitPolicy === 'first' ? 'first hit' : 'collect'}`;

/** The best throughput of an engine's modes on a workload. */
const best = (w: WorkloadFigures, engine: Contender['engine']) => w.contenders.filter((c) => c.engine === engine).sort((a, b) => b.perSecond - a.perSecond)[0]!;

/** The ratio of round i's throughputs, lowest to highest over the rounds: how far the machine's noise moves it. */
function roundRange(ours: ContenderFigures, other: ContenderFigures): string {
  const ratios = ours.perRound.map((r, i) => r / other.perRound[i]!).sort((a, b) => a - b);
  return `${ratio(ratios[0]!)}–${ratio(ratios[ratios.length - 1]!)}`;
}

function targetTable(f: EngineFigures): string {
  return table(
    [
      'Table',
      'This engine (evals/s)',
      'zen-engine, better mode (evals/s)',
      'This ÷ zen',
      'Per round, lowest–highest',
      `Target ≥ ${engineTargets.overZen}×`,
      'json-rules-engine, better mode (evals/s)',
      'This ÷ json-rules-engine',
      'Per round, lowest–highest',
      `Target ≥ ${engineTargets.overJsonRules}×`,
    ],
    f.workloads.map((w) => {
      const [ours, zen, rules] = [best(w, 'ours'), best(w, 'zen'), best(w, 'jsonRules')];
      return [
        workloadName(w),
        count(ours.perSecond),
        `${count(zen.perSecond)} (${zen.mode === 'concurrent' ? `${settings.inFlight} in flight` : 'one at a time'})`,
        ratio(ours.perSecond / zen.perSecond),
        roundRange(ours, zen),
        verdict(ours.perSecond / zen.perSecond >= engineTargets.overZen),
        `${count(rules.perSecond)} (${rules.label.includes('stop()') ? '`stop()` at first hit' : 'every rule run'})`,
        ratio(ours.perSecond / rules.perSecond),
        roundRange(ours, rules),
        verdict(ours.perSecond / rules.perSecond >= engineTargets.overJsonRules),
      ];
    }),
  );
}

function detailTable(f: EngineFigures): string {
  return table(
    ['Table', 'Engine and mode', 'Calls', 'Evals/s', 'Mean wall time a call (µs)', 'Process CPU time a call (µs)', 'Median latency (µs)', 'p99 latency (µs)'],
    f.workloads.flatMap((w) =>
      w.contenders.map((c) => [workloadName(w), c.label, count(c.calls), count(c.perSecond), us(c.meanUs), us(c.cpuUs), us(c.medianUs), us(c.p99Us)]),
    ),
  );
}

/** First hit on the 10,000-row equality table against the 20-row table: met when both the mean time per call and the median are within the target. */
function scalingVerdict(f: EngineFigures): { met: boolean; text: string } {
  const small = best(
    f.workloads.find((w) => w.key === 'a')!,
    'ours',
  );
  const large = best(
    f.workloads.find((w) => w.key === 'c' && w.hitPolicy === 'first')!,
    'ours',
  );
  const [mean, median] = [large.meanUs / small.meanUs, large.medianUs / small.medianUs];
  const met = mean <= engineTargets.largeOverSmall && median <= engineTargets.largeOverSmall;
  return {
    met,
    text: `This engine, first hit: ${us(large.meanUs)} µs a call on the 10,000-row equality table (median ${us(large.medianUs)}) against ${us(small.meanUs)} µs on the 20-row table (median ${us(small.medianUs)}): ${ratio(mean)} the time by the mean (1 ÷ throughput), ${ratio(median)} by the median; target ≤ ${engineTargets.largeOverSmall}× on both: ${verdict(met)}.`,
  };
}

function compileTable(f: EngineFigures): string {
  const per1k = (v: number, rows: number) => ms((v / rows) * 1000);
  return table(
    [
      'Table',
      'Rows',
      'prepareRule (ms)',
      'compileRule (ms)',
      'Prepare + compile (ms)',
      'Prepare + compile per 1,000 rows (ms)',
      'zen createDecision (ms)',
      'zen createDecision per 1,000 rows (ms)',
      'zen first evaluate after createDecision (ms)',
      'json-rules-engine `new Engine(rules)` (ms)',
    ],
    f.compile.map((c) => [
      c.key,
      count(c.rows),
      ms(c.prepareMs),
      ms(c.compileMs),
      ms(c.prepareMs + c.compileMs),
      per1k(c.prepareMs + c.compileMs, c.rows),
      ms(c.zenCreateMs),
      per1k(c.zenCreateMs, c.rows),
      ms(c.zenFirstEvaluateMs),
      ms(c.jsonRulesEngineMs),
    ]),
  );
}

function inputTable(f: EngineFigures): string {
  return table(
    [
      'Table',
      'Inputs',
      'First hit in the first / middle / last third of the rows / none',
      'Rows hit (first to last)',
      'Answers checked against zen-engine',
      'Against json-rules-engine',
      'Rows matched per input under collect',
    ],
    f.inputs.map((i) => [
      i.key,
      i.inputs,
      categories.map((c) => i.byCategory[c]).join(' / '),
      `${count(i.rowsHit.first)} to ${count(i.rowsHit.last)}`,
      `${i.zenChecked}, all equal`,
      `${i.jsonRulesChecked}, all equal`,
      i.collectMatches ? `${i.collectMatches.min}–${i.collectMatches.max} (mean ${i.collectMatches.mean.toFixed(2)})` : '',
    ]),
  );
}

/** The tables: what the run prints. */
export function engineSummary(f: EngineFigures): string {
  return [
    '### Rules engine against zen-engine and json-rules-engine: throughput',
    `Evaluations per second over all ${settings.rounds} rounds, each engine in its better mode (see the next table for every mode); the verdicts are on these. The per-round ranges give the ratio of each round's windows alone (the contenders took turns within a round), to show how far the shared machine's load moves it.`,
    targetTable(f),
    scalingVerdict(f).text,
    '### Every engine and mode: throughput and per-call latency',
    detailTable(f),
    `The clock's share, measured by the same loop around an empty function: ${f.timerOverhead.sampleNs.toFixed(0)} ns in each latency sample of this engine (median), ${f.timerOverhead.meanNs.toFixed(0)} ns in its mean time per call; both are inside the figures above, not taken out. For zen-engine and json-rules-engine, whose every call is timed, it is under 1% of a call.`,
    '### Compile time',
    `Median of repeated runs, after untimed runs for ${compileWarmupMs} ms (one at least).`,
    compileTable(f),
    '### Inputs and answers',
    inputTable(f),
  ].join('\n\n');
}

export function engineMarkdown(f: EngineFigures): string {
  const s = settings;
  return `## Rules engine speed

Written by \`npm run bench\`, or by \`npm run bench:engine\`, which runs only this section and rewrites only it (\`test/bench/engine.ts\`).

- Run: ${f.startedAt.toISOString()}, ${(f.durationMs / 1000).toFixed(0)} s for this section
- Machine: ${f.machine}
- Versions: ${f.versions}

### Method

- **Tables.** Three decision tables, each built once as this engine's definition (\`DecisionTableDefinition\`, FEEL unary-test cells, every input and param declared with its type): (a) 20 rows over 4 inputs (tier, age, amount, country) mixing string equality with one value or several (\`"gold"\`, \`"US","CA"\`), number comparisons (\`< 18\`, \`>= 1000\`), closed, open and half-open ranges (\`[18..65]\`, \`(30..50]\`, \`[25..40)\`) and \`-\`, with no catch-all row; (b) 1,000 rows of range cells over 2 inputs, score in \`[10i..10i+10)\` and amount in \`[0..500]\` (even rows) or \`(500..1000]\` (odd rows); (c) 10,000 rows over 3 inputs whose first column is a string equality: 2,500 SKUs of 4 rows each (\`< 10\` and \`"web"\`, \`[10..100)\` and \`"web","store"\`, \`>= 100\`, then \`-\` \`-\`), evaluated with hit policy first and, as a second definition differing only in it, collect. Every row has two literal outputs, an amount with cents (\`0.15\`, \`199.99\`) and a code naming the row; the amounts given as inputs have cents too (\`4521.37\`), so the numbers are decimals as in a price list. Tables (a) and (b) are evaluated with first hit.
- **Translations.** From this engine's prepared form (the parsed cells), so the three engines run the same table: to a zen-engine JDM graph (input node, one \`decisionTableNode\` with the same hit policy, one input column per param with \`field\` set, so unary cells: \`"gold"\`, \`"US", "CA"\`, \`< 18\`, \`[18..65]\`, \`(500..1000]\`, empty for \`-\`; outputs as literal expressions; output node), made once with \`createDecision\` and called with \`decision.evaluate(params)\`; and to json-rules-engine rules, one per row: \`all\` conditions with \`equal\`, \`in\` (a list of values), \`lessThan\`, \`lessThanInclusive\`, \`greaterThan\`, \`greaterThanInclusive\` (a range is two of them), none for \`-\`, the outputs in the event's params, priority \`rows − row index\` so that rows run in order (json-rules-engine runs one priority level after the other). Its first hit is the first success event; collect is every success event in order.
- **Inputs.** A fixed set per table from a seeded generator (mulberry32, seed ${s.seed}): random candidates over each input's domain, kept by where their first hit falls in this engine, until there are ${s.perCategory} hitting the first third of the rows, ${s.perCategory} the middle third, ${s.perCategory} the last third and ${s.perCategory} no row; interleaved, and every engine is called with the same ${categories.length * s.perCategory} inputs in the same order.
- **Same answers first.** Before any timing the run fails unless zen-engine's answer equals this engine's (deep equality of the JSON) on every input, and json-rules-engine's (in each of its modes) on every input of tables (a) and (b) and on the first ${s.largeTableChecks} inputs of each category of table (c), where one of its calls takes 0.1–0.2 s; no-hit answers included (null under first hit, an empty list under collect). zen-engine answers a first-hit table that matched no row with an empty object, taken as null (every row here has outputs, so no hit gives an empty object otherwise).
- **This engine.** The public call, \`evaluateRule(compiledRule, params)\`: params checked and converted against the declared inputs, the table's input values checked against their column types, the column indexes, the hit policy, the answer converted to plain JSON; the rule compiled once beforehand (\`prepareRule\` then \`compileRule\`). It is synchronous: called in a plain loop.
- **zen-engine.** Asynchronous (the evaluation is handed to native code and resolves a promise), so measured two ways: one call at a time (each awaited before the next), and ${s.inFlight} calls in flight (${s.inFlight} loops, each awaiting its own call); the comparison takes the better throughput of the two. Latency with ${s.inFlight} in flight includes waiting behind the other calls.
- **json-rules-engine.** Asynchronous too, but its work is JavaScript on this thread, so calls in flight could only interleave; measured one call at a time. For first hit two ways, the better one compared: every rule run and the first event taken, and \`engine.stop()\` in a \`success\` listener, its documented way to skip the remaining priority levels (it stops the engine, not a run, so it is only correct one run at a time).
- **Timing.** Per table, each engine and mode runs ${s.warmupMs} ms untimed, then ${s.rounds} windows of ${s.windowMs} ms each, the contenders taking turns with the order rotating every round, so that JIT tiers, garbage collection and drift fall on all alike. Throughput is the calls completed over the windows' wall time (with ${s.inFlight} in flight, up to the last call's completion); latency the median and p99 (nearest rank) of per-call times read with \`performance.now()\`: every call of zen-engine and json-rules-engine, and one call in ${s.sampleEvery} of this engine (the others run untimed between the timed ones, so that the clock adds little to its throughput; 7 is prime to the number of inputs, so every input is sampled). Beside them, the process's CPU time per call (\`process.cpuUsage()\`, user and system, every thread, over the same windows): unlike wall time it is not stretched when other processes take the cores, and it counts the threads zen-engine's native code runs on. The targets are judged on throughput, as the issue states them. The machine's load average (1, 5, 15 min) was ${f.load.before.map((l) => l.toFixed(2)).join(', ')} before the section and ${f.load.after.map((l) => l.toFixed(2)).join(', ')} after: the machine is shared, and its other work slows every engine (their turns spread it across them). All in one Node process on this machine, ${cpus().length} cores; zen-engine's native code may use other threads, this engine and json-rules-engine use one.
- **Targets.** This engine's throughput ≥ ${engineTargets.overZen}× zen-engine's better mode and ≥ ${engineTargets.overJsonRules}× json-rules-engine's better mode on every table; first hit on the 10,000-row equality table within ${engineTargets.largeOverSmall}× the time per call of the 20-row table, judged on the mean time per call (1 ÷ throughput) and on the median, both.
- **Compile time.** \`prepareRule\` (parsing every FEEL cell) and \`compileRule\` (closures and column indexes) of the same definitions, timed apart: the median of ${compileRepeats.small} runs for table (a), ${compileRepeats.large} for the others, after untimed runs for ${compileWarmupMs} ms (one at least, which for table (c) is more than that): warm figures, as in a process that has compiled rules before; the first compile in a fresh process takes longer (JIT). For comparison zen-engine's \`createDecision\` on the JDM object (its conversion from the JavaScript object included) and its first \`evaluate\` after it, and json-rules-engine's \`new Engine(rules)\`.

### Results

${engineSummary(f)}
`;
}

/** Alone (`npm run bench:engine`): runs the section, prints it, and puts it in RESULTS.md in place of the last run's. */
async function runAlone() {
  const figures = await measureEngines((message) => console.log(`[bench:engine] ${message}`));
  await putSection('## Rules engine speed', engineMarkdown(figures));
  console.log(`\n${engineSummary(figures)}\n`);
  console.log(`[bench:engine] done in ${(figures.durationMs / 1000).toFixed(0)} s; written to test/bench/RESULTS.md`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runAlone();
