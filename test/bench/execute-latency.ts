/**
 * Warm latency of the execute function against its floor: what any
 * implementation of the call must do, a GetItem of the rule's version item
 * and the evaluation of the rule (and, for a rule whose executions are
 * recorded, one PutItem of the execution). One published rule, the 20-row
 * mixed decision table of the engine bench (engine.ts, table (a)), twice on
 * its own branch: as is (executions not recorded, the default) and with
 * `settings.recordExecutions: true`.
 *
 * Probes, all taking turns in one comparison (latency.ts), at three depths so
 * that a gap can be put down to a layer: the whole function through the
 * middleware stack (handler); the domain call it makes (`executeRule` on a
 * store, no HTTP layer); the floor; and, to split the floor and the handler's
 * own read, a bare GetItem of the version item alone and the store's read of
 * the entity item (`store.getEntity`, what the warm function reads on every
 * call to find the latest version). And what coverage costs the path: the
 * domain call without it (its evaluation collecting no hits, nothing
 * counted), and the floor with it (hits counted into the tally buffer).
 *
 * A third rule, the same table, has a candidate (odd rows answer another
 * code) in a shadow rollout: its calls run the candidate after each answer,
 * count the comparison and sample a disagreement at most once a second, as
 * live executions do; its floor is the plain rule's, GetItem + evaluate.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createEntity, updateEntity } from '../../lib/authoring/save.ts';
import { publishDraft } from '../../lib/publishing/publish.ts';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { compileRule, evaluateRule } from '../../lib/engine/index.ts';
import { countExecution } from '../../lib/tallies/coverage-counts.ts';
import { startRollout } from '../../lib/rollout/service.ts';
import { rolloutTallyName } from '../../lib/rules/rollout-watch.ts';
import { elapsedSince, executeRule, publishedVersion } from '../../lib/rules/execute.ts';
import { newExecutionId } from '../../lib/rules/executions.ts';
import { unpackPrepared } from '../../lib/vocabulary/prepared-form.ts';
import { createDocumentClient, type DynamoConfig } from '../../lib/store/dynamo/client.ts';
import { executionKey, versionKey } from '../../lib/store/keys.ts';
import { tableDefinition } from '../../lib/store/table.ts';
import { executionRetentionDays, type EntityRef, type Store } from '../../lib/store/types.ts';
import { addBranch } from '../../lib/workspaces/admin.ts';
import { workspaceId } from './bench-table.ts';
import type { capacityReplayer } from './capacity.ts';
import { benchTables, type Params } from './engine.ts';
import type { ExecuteFunction } from './execute-call.ts';
import { compareLatency, type LatencyOptions } from './latency.ts';
import { median } from './stats.ts';
import type { meterRequests } from './request-meter.ts';
import { flushTallies } from '../../lib/tallies/buffer.ts';

export const executeBranch = 'execute';
const actor = 'bench';
/** How many different params the calls cycle through. */
const inputCount = 64;
/** The tight loops of the evaluation, with and without what coverage adds: calls a round, and rounds each. */
export const tightLoop = { calls: 5_000, rounds: 7 };

export type ExecuteProbe =
  | 'handler'
  | 'executeRule'
  | 'floor'
  | 'versionGet'
  | 'entityRead'
  | 'handlerRecorded'
  | 'executeRuleRecorded'
  | 'floorRecorded'
  | 'executeRuleUncounted'
  | 'floorCounted'
  | 'handlerShadow'
  | 'executeRuleShadow';

export interface ExecuteRequests {
  /** Which rule: executions not recorded, or recorded. */
  recorded: boolean;
  requests: number;
  operations: Record<string, number>;
  responseBytes: number;
  /** Of the reads only (the PutItem is not replayed). */
  readCapacityUnits: number;
}

export interface ExecuteLatencyFigures {
  rule: { title: string; rows: number; inputs: number; definitionBytes: number; versionItemBytes: number; entityItemBytes: number };
  /** One record per pass; each pass is a full comparison (warm-up, then `calls` rounds). */
  passes: Record<ExecuteProbe, number[]>[];
  requests: ExecuteRequests[];
  /** Microseconds per `evaluateRule` call alone on the same inputs (the median round of a tight loop): the floor's CPU part. */
  evaluateUs: number;
  /** The same loop with the coverage counting the execute path does: the evaluation collecting its hits, then with them counted into the function's tally buffer. */
  coverageUs: { hits: number; counted: number };
  /** What the shadow rollout counted over the whole run. */
  shadow: { compared: number; disagree: number };
}

/** The same inputs as the engine bench draws for table (a): a seeded generator over each input's domain. */
export function inputsFor(candidate: (random: () => number) => Params, count: number): Params[] {
  let a = 20_251_122;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return Array.from({ length: count }, () => candidate(random));
}

const itemBytes = (item: unknown) => Buffer.byteLength(JSON.stringify(item));

/** Creates and publishes the rule on `branch` (as the create and publish operations do, through the same domain calls); returns its ref. */
export async function publishRule(store: Store, input: EntityInput, branch = executeBranch): Promise<EntityRef> {
  const ref: EntityRef = { workspaceId, branch, entityType: 'rule', id: input.id };
  const { saved } = await createEntity(store, ref, input as unknown as Record<string, unknown>, actor);
  const published = await publishDraft(store, ref, { checksum: saved.checksum }, actor);
  if (published.version !== 'v1') throw new Error(`publishing ${input.id} gave ${published.version}, not v1`);
  return ref;
}

/** Publishes a candidate of the rule (its odd rows answer another code) and starts a shadow rollout of it. */
async function shadowCandidate(store: Store, ref: EntityRef, definition: Record<string, unknown>) {
  const { checksum } = (await store.getEntity(ref))!;
  const rules = (definition.rules as { when: string[]; then: unknown[] }[]).map((row, r) =>
    r % 2 ? { ...row, then: [row.then[0], `"r${r + 1}-candidate"`] } : row,
  );
  const edited = await updateEntity(store, ref, { checksum, definition: { ...definition, rules } }, actor);
  const published = await publishDraft(store, ref, { checksum: edited.checksum, candidate: true }, actor);
  if (published.version !== 'v2' || !published.candidate) throw new Error(`publishing the candidate of ${ref.id} gave ${JSON.stringify(published)}`);
  await startRollout(store, ref, { candidate: 'v2', mode: 'shadow' }, actor);
}

/**
 * Publishes the three rules, checks every probe gives the same answers on
 * every input, meters one warm call of each rule, and then runs `passes`
 * comparisons.
 */
export async function measureExecuteLatency(
  execute: ExecuteFunction,
  store: Store,
  config: DynamoConfig,
  meter: ReturnType<typeof meterRequests>,
  replayer: ReturnType<typeof capacityReplayer>,
  options: LatencyOptions & { passes: number },
  log: (message: string) => void,
): Promise<ExecuteLatencyFigures> {
  const spec = benchTables()[0]!;
  await addBranch(store, workspaceId, executeBranch);
  const base = { name: 'Execute bench: 20-row mixed table', description: 'Table (a) of the engine bench', type: 'decisionTable', tags: ['bench'] } as const;
  const plain = await publishRule(store, { ...base, id: 'execute-plain', definition: spec.definition } as unknown as EntityInput);
  const recorded = await publishRule(store, {
    ...base,
    id: 'execute-recorded',
    definition: { ...spec.definition, settings: { recordExecutions: true } },
  } as unknown as EntityInput);
  const shadowed = await publishRule(store, { ...base, id: 'execute-shadow', definition: spec.definition } as unknown as EntityInput);
  await shadowCandidate(store, shadowed, spec.definition as unknown as Record<string, unknown>);

  const client = createDocumentClient(config);
  try {
    const getVersion = (ref: EntityRef) => new GetCommand({ TableName: config.tableName, Key: versionKey(ref, 'v1') });
    const versionItem = (await client.send(getVersion(plain))).Item!;
    // The floor evaluates the same compiled rule the function does: compiled once from the version's prepared form.
    const compiled = compileRule(unpackPrepared(versionItem.prepared as string));
    const inputs = inputsFor(spec.candidate, inputCount);

    // The execution item as the store writes it (lib/store/dynamo/executions.ts), the output added in the timed call.
    const { byName } = tableDefinition.indexes;
    const executionItem = (ref: EntityRef, params: Params) => {
      const startedAt = new Date();
      const executionId = newExecutionId();
      const key = executionKey({ workspaceId, branch: executeBranch, ruleId: ref.id }, startedAt.toISOString(), executionId);
      const expires = new Date(startedAt.getTime() + executionRetentionDays * 24 * 3600 * 1000);
      return {
        startedAt,
        item: {
          ...key,
          [byName.partitionKey]: key.PK,
          [byName.sortKey]: key.SK,
          executionId,
          ruleId: ref.id,
          version: 'v1',
          trigger: 'api',
          outcome: 'succeeded',
          durationMs: 0.01,
          startedAt: startedAt.toISOString(),
          finishedAt: startedAt.toISOString(),
          expiresAt: expires.toISOString(),
          inputJson: JSON.stringify(params),
          [tableDefinition.timeToLiveAttribute]: Math.floor(expires.getTime() / 1000),
        } as Record<string, unknown>,
      };
    };

    /** Each probe cycles through the inputs on its own counter; they are called equally often, so they see the same sequence. */
    const cycling = (make: (params: Params) => () => Promise<unknown>) => {
      let i = 0;
      return () => make(inputs[i++ % inputs.length]!);
    };
    const floorCall = (ref: EntityRef) =>
      cycling((params) => {
        const command = getVersion(ref);
        return async () => {
          const { Item } = await client.send(command);
          if (!Item) throw new Error('no version item');
          return evaluateRule(compiled, params, { clock: new Date() }).output;
        };
      });
    // What the execute path counts for coverage, into the same process-wide buffer executeRule counts into (it flushes off the path).
    const scope = { workspaceId, branch: executeBranch, ruleId: plain.id };
    const version = { version: 'v1', checksum: String(versionItem.checksum) };
    const probes: Record<ExecuteProbe, () => () => Promise<unknown>> = {
      handler: cycling((params) => execute.prepare(executeBranch, plain.id, params)),
      executeRule: cycling((params) => () => executeRule(store, plain, { params })),
      floor: floorCall(plain),
      versionGet: cycling(() => {
        const command = getVersion(plain);
        return async () => (await client.send(command)).Item;
      }),
      entityRead: cycling(() => () => store.getEntity(plain)),
      // executeRule as it was before coverage: the same steps, the evaluation without hits and nothing counted.
      executeRuleUncounted: cycling((params) => async () => {
        const rule = await publishedVersion(store, plain);
        const startedAt = new Date();
        const start = performance.now();
        const { output } = evaluateRule(rule.rule, params, { clock: startedAt });
        return { output, version: rule.version, executionId: newExecutionId(), durationMs: elapsedSince(start) };
      }),
      floorCounted: cycling((params) => {
        const command = getVersion(plain);
        return async () => {
          const { Item } = await client.send(command);
          if (!Item) throw new Error('no version item');
          const at = new Date();
          const { output, hits } = evaluateRule(compiled, params, { clock: at, hits: true });
          countExecution(store, scope, version, { output, hits }, at);
          return output;
        };
      }),
      handlerRecorded: cycling((params) => execute.prepare(executeBranch, recorded.id, params)),
      handlerShadow: cycling((params) => execute.prepare(executeBranch, shadowed.id, params)),
      executeRuleShadow: cycling((params) => () => executeRule(store, shadowed, { params })),
      executeRuleRecorded: cycling((params) => () => executeRule(store, recorded, { params })),
      floorRecorded: cycling((params) => {
        const get = getVersion(recorded);
        const { startedAt, item } = executionItem(recorded, params);
        return async () => {
          const { Item } = await client.send(get);
          if (!Item) throw new Error('no version item');
          const { output } = evaluateRule(compiled, params, { clock: startedAt });
          await client.send(new PutCommand({ TableName: config.tableName, Item: { ...item, outputJson: JSON.stringify(output) } }));
          return output;
        };
      }),
    };

    // Same answers first: every probe that evaluates gives the same output on every input.
    for (const params of inputs) {
      const outputs = [
        (await execute.prepare(executeBranch, plain.id, params)()).output,
        (await executeRule(store, plain, { params })).output,
        evaluateRule(compiled, params).output,
        (await execute.prepare(executeBranch, recorded.id, params)()).output,
        (await execute.prepare(executeBranch, shadowed.id, params)()).output,
        (await executeRule(store, shadowed, { params })).output,
      ];
      if (new Set(outputs.map((o) => JSON.stringify(o))).size !== 1)
        throw new Error(`the probes answered differently on ${JSON.stringify(params)}: ${JSON.stringify(outputs)}`);
    }

    // What one warm call asks of DynamoDB (the calls above warmed the function: directory cache and compiled rule). Their coverage
    // counts and the shadow's comparisons are written first: a flush (one UpdateItem per tally item, at most every 10 s) happens
    // beside calls, never in one, and none of their writes is metered here.
    await flushTallies();
    const requests: ExecuteRequests[] = [];
    for (const [ref, isRecorded] of [
      [plain, false],
      [recorded, true],
    ] as const) {
      const call = execute.prepare(executeBranch, ref.id, inputs[0]!);
      await call();
      meter.start();
      await call();
      const seen = meter.stop();
      const operations: Record<string, number> = {};
      for (const { operation } of seen) operations[operation] = (operations[operation] ?? 0) + 1;
      const reads = seen.filter((r) => r.operation === 'GetItem' || r.operation === 'Query');
      requests.push({
        recorded: isRecorded,
        requests: seen.length,
        operations,
        responseBytes: seen.reduce((sum, r) => sum + r.responseBytes, 0),
        readCapacityUnits: (await replayer.costOf(reads)).capacityUnits,
      });
    }

    // The evaluation alone, for the breakdown; then with what coverage adds to it. Loops taking turns (the order rotating each
    // round) after a round of warm-up, the median round of each, so that neither the JIT's warm-up nor the machine's moods fall on one.
    let sink = 0;
    const loop = (call: (params: Params) => unknown) => () => {
      const started = performance.now();
      for (let i = 0; i < tightLoop.calls; i++) sink += call(inputs[i % inputs.length]!) ? 1 : 0;
      return ((performance.now() - started) * 1000) / tightLoop.calls;
    };
    const loops = [
      loop((params) => evaluateRule(compiled, params).output),
      loop((params) => evaluateRule(compiled, params, { hits: true }).hits),
      loop((params) => {
        const at = new Date();
        const { output, hits } = evaluateRule(compiled, params, { clock: at, hits: true });
        countExecution(store, scope, version, { output, hits }, at);
        return hits;
      }),
    ];
    const rounds: number[][] = loops.map(() => []);
    for (let round = -1; round < tightLoop.rounds; round++)
      for (let k = 0; k < loops.length; k++) {
        const which = (k + Math.max(round, 0)) % loops.length;
        const us = loops[which]!();
        if (round >= 0) rounds[which]!.push(us);
      }
    const [evaluateUs, hitsUs, countedUs] = rounds.map(median) as [number, number, number];
    const coverageUs = { hits: hitsUs, counted: countedUs };
    await flushTallies();
    if (sink < 0) throw new Error('unreachable');

    const passes: Record<ExecuteProbe, number[]>[] = [];
    for (let pass = 1; pass <= options.passes; pass++) {
      log(`  execute latency, pass ${pass} of ${options.passes}`);
      passes.push(await compareLatency(probes, options));
    }

    // The shadow's comparisons: every call compared (none lost), and how many disagreed, for the method.
    await flushTallies();
    const { rollout } = (await store.getEntity(shadowed))!;
    const shadowCounts =
      (await store.getTallies({ workspaceId, branch: executeBranch, ruleId: shadowed.id, name: rolloutTallyName(rollout!.id) }))?.counts ?? {};
    const entityItem = await store.getEntity(plain);
    return {
      rule: {
        title: spec.title,
        rows: spec.definition.rules.length,
        inputs: inputs.length,
        definitionBytes: itemBytes(spec.definition),
        versionItemBytes: itemBytes(versionItem),
        entityItemBytes: itemBytes(entityItem),
      },
      passes,
      requests,
      evaluateUs,
      coverageUs,
      shadow: { compared: shadowCounts.compared ?? 0, disagree: shadowCounts.disagree ?? 0 },
    };
  } finally {
    client.destroy();
  }
}
