/**
 * Batch evaluation below the HTTP layer, on the embedded DynamoDB: a batch
 * answers its inputs in order, each with its output or its own error, as a
 * call with that input alone would; the rule is read and compiled once however
 * many inputs there are; a recording rule records one execution an input;
 * an answer past its bound is refused before anything is recorded, and a
 * tested batch gives up traces before it gives up answers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEntity } from '../../lib/authoring/save.ts';
import { publishDraft } from '../../lib/publishing/publish.ts';
import { ApiError, fromEngineError } from '../../lib/vocabulary/errors.ts';
import { executeBatch, executeRule } from '../../lib/rules/execute.ts';
import { batchBounds } from '../../lib/rules/schema.ts';
import { testBatch } from '../../lib/authoring/test.ts';
import { ruleScopeOf, type EntityRef, type Store } from '../../lib/store/types.ts';
import { createWorkspace } from '../../lib/workspaces/admin.ts';
import { overlappingByDate, parcelFee, simple, type Json } from '../helpers/rules.ts';
import { useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('rule-batches');
const scope = { workspaceId: 'w', branch: 'main', entityType: 'rule' } as const;
const ref = (id: string): EntityRef => ({ ...scope, id });

/** The store, counting the calls of each of its methods. */
function counted(store: Store) {
  const calls: Record<string, number> = {};
  const proxy = new Proxy(store, {
    get(target, name: string) {
      const value = target[name as keyof Store];
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls[name] = (calls[name] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

async function published(record: Json) {
  const { saved } = await createEntity(fixture.store, scope, record, 'test');
  await publishDraft(fixture.store, ref(record.id as string), { checksum: saved.checksum }, 'test');
  return ref(record.id as string);
}

/** What a single execute answers for `params`: its output, or its error as a batch's slot holds it. */
async function alone(rule: EntityRef, params: Json) {
  try {
    return { output: (await executeRule(fixture.store, rule, { params })).output };
  } catch (error) {
    const { code, message } = error instanceof ApiError ? error : fromEngineError(error as never);
    return { error: { code, message } };
  }
}

beforeAll(async () => {
  await createWorkspace(fixture.store, { id: scope.workspaceId, defaultBranch: scope.branch });
});

describe('executeBatch', () => {
  it('answers every input in order, each as a call with it alone answers, a failing one with its error in its place', async () => {
    const fee = await published(parcelFee('batch-fee', { settings: {} }));
    const paramsList = [{ weightKg: 1 }, { weightKg: 'heavy' }, { weightKg: 3 }, {}, { weightKg: 2 }];
    const answer = await executeBatch(fixture.store, fee, { paramsList });
    expect(answer).toEqual({
      outputs: [
        { output: { fee: 4.9 } },
        {
          error: {
            code: 'invalid_request',
            message: expect.stringContaining('params.weightKg'),
            fields: [{ field: 'params.weightKg', message: 'expected a number, got the string "heavy"' }],
          },
        },
        { output: { fee: 8.9 } },
        { output: null },
        { output: { fee: 4.9 } },
      ],
      version: 'v1',
      durationMs: expect.any(Number),
    });
    for (const [i, params] of paramsList.entries()) {
      const { fields: _fields, ...slot } = (answer.outputs[i] as { error?: { fields?: unknown } }).error ?? {};
      expect('error' in answer.outputs[i]! ? { error: slot } : answer.outputs[i], `input ${i}`).toEqual(await alone(fee, params));
    }
  });

  it('answers a rule that cannot answer one input (two rows under unique) with evaluation_failed in its place', async () => {
    const byDate = await published(overlappingByDate('batch-by-date'));
    const { outputs } = await executeBatch(fixture.store, byDate, { paramsList: [{ day: '2025-02-01' }, { day: '2025-07-01' }] });
    expect(outputs[0]).toEqual({ output: { fee: 1 }, executionId: expect.any(String) });
    expect(outputs[1]).toEqual({
      error: { code: 'evaluation_failed', message: expect.stringMatching(/row 1 \(winter\) and row 2 \(summer\)/) },
      executionId: expect.any(String),
    });
  });

  it('reads and compiles the rule once for the whole batch, where single executes read it on every call', async () => {
    const rule = await published(parcelFee('batch-once', { settings: {} }));
    const paramsList = Array.from({ length: 200 }, (_, i) => ({ weightKg: i % 5 }));
    const batch = counted(fixture.store);
    await executeBatch(batch.store, rule, { paramsList });
    // The head (the latest version's label), then the version itself, compiled: once each.
    expect(batch.calls).toEqual({ getEntityHead: 1, getVersion: 1 });
    const again = counted(fixture.store);
    await executeBatch(again.store, rule, { paramsList });
    // Warm: the compiled version is kept, only the head is read.
    expect(again.calls).toEqual({ getEntityHead: 1 });
    const singles = counted(fixture.store);
    for (const params of paramsList) await executeRule(singles.store, rule, { params });
    expect(singles.calls).toEqual({ getEntityHead: paramsList.length });
  });

  it('records one execution an input when the rule records them, failed ones too, each under the id its output carries', async () => {
    const rule = await published(parcelFee('batch-recorded'));
    const paramsList = Array.from({ length: 60 }, (_, i) => (i === 7 ? { weightKg: 'seven' } : { weightKg: i % 4 }));
    const { store, calls } = counted(fixture.store);
    const { outputs } = await executeBatch(store, rule, { paramsList });
    expect(calls).toMatchObject({ putExecutions: 1 });
    expect(calls.putExecution).toBeUndefined();
    const ids = outputs.map((slot) => slot.executionId);
    expect(new Set(ids).size).toBe(60);
    const { items } = await fixture.store.listExecutions(ruleScopeOf(rule), { pageNo: 1, pageSize: 100 }, new Date().toISOString());
    expect(items).toHaveLength(60);
    const byId = new Map(items.map((execution) => [execution.executionId, execution]));
    for (const [i, params] of paramsList.entries()) {
      const recorded = byId.get(ids[i]!);
      expect(recorded, `input ${i}`).toMatchObject({ ruleId: rule.id, version: 'v1', trigger: 'api', input: params });
      expect(recorded!.outcome).toBe(i === 7 ? 'failed' : 'succeeded');
      if (i !== 7) expect(recorded!.output).toEqual((outputs[i] as { output: unknown }).output);
    }
    expect(byId.get(ids[7]!)!.error).toEqual({ code: 'invalid_params', message: expect.stringContaining('params.weightKg') });
  });

  it('records nothing and gives no execution ids when the rule does not record its executions', async () => {
    const rule = await published(parcelFee('batch-unrecorded', { settings: {} }));
    const { store, calls } = counted(fixture.store);
    const { outputs } = await executeBatch(store, rule, { paramsList: [{ weightKg: 1 }, { weightKg: 'x' }] });
    expect(outputs.every((slot) => !('executionId' in slot))).toBe(true);
    expect(calls.putExecutions).toBeUndefined();
  });

  it('refuses an answer past its bound with 413 answer_too_large, naming how far it got, and records nothing', async () => {
    const echo = await published(
      simple('batch-echo', {
        parameters: [{ name: 'note', type: 'string' }],
        when: 'true',
        then: { a: 'note', b: 'note' },
        settings: { recordExecutions: true },
      }),
    );
    // Each answer twice its input: 400 inputs of 10 KB answer 8 MB.
    const paramsList = Array.from({ length: 400 }, () => ({ note: 'x'.repeat(10_000) }));
    const { store, calls } = counted(fixture.store);
    const refused = await executeBatch(store, echo, { paramsList }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 413, code: 'answer_too_large', data: { errors: [{ in: 'body', field: 'paramsList' }] } });
    expect((refused as ApiError).message).toMatch(/^The answers to the first \d+ of the 400 inputs come to more than the 5 MiB/);
    // A little over 20 KB an answer.
    const reached = Number(/first (\d+)/.exec((refused as ApiError).message)![1]);
    expect(reached).toBeGreaterThan(batchBounds.maxAnswerBytes / 20_100);
    expect(reached).toBeLessThanOrEqual(Math.ceil(batchBounds.maxAnswerBytes / 20_000));
    expect(calls.putExecutions).toBeUndefined();
    // Half as many fit.
    expect((await executeBatch(store, echo, { paramsList: paramsList.slice(0, 200) })).outputs).toHaveLength(200);
  });
});

describe('testBatch', () => {
  it("tests the draft once for the whole batch: each input's output with its trace, a failing one with its error", async () => {
    const { saved } = await createEntity(fixture.store, scope, parcelFee('batch-draft'), 'test');
    const { store, calls } = counted(fixture.store);
    const answer = await testBatch(store, ref('batch-draft'), { paramsList: [{ weightKg: 3 }, { weightKg: true }], checksum: saved.checksum });
    expect(calls).toEqual({ getEntity: 1 });
    expect(answer).toEqual({
      outputs: [
        {
          output: { fee: 8.9 },
          trace: {
            kind: 'decisionTable',
            inputs: [{ label: 'Weight', value: 3 }],
            rows: [
              { row: 1, id: 'light', matched: false, failed: { input: 'Weight', cell: '<= 2', value: 3 } },
              { row: 2, id: 'heavy', matched: true },
            ],
          },
        },
        { error: { code: 'invalid_request', message: expect.any(String), fields: [{ field: 'params.weightKg', message: expect.any(String) }] } },
      ],
      durationMs: expect.any(Number),
    });
  });

  it('names the published version it tested', async () => {
    const rule = await published(parcelFee('batch-test-version'));
    expect(await testBatch(fixture.store, rule, { paramsList: [{ weightKg: 1 }], version: 'v1' })).toMatchObject({ version: 'v1' });
  });

  it('gives traces while the answer has room for them, then answers without (traceOmitted), and refuses only when the outputs alone do not fit', async () => {
    await createEntity(
      fixture.store,
      scope,
      parcelFee('batch-traced', {
        parameters: [{ name: 'note', type: 'string' }],
        inputs: [{ id: 'note', label: 'Note', expression: 'note', type: 'string' }],
        outputs: [{ id: 'echo', name: 'echo', type: 'string' }],
        rules: [{ id: 'any', when: ['-'], then: ['note'] }],
        tests: [],
      }),
      'test',
    );
    // Each input's trace holds it once more: 10 KB of output and 10 KB of trace an input; one input fails, and has neither.
    const note = 'x'.repeat(10_000);
    const paramsList = Array.from({ length: 400 }, (_, i) => ({ note: i === 5 ? 5 : note }));
    const { outputs } = await testBatch(fixture.store, ref('batch-traced'), { paramsList });
    expect(outputs[5]).toEqual({ error: expect.objectContaining({ code: 'invalid_request' }) });
    const untraced = outputs.findIndex((slot, i) => i !== 5 && !('trace' in slot));
    // The outputs take 4 MB of the 5 MiB: the room left holds about 120 traces.
    expect(untraced).toBeGreaterThan(100);
    expect(untraced).toBeLessThan(130);
    for (const slot of outputs.slice(0, untraced).filter((_, i) => i !== 5)) expect(slot).toEqual({ output: { echo: note }, trace: expect.any(Object) });
    for (const slot of outputs.slice(untraced)) expect(slot).toEqual({ output: { echo: note }, traceOmitted: true });
    const tooMany = Array.from({ length: 600 }, () => ({ note: 'x'.repeat(10_000) }));
    await expect(testBatch(fixture.store, ref('batch-traced'), { paramsList: tooMany })).rejects.toMatchObject({ status: 413, code: 'answer_too_large' });
    // Small traces all fit.
    const small = await testBatch(fixture.store, ref('batch-traced'), { paramsList: paramsList.slice(0, 100) });
    expect(small.outputs.filter((slot) => 'trace' in slot)).toHaveLength(99);
  });
});
