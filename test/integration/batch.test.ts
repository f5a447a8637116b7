/**
 * Batch evaluation over HTTP, through the local runtime: execute and test
 * with `paramsList` answer every input in order, each with its output or its
 * own error; a recording rule records one execution an input; workflows
 * refuse a batch; and the bounds of a batch are 400s naming the field.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { batchBounds } from '../../lib/rules/schema.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { errorsOf, parcelFee, rulesClient, simple, type Json } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
let rules: ReturnType<typeof rulesClient>;
let workflows: ReturnType<typeof rulesClient>;

interface Slot {
  output?: unknown;
  error?: { code: string; message: string; fields?: { field: string; message: string }[] };
  executionId?: string;
  trace?: Json;
  traceOmitted?: true;
}
interface BatchAnswer {
  outputs: Slot[];
  version?: string;
  durationMs: number;
}

const batch = async (operation: 'execute' | 'test', id: string, body: Json) => {
  const response = await (operation === 'execute' ? rules.execute : rules.test)(id, body);
  expectSuccess(response);
  return response.body.data as unknown as BatchAnswer;
};

beforeAll(() => {
  rules = rulesClient(t.api);
  workflows = rulesClient(t.api, 'workflow');
});

describe('execute with paramsList', () => {
  it('answers every input in order with the version that ran, a bad input with its error in its place, and records one execution an input', async () => {
    await rules.published(parcelFee('batch-executed'));
    const paramsList = [{ weightKg: 1 }, { weightKg: 'heavy' }, { weightKg: 3 }, { weightKg: 2.5 }];
    const answer = await batch('execute', 'batch-executed', { paramsList });
    expect(answer).toEqual({
      outputs: [
        { output: { fee: 4.9 }, executionId: expect.stringMatching(/^exec_[0-9a-f]{20}$/) },
        {
          error: {
            code: 'invalid_request',
            message: expect.stringContaining('params.weightKg'),
            fields: [{ field: 'params.weightKg', message: 'expected a number, got the string "heavy"' }],
          },
          executionId: expect.stringMatching(/^exec_/),
        },
        { output: { fee: 8.9 }, executionId: expect.stringMatching(/^exec_/) },
        { output: { fee: 8.9 }, executionId: expect.stringMatching(/^exec_/) },
      ],
      version: 'v1',
      durationMs: expect.any(Number),
    });
    const recorded = (await rules.executions('batch-executed')).body.data;
    expect(recorded).toHaveLength(4);
    const byId = new Map(recorded.map((execution) => [execution.executionId, execution]));
    answer.outputs.forEach((slot, i) => {
      expect(byId.get(slot.executionId!), `input ${i}`).toMatchObject({ input: paramsList[i], version: 'v1', outcome: i === 1 ? 'failed' : 'succeeded' });
      if (slot.output) expect(byId.get(slot.executionId!)!.output).toEqual(slot.output);
    });
  });

  it('runs a pinned version, records nothing for a rule that does not record, and gives no execution ids then', async () => {
    const v1 = await rules.published(parcelFee('batch-pinned', { settings: {} }));
    await rules.update('batch-pinned', {
      checksum: v1.checksum,
      definition: parcelFee('x', { rules: [{ when: ['-'], then: [7] }], tests: [], settings: {} }).definition as Json,
    });
    await rules.publish('batch-pinned');
    const latest = await batch('execute', 'batch-pinned', { paramsList: [{ weightKg: 1 }] });
    expect(latest).toMatchObject({ outputs: [{ output: { fee: 7 } }], version: 'v2' });
    const pinned = await batch('execute', 'batch-pinned', { paramsList: [{ weightKg: 1 }, { weightKg: 3 }], version: 'v1' });
    expect(pinned.outputs).toEqual([{ output: { fee: 4.9 } }, { output: { fee: 8.9 } }]);
    expect(pinned.version).toBe('v1');
    expectSuccess(await rules.executions('batch-pinned'), { pageNo: 1, pageSize: 10, totalCount: 0 });
  });

  it('runs a batch of 1,000 inputs, answering and recording each', async () => {
    await rules.published(parcelFee('batch-thousand'));
    const paramsList = Array.from({ length: batchBounds.maxInputs }, (_, i) => ({ weightKg: (i % 50) / 10 }));
    const { outputs } = await batch('execute', 'batch-thousand', { paramsList });
    expect(outputs.map((slot) => slot.output)).toEqual(paramsList.map(({ weightKg }) => ({ fee: weightKg <= 2 ? 4.9 : 8.9 })));
    expectSuccess(await rules.executions('batch-thousand', { pageSize: 1 }), { pageNo: 1, pageSize: 1, totalCount: batchBounds.maxInputs });
  });

  it('answers the errors of the whole call as a single execute does: an unknown rule 404, an unpublished one 409', async () => {
    await rules.create(parcelFee('batch-unpublished'));
    expectFailure(await rules.execute('batch-unpublished', { paramsList: [{ weightKg: 1 }] }), 409, 'rule_not_published');
    expectFailure(await rules.execute('batch-nobody', { paramsList: [{}] }), 404, 'entity_not_found');
  });
});

describe('test with paramsList', () => {
  it('tests the draft on every input, each with its trace, recording nothing', async () => {
    const created = await rules.create(parcelFee('batch-tested'));
    const answer = await batch('test', 'batch-tested', {
      paramsList: [{ weightKg: 3 }, { weightKg: [] }, { weightKg: 1 }],
      checksum: created.body.data.checksum,
    });
    expect(answer).toEqual({
      outputs: [
        { output: { fee: 8.9 }, trace: expect.objectContaining({ kind: 'decisionTable', inputs: [{ label: 'Weight', value: 3 }] }) },
        { error: { code: 'invalid_request', message: expect.any(String), fields: [{ field: 'params.weightKg', message: expect.any(String) }] } },
        {
          output: { fee: 4.9 },
          trace: expect.objectContaining({ rows: [expect.objectContaining({ matched: true }), expect.objectContaining({ matched: false })] }),
        },
      ],
      durationMs: expect.any(Number),
    });
    expectSuccess(await rules.executions('batch-tested'), { pageNo: 1, pageSize: 10, totalCount: 0 });
    expectFailure(await rules.test('batch-tested', { paramsList: [{}], checksum: 'stale' }), 409, 'checksum_mismatch');
  });
});

describe('workflows', () => {
  it('refuse a batch with 400 naming paramsList, on execute, asynchronous execute and test', async () => {
    for (const [response, operation] of [
      [await workflows.execute('loan-application', { paramsList: [{ applicant: { age: 30, creditScore: 700 } }] }), 'execute'],
      [await workflows.execute('loan-application', { paramsList: [{}], async: true }), 'execute'],
      [await workflows.test('loan-application', { paramsList: [{}] }), 'test'],
    ] as const) {
      expectFailure(response, 400, 'invalid_request', {
        errors: [
          {
            in: 'body',
            field: 'paramsList',
            message: expect.stringMatching(new RegExp(`^workflows run their steps one input at a time: call ${operation} once per input`)),
          },
        ],
      });
    }
    expectSuccess(await workflows.execute('loan-application', { params: { applicant: { age: 30, creditScore: 700 } } }));
  });
});

describe('bounds', () => {
  it('refuse 1,001 inputs, an empty list, params and paramsList together, and an input out of bounds, each naming the field', async () => {
    await rules.published(parcelFee('batch-bounded'));
    for (const operation of ['execute', 'test'] as const) {
      const send = (body: Json) => (operation === 'execute' ? rules.execute : rules.test)('batch-bounded', body);
      const tooMany = await send({ paramsList: Array.from({ length: batchBounds.maxInputs + 1 }, () => ({ weightKg: 1 })) });
      expectFailure(tooMany, 400, 'invalid_request', {
        errors: [{ in: 'body', field: 'paramsList', message: 'holds 1001 params objects, more than the 1000 allowed: split it' }],
      });
      expect(errorsOf(await send({ paramsList: [] }))).toEqual([{ in: 'body', field: 'paramsList', message: 'must hold at least one params object' }]);
      expect(errorsOf(await send({ params: { weightKg: 1 }, paramsList: [{ weightKg: 1 }] }))).toEqual([
        { in: 'body', field: 'paramsList', message: 'give params (one input) or paramsList (a batch), not both' },
      ]);
      expect(errorsOf(await send({ params: {}, paramsList: [{ weightKg: 1 }] }))[0]!.field).toBe('paramsList');
      expect(errorsOf(await send({ paramsList: [{ weightKg: 1 }, { note: 'x'.repeat(17_000) }] }))).toEqual([
        { in: 'body', field: 'paramsList[1]', message: expect.stringMatching(/more than the 16384 allowed/) },
      ]);
      expect(errorsOf(await send({ paramsList: [{}, 1] }))).toEqual([{ in: 'body', field: 'paramsList[1]', message: 'must be a JSON object' }]);
      expect(errorsOf(await send({ paramsList: { weightKg: 1 } }))).toEqual([{ in: 'body', field: 'paramsList', message: 'must be a list of params objects' }]);
      // 300 inputs of 15 KB: each within its bound, 4.5 MB together.
      const large = await send({ paramsList: Array.from({ length: 300 }, () => ({ weightKg: 1, note: 'x'.repeat(15_000) })) });
      expect(errorsOf(large)).toEqual([{ in: 'body', field: 'paramsList', message: expect.stringMatching(/more than the 4194304 allowed: split it$/) }]);
    }
    expect(errorsOf(await rules.execute('batch-bounded', { paramsList: [{}], async: true }))).toEqual([
      { in: 'body', field: 'async', message: 'only workflows run asynchronously: a rule answers at once' },
    ]);
    expectSuccess(await rules.executions('batch-bounded'), { pageNo: 1, pageSize: 10, totalCount: 0 });
  });

  it('refuse an answer past 5 MiB with 413 answer_too_large naming paramsList, recording nothing: split the list', async () => {
    await rules.published(
      simple('batch-doubled', {
        parameters: [{ name: 'note', type: 'string' }],
        when: 'true',
        then: { a: 'note', b: 'note' },
        settings: { recordExecutions: true },
      }),
    );
    // 3 MB of inputs, each answered twice over: 6 MB of answers.
    const paramsList = Array.from({ length: 300 }, () => ({ note: 'x'.repeat(10_000) }));
    const refused = await rules.execute('batch-doubled', { paramsList });
    expectFailure(refused, 413, 'answer_too_large');
    expect(refused.body.message).toMatch(/^The answers to the first \d+ of the 300 inputs come to more than the 5 MiB one answer can carry: split paramsList/);
    expect(errorsOf(refused)).toEqual([{ in: 'body', field: 'paramsList', message: refused.body.message }]);
    expectSuccess(await rules.executions('batch-doubled'), { pageNo: 1, pageSize: 10, totalCount: 0 });
    expect((await batch('execute', 'batch-doubled', { paramsList: paramsList.slice(0, 150) })).outputs).toHaveLength(150);
  });
});
