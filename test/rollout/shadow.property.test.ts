/**
 * A rollout never changes an answer but by design: over random decision
 * tables, random candidates (the same rows, one fee changed, or another
 * table) and random params, executed through `executeRule` against the
 * embedded DynamoDB. Under a shadow every answer (or failure) is the served
 * version's, exactly as the engine gives it alone; under a canary each answer
 * is the engine's for the version it names. Either way every execution is
 * compared once, and the counts say how the two versions compared, as a
 * reference loop over the same params finds. And a replay of the same
 * params on the same two versions counts what the shadow counted. A batch
 * (`paramsList`) takes no part: the served version answers it, uncounted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEntity, updateEntity } from '../../lib/authoring/save.ts';
import { publishDraft } from '../../lib/publishing/publish.ts';
import { checkRule } from '../../lib/engine/authoring.ts';
import { compareOutcomes, compileRule, EngineError, evaluateRule, type Outcome, type RuleDefinition } from '../../lib/engine/index.ts';
import { agreementOf } from '../../lib/rules/rollout-compare.ts';
import { getRollout, startRollout } from '../../lib/rollout/service.ts';
import { executeBatch, executeRule } from '../../lib/rules/execute.ts';
import type { EntityRef } from '../../lib/store/types.ts';
import { useEmbeddedStore } from '../helpers/store.ts';
import { flushTallies } from '../../lib/tallies/buffer.ts';
import { compileSides } from '../../lib/replay/rules.ts';
import { tallyShard } from '../../lib/replay/shard.ts';

const fixture = useEmbeddedStore('rollout-shadow');
const actor = 'test';

interface Row {
  when: string;
  fee: number;
}

const bound = fc.integer({ min: -20, max: 20 });
const cell = fc.oneof(
  fc.constant('-'),
  bound.map((n) => `< ${n}`),
  bound.map((n) => `>= ${n}`),
  fc.tuple(bound, bound).map(([a, b]) => `[${Math.min(a, b)}..${Math.max(a, b)}]`),
);
const rows = fc.array(fc.record({ when: cell, fee: fc.integer({ min: -1_000, max: 1_000 }).map((n) => n / 100) }), { minLength: 1, maxLength: 6 });
const hitPolicy = fc.constantFrom('first', 'collect');

const definitionOf = (policy: string, table: Row[]) => ({
  hitPolicy: policy,
  parameters: [{ name: 'x', type: 'number' }],
  inputs: [{ id: 'x', expression: 'x', type: 'number' }],
  outputs: [{ id: 'fee', name: 'fee', type: 'number' }],
  rules: table.map((row, i) => ({ id: `r${i}`, when: [row.when], then: [row.fee] })),
});

/** The candidate: the served table with a description of its own only, one fee changed, or another table. */
const candidateOf = fc.oneof(
  fc.constant({ kind: 'same' as const }),
  fc.record({ kind: fc.constant('oneFee' as const), at: fc.nat(), fee: fc.integer({ min: -1_000, max: 1_000 }).map((n) => n / 100) }),
  fc.record({ kind: fc.constant('other' as const), policy: hitPolicy, table: rows }),
);

const settings = fc.oneof(
  fc.constant({ mode: 'shadow' as const }),
  fc.record({ mode: fc.constant('canary' as const), percent: fc.integer({ min: 1, max: 50 }), stickyBy: fc.constantFrom(undefined, 'x') }),
);

/** Params: numbers in and around the cells' bounds, nothing, or a text where a number is declared (which both versions refuse). */
const paramsList = fc.array(
  fc.oneof(
    fc.integer({ min: -25, max: 25 }).map((x) => ({ x })),
    fc.constant({}),
    fc.constant({ x: null }),
    fc.constant({ x: 'text' }),
  ),
  { minLength: 1, maxLength: 12 },
);

/** The engine alone, on the definition as saved: what each version answers. */
function reference(definition: Record<string, unknown>) {
  const { prepared, problems } = checkRule({ kind: 'decisionTable', definition } as unknown as RuleDefinition);
  expect(problems).toEqual([]);
  const rule = compileRule(prepared);
  return (params: Record<string, unknown>): Outcome => {
    try {
      return { output: evaluateRule(rule, params).output };
    } catch (error) {
      if (error instanceof EngineError) return { error };
      throw error;
    }
  };
}

/** What executeRule gave: the answer and the version named, or the engine's failure. */
async function executed(ref: EntityRef, params: Record<string, unknown>): Promise<Outcome & { version?: string }> {
  try {
    const { output, version } = await executeRule(fixture.store, ref, { params });
    return { output, version };
  } catch (error) {
    if (error instanceof EngineError) return { error };
    throw error;
  }
}

const sameResult = (a: Outcome, b: Outcome) => ['same', 'bothFailing'].includes(compareOutcomes(a, b));

let run = 0;

describe('a rollout on live executions', () => {
  it('never changes a shadow’s answer, answers a canary’s with the version it names, and counts every comparison as the reference does', async () => {
    await fc.assert(
      fc.asyncProperty(hitPolicy, rows, candidateOf, settings, paramsList, async (policy, table, change, rollout, inputs) => {
        const ref: EntityRef = { workspaceId: 'w', branch: 'main', entityType: 'rule', id: `shadow-${run++}` };
        const served = definitionOf(policy, table);
        const candidate =
          change.kind === 'same'
            ? served
            : change.kind === 'other'
              ? definitionOf(change.policy, change.table)
              : definitionOf(
                  policy,
                  table.map((row, i) => (i === change.at % table.length ? { ...row, fee: change.fee } : row)),
                );
        const { saved } = await createEntity(fixture.store, ref, { id: ref.id, name: ref.id, type: 'decisionTable', definition: served }, actor);
        expect((await publishDraft(fixture.store, ref, { checksum: saved.checksum }, actor)).version).toBe('v1');
        const edited = await updateEntity(fixture.store, ref, { checksum: saved.checksum, description: 'the candidate', definition: candidate }, actor);
        expect(await publishDraft(fixture.store, ref, { checksum: edited.checksum, candidate: true }, actor)).toMatchObject({ version: 'v2', candidate: true });
        await startRollout(fixture.store, ref, { candidate: 'v2', ...rollout }, actor);

        const baselineOf = reference(served);
        const candidateOfParams = reference(candidate);
        for (const params of inputs) {
          const answer = await executed(ref, params);
          const [baseline, other] = [baselineOf(params), candidateOfParams(params)];
          if (rollout.mode === 'shadow') {
            expect(sameResult(answer, baseline), JSON.stringify({ params, answer, baseline })).toBe(true);
            if ('output' in answer) expect(answer.version).toBe('v1');
          } else if ('output' in answer) expect(sameResult(answer, answer.version === 'v2' ? other : baseline)).toBe(true);
          else expect([baseline, other].some((result) => sameResult(answer, result))).toBe(true);
        }

        await flushTallies();
        const { counts } = await getRollout(fixture.store, ref);
        const expected = { agree: 0, disagree: 0, candidateFailed: 0, baselineFailed: 0 };
        for (const params of inputs) expected[agreementOf(baselineOf(params), candidateOfParams(params))]++;
        expect(counts).toMatchObject({ compared: inputs.length, ...expected });
        if (rollout.mode === 'canary') expect(counts!.servedByCandidate + counts!.servedByBaseline).toBe(inputs.length);
        else expect(counts!.servedByCandidate + counts!.servedByBaseline).toBe(0);
      }),
      { numRuns: 25 },
    );
  }, 60_000);

  it('leaves a batch out: under a canary of every execution, each input of a paramsList is answered by the served version and none is counted', async () => {
    const ref: EntityRef = { workspaceId: 'w', branch: 'main', entityType: 'rule', id: `batch-${run++}` };
    const { saved } = await createEntity(
      fixture.store,
      ref,
      { id: ref.id, name: ref.id, type: 'decisionTable', definition: definitionOf('first', [{ when: '-', fee: 1 }]) },
      actor,
    );
    await publishDraft(fixture.store, ref, { checksum: saved.checksum }, actor);
    const edited = await updateEntity(fixture.store, ref, { checksum: saved.checksum, definition: definitionOf('first', [{ when: '-', fee: 2 }]) }, actor);
    await publishDraft(fixture.store, ref, { checksum: edited.checksum, candidate: true }, actor);
    await startRollout(fixture.store, ref, { candidate: 'v2', mode: 'canary', percent: 100 }, actor);

    const batch = await executeBatch(fixture.store, ref, { paramsList: [{ x: 1 }, { x: 2 }, { x: 3 }] });
    expect(batch.version).toBe('v1');
    expect(batch.outputs.map((slot) => ('output' in slot ? slot.output : slot.error))).toEqual([{ fee: 1 }, { fee: 1 }, { fee: 1 }]);
    // A single execution is the canary's, and counted.
    expect(await executeRule(fixture.store, ref, { params: { x: 1 } })).toMatchObject({ output: { fee: 2 }, version: 'v2' });
    await flushTallies();
    expect((await getRollout(fixture.store, ref)).counts).toMatchObject({ compared: 1, servedByCandidate: 1, servedByBaseline: 0 });
  });

  it('counts what a replay of the same params on the same two versions counts', async () => {
    // A candidate that takes text where the served version takes numbers, and fails on every text it takes: on {x: 'text'}
    // both fail, with different codes (invalid_params; evaluation_failed, as both rows match under unique), which both count as
    // another answer.
    const failsOnText = {
      hitPolicy: 'unique',
      parameters: [{ name: 'x', type: 'string' }],
      inputs: [{ id: 'x', expression: 'x', type: 'string' }],
      outputs: [{ id: 'fee', name: 'fee', type: 'number' }],
      rules: [
        { id: 'a', when: ['starts with(?, "t")'], then: [1] },
        { id: 'b', when: ['ends with(?, "t")'], then: [2] },
      ],
    };
    const candidates = fc.oneof(
      fc.record({ policy: hitPolicy, table: rows }).map(({ policy, table }) => definitionOf(policy, table)),
      fc.constant(failsOnText),
    );
    await fc.assert(
      fc.asyncProperty(hitPolicy, rows, candidates, paramsList, async (policy, table, candidate, inputs) => {
        const ref: EntityRef = { workspaceId: 'w', branch: 'main', entityType: 'rule', id: `replayed-${run++}` };
        const { saved } = await createEntity(
          fixture.store,
          ref,
          { id: ref.id, name: ref.id, type: 'decisionTable', definition: definitionOf(policy, table) },
          actor,
        );
        const v1 = await publishDraft(fixture.store, ref, { checksum: saved.checksum }, actor);
        const edited = await updateEntity(fixture.store, ref, { checksum: saved.checksum, definition: candidate }, actor);
        const v2 = await publishDraft(fixture.store, ref, { checksum: edited.checksum, candidate: true }, actor);
        await startRollout(fixture.store, ref, { candidate: 'v2', mode: 'shadow' }, actor);
        for (const params of inputs) await executed(ref, params);
        await flushTallies();
        const { counts } = await getRollout(fixture.store, ref);

        const sides = await compileSides(fixture.store, ref, {
          baseline: { label: 'v1', checksum: v1.checksum },
          candidate: { label: 'v2', checksum: v2.checksum },
        });
        const replayed = (
          await tallyShard(
            sides,
            0,
            inputs.map((params) => ({ params, clock: new Date() })),
          )
        ).counts;
        expect(counts).toMatchObject({
          compared: replayed.inputs,
          agree: replayed.same + replayed.bothFailing,
          disagree: replayed.changed,
          candidateFailed: replayed.newlyFailing,
          baselineFailed: replayed.newlySucceeding,
        });
        if (candidate === failsOnText && inputs.some((params) => 'x' in params && params.x === 'text')) expect(replayed.changed).toBeGreaterThan(0);
      }),
      { numRuns: 20 },
    );
  }, 60_000);
});
