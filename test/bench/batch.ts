/**
 * Batch evaluation (issue 23), side by side in one run: one execute of 1,000
 * inputs (`paramsList`) against 1,000 single executes of the same rule on the
 * same inputs, one after the other, as a client without batches makes them.
 * Both in process, the domain calls the execute function makes
 * (`executeBatch`, `executeRule` of lib/rules/execute.ts) on the bench's
 * store, and through the local HTTP runtime (lib/local/server.ts on
 * 127.0.0.1, the execute function behind it, fetch with kept-alive
 * connections); for the rule as it is (executions not recorded) and
 * recording its executions. The probes take turns, the order rotating each
 * round, after an untimed round; the DynamoDB requests of one batch and of
 * one set of singles are metered on the embedded DynamoDB's side.
 *
 * `npm run bench:batch` runs this section alone and puts it in RESULTS.md;
 * `npm run bench` runs it with the others.
 */
import './log-level.ts';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseJson } from '../../lib/decimal/json.ts';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { startLocalApi } from '../../lib/local/server.ts';
import { executeBatch, executeRule } from '../../lib/rules/execute.ts';
import type { EntityRef, Store } from '../../lib/store/types.ts';
import { addBranch } from '../../lib/workspaces/admin.ts';
import { startBenchTable } from './bench-table.ts';
import { benchTables, type Params } from './engine.ts';
import { inputsFor, publishRule } from './execute-latency.ts';
import { meterRequests } from './request-meter.ts';
import { putSection } from './results-file.ts';
import { median } from './stats.ts';

const branch = 'batch';
const settings = { inputs: 1_000, warmupRounds: 1, rounds: 5 } as const;
const heading = '## Batch evaluation (issue 23)';

const ways = ['in process', 'HTTP'] as const;
const rules = ['not recorded', 'recorded'] as const;
type Way = (typeof ways)[number];
type RuleMode = (typeof rules)[number];

export interface BatchRow {
  rule: RuleMode;
  way: Way;
  /** Milliseconds for the whole set of inputs, one sample a round. */
  batchMs: number[];
  singlesMs: number[];
  /** The batch's own `durationMs` (its evaluations), one a round; in process only. */
  evaluationMs: number[];
  /** DynamoDB requests by operation, of one batch and of one set of singles (metered in process). */
  requests: { batch: Record<string, number>; singles: Record<string, number> };
}

export interface BatchFigures {
  settings: typeof settings;
  startedAt: string;
  machineLoad: number;
  rule: string;
  rows: BatchRow[];
}

/** The bench's table, when `npm run bench` has one already; else this starts its own. */
type BenchTable = Pick<Awaited<ReturnType<typeof startBenchTable>>, 'store' | 'apiKey' | 'config'>;

type Probe = () => Promise<unknown>;

/** The outputs of a batch answer or of single answers, to compare. */
const outputsOf = (slots: { output?: unknown; error?: { code: string } }[]) => JSON.stringify(slots.map((slot) => slot.output ?? slot.error?.code));

function inProcess(store: Store, ref: EntityRef, inputs: Params[]) {
  return {
    batch: () => executeBatch(store, ref, { paramsList: inputs }),
    singles: async () => {
      const answers = [];
      for (const params of inputs) answers.push(await executeRule(store, ref, { params }));
      return answers;
    },
  };
}

/** Calls through the local runtime over HTTP, each request's body made before any timing; answers read whole, parsed only when checked. */
function overHttp(url: string, apiKey: string, ref: EntityRef, inputs: Params[]) {
  const headers = { 'content-type': 'application/json', 'service-api-key': apiKey, 'service-branch': ref.branch };
  const post = async (body: string) => {
    const response = await fetch(`${url}/dev/v1/rule/${ref.id}/execute`, { method: 'POST', headers, body });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`execute answered ${response.status}: ${text.slice(0, 300)}`);
    return text;
  };
  const batchBody = JSON.stringify({ paramsList: inputs });
  const singleBodies = inputs.map((params) => JSON.stringify({ params }));
  return {
    batch: () => post(batchBody),
    singles: async () => {
      const answers = [];
      for (const body of singleBodies) answers.push(await post(body));
      return answers;
    },
  };
}

const dataOf = (text: string) => (parseJson(text) as { data: unknown }).data;

export async function measureBatch(log: (message: string) => void = console.log, shared?: BenchTable): Promise<BatchFigures> {
  const own = shared ? undefined : await startBenchTable();
  const { store, apiKey, config } = shared ?? own!;
  const api = await startLocalApi({ port: 0, host: '127.0.0.1' });
  const meter = meterRequests(config.endpoint);
  try {
    await addBranch(store, 'bench', branch);
    const spec = benchTables()[0]!;
    const base = { name: 'Batch bench: 20-row mixed table', description: 'Table (a) of the engine bench', type: 'decisionTable', tags: ['bench'] };
    const refs: Record<RuleMode, EntityRef> = {
      'not recorded': await publishRule(store, { ...base, id: 'batch-plain', definition: spec.definition } as unknown as EntityInput, branch),
      recorded: await publishRule(
        store,
        { ...base, id: 'batch-recorded', definition: { ...spec.definition, settings: { recordExecutions: true } } } as unknown as EntityInput,
        branch,
      ),
    };
    const inputs = inputsFor(spec.candidate, settings.inputs);
    const probes = {} as Record<`${RuleMode}/${Way}`, { batch: Probe; singles: Probe }>;
    for (const rule of rules) {
      probes[`${rule}/in process`] = inProcess(store, refs[rule], inputs);
      probes[`${rule}/HTTP`] = overHttp(api.url, apiKey, refs[rule], inputs);
    }

    // The same answers every way before any timing.
    for (const rule of rules) {
      const { outputs } = await executeBatch(store, refs[rule], { paramsList: inputs });
      const expected = outputsOf(outputs);
      const singles = (await probes[`${rule}/in process`].singles()) as { output: unknown }[];
      const httpBatch = dataOf((await probes[`${rule}/HTTP`].batch()) as string) as { outputs: { output: unknown }[] };
      const httpSingles = ((await probes[`${rule}/HTTP`].singles()) as string[]).map((text) => dataOf(text) as { output: unknown });
      for (const [what, got] of [
        ['singles', outputsOf(singles)],
        ['HTTP batch', outputsOf(httpBatch.outputs)],
        ['HTTP singles', outputsOf(httpSingles)],
      ])
        if (got !== expected) throw new Error(`${rule}: the ${what} answered otherwise than the batch`);
    }

    const requests = {} as Record<RuleMode, BatchRow['requests']>;
    const metered = async (probe: Probe) => {
      meter.start();
      await probe();
      const counts: Record<string, number> = {};
      for (const { operation } of meter.stop()) counts[operation] = (counts[operation] ?? 0) + 1;
      return counts;
    };
    for (const rule of rules)
      requests[rule] = { batch: await metered(probes[`${rule}/in process`].batch), singles: await metered(probes[`${rule}/in process`].singles) };

    const names = Object.keys(probes).flatMap((key) => [`${key}/batch`, `${key}/singles`]);
    const samples = Object.fromEntries(names.map((name) => [name, [] as number[]]));
    const evaluations = Object.fromEntries(rules.map((rule) => [rule, [] as number[]]));
    const machineLoad = loadavg()[0]!;
    const startedAt = new Date().toISOString();
    for (let round = 0; round < settings.warmupRounds + settings.rounds; round++) {
      const timed = round >= settings.warmupRounds;
      log(`batch: round ${round + 1} of ${settings.warmupRounds + settings.rounds}${timed ? '' : ' (untimed)'}`);
      for (let j = 0; j < names.length; j++) {
        const name = names[(round + j) % names.length]!;
        const [rule, way, kind] = name.split('/') as [RuleMode, Way, 'batch' | 'singles'];
        const at = performance.now();
        const answer = await probes[`${rule}/${way}`][kind]();
        const ms = performance.now() - at;
        if (!timed) continue;
        samples[name]!.push(ms);
        if (way === 'in process' && kind === 'batch') evaluations[rule]!.push((answer as { durationMs: number }).durationMs);
      }
    }
    return {
      settings,
      startedAt,
      machineLoad,
      rule: spec.title,
      rows: rules.flatMap((rule) =>
        ways.map((way) => ({
          rule,
          way,
          batchMs: samples[`${rule}/${way}/batch`]!,
          singlesMs: samples[`${rule}/${way}/singles`]!,
          evaluationMs: way === 'in process' ? evaluations[rule]! : [],
          requests: requests[rule],
        })),
      ),
    };
  } finally {
    await api.close();
    await own?.dynamo.close();
  }
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const us = (totalMs: number, inputs: number) => ((totalMs / inputs) * 1000).toFixed(totalMs / inputs >= 0.1 ? 0 : 1);
const counted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([operation, n]) => `${operation} ${n.toLocaleString('en')}`)
    .join(', ');

export function batchMarkdown(f: BatchFigures): string {
  const n = f.settings.inputs;
  const row = (r: BatchRow) => {
    const batch = median(r.batchMs);
    const singles = median(r.singlesMs);
    const evaluation = r.evaluationMs.length ? `${ms(median(r.evaluationMs))} (${us(median(r.evaluationMs), n)} µs an input)` : '';
    return `| ${r.rule} | ${r.way} | ${ms(batch)} (${ms(Math.min(...r.batchMs))}–${ms(Math.max(...r.batchMs))}) | ${ms(singles)} (${ms(Math.min(...r.singlesMs))}–${ms(Math.max(...r.singlesMs))}) | ${(singles / batch).toFixed(1)}× | ${us(batch, n)} | ${us(singles, n)} | ${evaluation} |`;
  };
  const requests = rules.map((rule) => {
    const r = f.rows.find((row) => row.rule === rule)!.requests;
    return `| ${rule} | ${counted(r.batch)} | ${counted(r.singles)} |`;
  });
  return [
    heading,
    '',
    `Written by \`npm run bench\`, or by \`npm run bench:batch\`, which runs only this section (\`test/bench/batch.ts\`). Run ${f.startedAt}, the machine's one-minute load average ${f.machineLoad.toFixed(1)} as it started.`,
    '',
    `- Method: the rule is the engine bench's table ${f.rule}, published twice on its own branch: as it is, and with \`settings.recordExecutions: true\`. ${n.toLocaleString('en')} inputs from the execute bench's seeded generator for that table. *Batch*: one execute with \`paramsList\` of all ${n.toLocaleString('en')}; *singles*: ${n.toLocaleString('en')} executes with \`params\`, one after the other, on the same inputs in the same order. *In process*: the domain calls the execute function makes (\`executeBatch\`, \`executeRule\`) on the bench's store (the embedded DynamoDB, dynalite in this process), with the warm function's compiled-rule cache; *HTTP*: \`POST /dev/v1/rule/{id}/execute\` through the local runtime's HTTP server on 127.0.0.1 (the execute function behind it, as \`npm start\` serves it), sent with fetch over kept-alive connections, each body made before the timing and each answer read whole. Before timing, every way must answer the same outputs. ${f.settings.warmupRounds} untimed round, then ${f.settings.rounds} rounds, each probe once a round, the order rotating; the figure is the median round, with the fastest and slowest. The batch's evaluations column is its own \`durationMs\` (the loop over the inputs and the answer's assembly, loading not included). A real DynamoDB answers in milliseconds where this one answers in a fraction of one: the singles pay that once an input (and again to record), the batch once, so the gap only grows when deployed.`,
    '',
    `| Rule | Way | 1 batch of ${n.toLocaleString('en')} (ms) | ${n.toLocaleString('en')} single executes (ms) | Singles ÷ batch | Batch, per input (µs) | Single, per input (µs) | Batch's evaluations (ms) |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...f.rows.map(row),
    '',
    "DynamoDB requests, metered on the embedded DynamoDB's side (warm: the compiled rule cached, key, workspace and branch from the directory cache):",
    '',
    `| Rule | 1 batch of ${n.toLocaleString('en')} | ${n.toLocaleString('en')} single executes |`,
    '| --- | --- | --- |',
    ...requests,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureBatch();
  const markdown = batchMarkdown(figures);
  await putSection(heading, markdown);
  console.log(`\n${markdown}\n`);
}
