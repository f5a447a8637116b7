/**
 * Workflows against their floors (issue 10), side by side in one run:
 *
 * - run overhead: a three-step workflow (rule → transform → end) against
 *   evaluating the same rule directly, in process (`runWorkflow` with the
 *   rule compiled once, against `evaluateRule`), and through the execute
 *   function warm (the workflow's execution against the rule's);
 * - the API-request step: what one step adds over a bare `fetch` of the same
 *   loopback provider with the key in the same header (the call through
 *   `createApiCaller`, with the integration and the opened credential kept
 *   by the warm function as a busy run has them, and the one-step workflow
 *   run around it), and the execute function running that workflow.
 *
 * Everything runs in this process against the embedded DynamoDB and a
 * provider on 127.0.0.1 that answers a small JSON body. Probes take turns,
 * the order rotating each round, after untimed warm-up calls. `npm run
 * bench:workflows` runs this section alone; `npm run bench` runs it with the
 * others and writes it to RESULTS.md.
 */
import './log-level.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCredential, outboundCacheTtlMs } from '../../lib/credentials/service.ts';
import { localKeyring } from '../../lib/credentials/local-keyring.ts';
import { compileRule, evaluateRule } from '../../lib/engine/index.ts';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { createEntity } from '../../lib/authoring/save.ts';
import { publishDraft } from '../../lib/publishing/publish.ts';
import { unpackPrepared } from '../../lib/vocabulary/prepared-form.ts';
import { createApiCaller } from '../../lib/integrations/call.ts';
import { createIntegration } from '../../lib/integrations/service.ts';
import { createOutboundClient } from '../../lib/outbound/index.ts';
import type { EntityRef, Store } from '../../lib/store/types.ts';
import { workflowDefinitionSchema, type WorkflowDefinitionInput } from '../../lib/entities/workflow-definition.ts';
import { compileWorkflow, runWorkflow } from '../../lib/workflows/runner.ts';
import { validateWorkflow } from '../../lib/workflows/validate.ts';
import { addBranch } from '../../lib/workspaces/admin.ts';
import { startBenchTable, workspaceId } from './bench-table.ts';
import { benchTables, type Params } from './engine.ts';
import { loadExecuteFunction } from './execute-call.ts';
import { quantile } from './stats.ts';

export const workflowTargets = { runOverRule: 1.5, stepOverFetch: 1.2 } as const;

const branch = 'workflows';
const actor = 'bench';
const providerKey = 'bench-provider-key';
const settings = { warmup: 200, rounds: 2_000, maxMs: 40_000 };

type Probe = () => Promise<unknown>;

export interface ProbeFigures {
  label: string;
  calls: number;
  p50: number;
  p99: number;
  mean: number;
}

export interface WorkflowFigures {
  settings: typeof settings;
  runOverhead: { rule: ProbeFigures; workflow: ProbeFigures; handlerRule: ProbeFigures; handlerWorkflow: ProbeFigures };
  apiStep: { fetch: ProbeFigures; call: ProbeFigures; run: ProbeFigures; handler: ProbeFigures };
}

/** Times the probes taking turns, the order rotating each round, after warm-up calls of each; milliseconds. */
async function compare(probes: Record<string, Probe>, log: (message: string) => void): Promise<Record<string, ProbeFigures>> {
  const names = Object.keys(probes);
  for (let i = 0; i < settings.warmup; i++) for (const name of names) await probes[name]!();
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]]));
  const started = performance.now();
  let round = 0;
  for (; round < settings.rounds && performance.now() - started < settings.maxMs; round++)
    for (let j = 0; j < names.length; j++) {
      const name = names[(round + j) % names.length]!;
      const at = performance.now();
      await probes[name]!();
      samples[name]!.push(performance.now() - at);
    }
  log(`${round} rounds of ${names.join(', ')}`);
  return Object.fromEntries(
    names.map((name) => {
      const s = samples[name]!;
      return [name, { label: name, calls: s.length, p50: quantile(s, 0.5), p99: quantile(s, 0.99), mean: s.reduce((a, b) => a + b, 0) / s.length }];
    }),
  );
}

/** A provider on loopback that answers a small JSON body to the right key only, over keep-alive connections as a real one would. */
async function startProvider() {
  const server = http.createServer((request, response) => {
    request.resume();
    const ok = request.headers['x-api-key'] === providerKey;
    response.writeHead(ok ? 200 : 401, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(ok ? { score: 42, level: 'low', reasons: ['bench'] } : { error: 'unauthorized' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function publish(store: Store, input: EntityInput): Promise<EntityRef> {
  const ref: EntityRef = { workspaceId, branch, entityType: input.type === 'workflow' ? 'workflow' : 'rule', id: input.id };
  const { saved } = await createEntity(store, ref, input as unknown as Record<string, unknown>, actor);
  await publishDraft(store, ref, { checksum: saved.checksum }, actor);
  return ref;
}

const workflowRecord = (id: string, definition: WorkflowDefinitionInput) =>
  ({ id, name: `Bench ${id}`, description: 'Workflow bench', tags: ['bench'], type: 'workflow', definition }) as unknown as EntityInput;

/** The bench's table, when `npm run bench` has one already (its functions are loaded against it); else this starts its own. */
type BenchTable = Pick<Awaited<ReturnType<typeof startBenchTable>>, 'store' | 'apiKey'>;

export async function measureWorkflows(log: (message: string) => void = console.log, shared?: BenchTable): Promise<WorkflowFigures> {
  const keyDir = await mkdtemp(join(tmpdir(), 'rules-bench-keys-'));
  process.env.CREDENTIALS_KEY_FILE = join(keyDir, 'key');
  // The provider is on loopback, which deployed functions refuse.
  process.env.OUTBOUND_ALLOW_PRIVATE_NETWORKS = 'true';
  const own = shared ? undefined : await startBenchTable();
  const { store, apiKey } = shared ?? own!;
  const provider = await startProvider();
  try {
    await addBranch(store, workspaceId, branch);
    const spec = benchTables()[0]!;
    const rule = await publish(store, {
      id: 'bench-rule',
      name: 'Bench rule',
      description: spec.title,
      tags: ['bench'],
      type: 'decisionTable',
      definition: spec.definition,
    } as unknown as EntityInput);
    const threeSteps: WorkflowDefinitionInput = {
      start: 'rule',
      steps: [
        { id: 'rule', kind: 'rule', ruleId: rule.id, next: 'shape' },
        { id: 'shape', kind: 'transform', set: { result: 'rule' }, next: 'done' },
        { id: 'done', kind: 'end', output: { result: 'shape.result' } },
      ],
    };
    const flow = await publish(store, workflowRecord('bench-flow', threeSteps));

    const keyring = localKeyring(process.env.CREDENTIALS_KEY_FILE);
    const { credential } = await createCredential({ store, keyring }, workspaceId, {
      name: 'Bench provider',
      type: 'apiKey',
      key: 'X-Api-Key',
      placement: 'header',
      value: providerKey,
      description: '',
      allowedHosts: [new URL(provider.url).host],
    });
    const { integration } = await createIntegration(store, workspaceId, {
      name: 'Bench provider',
      type: 'restApi',
      baseUrl: provider.url,
      headers: {},
      credentialId: credential.id,
      timeoutMs: 5_000,
      description: '',
    } as never);
    const oneCall: WorkflowDefinitionInput = {
      start: 'score',
      steps: [
        { id: 'score', kind: 'apiRequest', request: { method: 'GET', integrationId: integration.id, path: '/v1/score' }, next: 'done' },
        { id: 'done', kind: 'end', output: { score: 'score.body.score' } },
      ],
    };
    const api = await publish(store, workflowRecord('bench-api', oneCall));

    // In process: the rule compiled once, as a warm function's cache holds it.
    const version = await store.getVersion(rule, 'v1');
    const compiledRule = compileRule(unpackPrepared(version!.prepared!));
    const compile = (definition: WorkflowDefinitionInput) => compileWorkflow(validateWorkflow(workflowDefinitionSchema.parse(definition)).prepared);
    const inputs: Params[] = [];
    let seed = 1;
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) - 1) / 2_147_483_646;
    for (let i = 0; i < 64; i++) inputs.push(spec.candidate(random));
    let n = 0;
    const next = () => inputs[n++ % inputs.length]!;
    const callApi = createApiCaller({ store, keyring, send: createOutboundClient({ allowPrivateNetworks: true, log: () => {} }).send }, workspaceId);
    const noApi = async () => {
      throw new Error('no API in this workflow');
    };
    const threeStepWorkflow = compile(threeSteps);
    const oneCallWorkflow = compile(oneCall);

    const execute = await loadExecuteFunction(apiKey);
    const viaHandler = (ref: EntityRef, params: () => Params) => () => execute.prepare(branch, ref.id, params(), ref.entityType)();
    for (const ref of [flow, api]) {
      const answer = (await viaHandler(ref, next)()) as unknown as { status: string };
      if (answer.status !== 'succeeded') throw new Error(`the workflow ${ref.id} did not run: ${JSON.stringify(answer)}`);
    }

    // The same answers before any timing.
    for (const params of inputs) {
      const direct = evaluateRule(compiledRule, params).output;
      const run = await runWorkflow(threeStepWorkflow, params, { runRule: async (_id, _v, p) => evaluateRule(compiledRule, p).output, callApi: noApi });
      if (JSON.stringify(run.output) !== JSON.stringify({ result: direct }))
        throw new Error(`the workflow answered ${JSON.stringify(run.output)}, the rule ${JSON.stringify(direct)}`);
    }

    log('workflows: run overhead (rule → transform → end) against the rule alone');
    const overhead = await compare(
      {
        rule: async () => evaluateRule(compiledRule, next()).output,
        workflow: () => runWorkflow(threeStepWorkflow, next(), { runRule: async (_id, _v, p) => evaluateRule(compiledRule, p).output, callApi: noApi }),
        handlerRule: viaHandler(rule, next),
        handlerWorkflow: viaHandler(flow, next),
      },
      log,
    );

    log('workflows: an API-request step against a bare fetch');
    const url = `${provider.url}/v1/score`;
    const step = await compare(
      {
        fetch: async () => {
          const response = await fetch(url, { headers: { 'X-Api-Key': providerKey } });
          if (response.status !== 200) throw new Error(`fetch answered ${response.status}`);
          return response.json();
        },
        call: () => callApi({ stepId: 'score', method: 'GET', integrationId: integration.id, path: '/v1/score', query: {}, headers: {}, timeoutMs: 5_000 }),
        run: async () => {
          const run = await runWorkflow(oneCallWorkflow, {}, { runRule: noApi, callApi });
          if (run.status !== 'succeeded') throw new Error(`the run failed: ${JSON.stringify(run.error)}`);
          return run;
        },
        handler: viaHandler(api, () => ({})),
      },
      log,
    );
    return {
      settings,
      runOverhead: { rule: overhead.rule!, workflow: overhead.workflow!, handlerRule: overhead.handlerRule!, handlerWorkflow: overhead.handlerWorkflow! },
      apiStep: { fetch: step.fetch!, call: step.call!, run: step.run!, handler: step.handler! },
    };
  } finally {
    await provider.close();
    await own?.dynamo.close();
    await rm(keyDir, { recursive: true, force: true });
  }
}

const ms = (value: number) => (value >= 1 ? value.toFixed(2) : value.toFixed(3));
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const verdict = (value: number, target: number) => (value <= target ? 'met' : '**missed**');

export function workflowsMarkdown(f: WorkflowFigures): string {
  const { runOverhead: o, apiStep: a } = f;
  const row = (p: ProbeFigures, what: string, floor?: ProbeFigures, target?: number) =>
    `| ${what} | ${p.calls} | ${ms(p.p50)} | ${ms(p.p99)} | ${ms(p.mean)} | ${floor ? ratio(p.p50, floor.p50) : ''} | ${floor && target ? verdict(p.p50 / floor.p50, target) : ''} |`;
  return [
    '## Workflows (issue 10)',
    '',
    `In this process against the embedded DynamoDB and a JSON provider on 127.0.0.1 (keep-alive). ${f.settings.warmup} untimed calls of each probe, then up to ${f.settings.rounds} rounds (at most ${f.settings.maxMs / 1000} s), the probes taking turns with the order rotating each round. The rule is the engine bench's table (a), 20 rows, mixed cells, evaluated on 64 seeded inputs in turn; the workflow runs it, copies its answer in a transform, and ends with it. The API-request step finds its integration and opened credential in the warm function's cache (kept ${outboundCacheTtlMs / 1000} s, \`OUTBOUND_CACHE_TTL_MS\`; a cold one reads both, about two GetItems, and opens the key: local keyring here, KMS when deployed) and sends through the one outbound client (address checks on every new connection, kept-alive connections, bounded time and size, echoed keys scrubbed). The run-overhead target is judged where a consumer pays it, the execute function running the workflow against the same function executing the rule; the in-process row beside it shows the runner's own cost on a rule that evaluates in microseconds.`,
    '',
    '| Probe | Calls | p50 (ms) | p99 (ms) | Mean (ms) | ÷ floor (p50) | Target |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    row(o.rule, '`evaluateRule` of the rule (floor)'),
    row(o.workflow, `\`runWorkflow\`: rule → transform → end (${ms(o.workflow.p50 - o.rule.p50)} ms more per run)`, o.rule),
    row(o.handlerRule, 'execute function, the rule (floor)'),
    row(o.handlerWorkflow, 'execute function, the workflow', o.handlerRule, workflowTargets.runOverRule),
    row(a.fetch, 'bare `fetch` of the provider, key in the header (floor)'),
    row(a.call, "the step's call: integration and credential read, outbound client", a.fetch, workflowTargets.stepOverFetch),
    row(a.run, '`runWorkflow`: apiRequest → end', a.fetch, workflowTargets.stepOverFetch),
    row(a.handler, 'execute function, apiRequest → end', a.fetch),
    '',
    `Targets (issue 10): a three-step workflow within ${workflowTargets.runOverRule}× of evaluating the same rule; an API-request step within ${workflowTargets.stepOverFetch}× of a bare fetch.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureWorkflows();
  console.log(`\n${workflowsMarkdown(figures)}\n`);
}
