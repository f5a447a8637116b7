/**
 * Pathological FEEL through the API. Text the parser refuses (nesting past
 * its bound, a number no double holds, a literal pattern no automaton runs)
 * is a 400 naming the field, on create and on edit. Text that parses but
 * would run unbounded on JavaScript (a pattern that backtracks
 * exponentially, iterations nested over large ranges, a text doubled forty
 * times, an answer of one long text repeated) is saved, and every run of it
 * answers in bounded time: the pattern with its answer, in linear time; the
 * rest with 422 evaluation_failed saying why, from a test of the draft and an
 * execution of the published version alike, and as a failed step, with the
 * same words, in a workflow.
 */
import { describe, expect, it } from 'vitest';
import type { ApiResponse, RequestOptions } from '../helpers/api.ts';
import { expectFailure, expectUnpaged } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

/** What any one answer below may take, even on two busy cores; the engine's budget is spent in well under a second. */
const answerMs = 10_000;

async function timedApi<D>(path: string, options: RequestOptions): Promise<ApiResponse<D>> {
  const started = Date.now();
  const response = await t.api<D>(path, options);
  expect(Date.now() - started, `${options.method} ${path}`).toBeLessThan(answerMs);
  return response;
}

const post = <D>(path: string, body: unknown) => timedApi<D>(path, { method: 'POST', body: JSON.stringify(body) });

interface FieldErrors {
  errors: { in: string; field: string; message: string }[];
}

const simpleRule = (id: string, when: string, then: Record<string, unknown> = { hit: true }) => ({
  id,
  name: `FEEL bound ${id}`,
  type: 'simpleRule',
  definition: { when, then, otherwise: { hit: false } },
});

/** Creates and publishes a rule, which runs its saved tests: both must pass. */
async function published(body: ReturnType<typeof simpleRule>) {
  const created = await post<{ checksum: string }>('/dev/v1/rule', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await post(`/dev/v1/rule/${body.id}/publish`, { checksum: created.body.data.checksum })).status).toBe(201);
}

/** `n` single-item contexts, each doubling the text of the one before: a text of 2^n characters, in a few hundred characters of FEEL. */
const doubled = (n: number) => `{t0: "ab", ${Array.from({ length: n }, (_, i) => `t${i + 1}: t${i} + t${i}`).join(', ')}}.t${n}`;

describe('FEEL the parser refuses is a 400 naming the field', () => {
  it.each([
    ['10,000 parentheses', `${'('.repeat(10_000)}1${')'.repeat(10_000)} = 1`, /4000/],
    ['brackets 65 deep', `${'('.repeat(65)}1${')'.repeat(65)} = 1`, /nests brackets deeper than 64 levels/],
    ['a number past decimal128', `${'9'.repeat(3_000)}e4000`, /the number 99999999999999999999… is too large/],
    ['a backreference', 'matches(code, "(a)\\\\1")', /matches: backreferences are not supported/],
    ['a lookahead', 'matches(code, "a(?=b)")', /matches: lookahead and lookbehind are not supported/],
  ])('%s, on create and on edit', async (_what, when, message) => {
    const refused = await post<FieldErrors>('/dev/v1/rule', simpleRule('feel-refused', when));
    expectFailure(refused, 400, 'invalid_request');
    expect(refused.body.data.errors).toContainEqual({ in: 'body', field: 'definition.when', message: expect.stringMatching(message) });
    expectFailure(await timedApi('/dev/v1/rule/feel-refused', {}), 404, 'entity_not_found');

    const { checksum } = expectUnpaged(await post<{ checksum: string }>('/dev/v1/rule', simpleRule('feel-edited', 'true')), 201);
    const edit = await timedApi<FieldErrors>('/dev/v1/rule/feel-edited', {
      method: 'PATCH',
      body: JSON.stringify({ checksum, definition: simpleRule('x', when).definition }),
    });
    expectFailure(edit, 400, 'invalid_request');
    expect(edit.body.data.errors).toContainEqual({ in: 'body', field: 'definition.when', message: expect.stringMatching(message) });
    expect(expectUnpaged(await timedApi<{ checksum: string }>('/dev/v1/rule/feel-edited', {}), 200).checksum).toBe(checksum);
    expectUnpaged(await timedApi('/dev/v1/rule/feel-edited', { method: 'DELETE' }), 200);
  });

  it('in a cell and an output of a decision table too', async () => {
    const table = {
      id: 'feel-cells',
      name: 'FEEL cells',
      type: 'decisionTable',
      definition: {
        inputs: [{ id: 'code', expression: 'code', type: 'string' }],
        outputs: [{ id: 'n', name: 'n', type: 'number' }],
        rules: [{ when: ['matches(?, "(a)\\\\1")'], then: ['1e6145'] }],
      },
    };
    const refused = await post<FieldErrors>('/dev/v1/rule', table);
    expectFailure(refused, 400, 'invalid_request');
    expect(refused.body.data.errors).toEqual([
      { in: 'body', field: 'definition.rules[0].when[0]', message: 'matches: backreferences are not supported' },
      { in: 'body', field: 'definition.rules[0].then[0]', message: expect.stringMatching(/the number 1e6145 is too large/) },
    ]);
  });
});

describe('FEEL that would run unbounded answers in bounded time', () => {
  it('a pattern that backtracks exponentially in JavaScript runs in linear time, with its answer', async () => {
    await published(simpleRule('feel-redos', 'matches(code, "^(a+)+$")'));
    for (const [code, hit] of [
      [`${'a'.repeat(15_000)}!`, false],
      ['a'.repeat(15_000), true],
    ] as const) {
      const tested = expectUnpaged(await post<{ output: unknown; trace: { result: boolean } }>('/dev/v1/rule/feel-redos/test', { params: { code } }), 200);
      expect(tested).toMatchObject({ output: { hit }, trace: { result: hit } });
      expect(expectUnpaged(await post<{ output: unknown }>('/dev/v1/rule/feel-redos/execute', { params: { code } }), 200).output).toEqual({ hit });
    }
  });

  it.each([
    ['two ranges of 100,000 iterated together', 'some i in 1..100000, j in 1..100000 satisfies i = j + 100000'],
    ['a for inside a for', 'count(for i in 1..100000 return for j in 1..100000 return j) > 0'],
    ['a text doubled forty times', `string length(${doubled(40)}) > 0`],
    ['the same pattern run over a long text again and again', 'count(for i in 1..100000 return matches(code, "(a|b|c)*z")) > 0'],
  ])('%s: 422 evaluation_failed from a test and from an execution, saying why', async (what, when) => {
    const id = `feel-${what.replace(/[^a-z0-9]+/g, '-')}`;
    await published(simpleRule(id, when));
    const params = { params: { code: 'abc'.repeat(1_000) } };
    for (const run of ['test', 'execute']) {
      const response = await post(`/dev/v1/rule/${id}/${run}`, params);
      expectFailure(response, 422, 'evaluation_failed');
      expect(response.body.message).toMatch(/stopped after 5,000,000 steps of work/);
    }
  });

  it('an answer of one long text repeated is a 422, not a JSON failure', async () => {
    await published(simpleRule('feel-big-answer', 'true', { hit: `for i in 1..20000 return "${'a'.repeat(1_000)}"` }));
    const response = await post('/dev/v1/rule/feel-big-answer/test', { params: {} });
    expectFailure(response, 422, 'evaluation_failed');
    expect(response.body.message).toMatch(/The answer holds more than 10,000,000 values and characters/);
  });

  it('in a workflow, the step fails with the same words, in a run and in a test of the step', async () => {
    const workflow = {
      id: 'feel-bound-flow',
      name: 'FEEL bound flow',
      type: 'workflow',
      definition: {
        start: 'grow',
        steps: [
          { id: 'grow', kind: 'transform', set: { big: `string length(${doubled(40)})` }, next: 'done' },
          { id: 'done', kind: 'end', output: { big: 'grow.big' } },
        ],
      },
    };
    expect((await post('/dev/v1/workflow', workflow)).status).toBe(201);
    const run = expectUnpaged(
      await post<{ status: string; steps: { id: string; status: string; error?: string }[] }>('/dev/v1/workflow/feel-bound-flow/test', { params: {} }),
      200,
    );
    expect(run.status).toBe('failed');
    expect(run.steps[0]).toMatchObject({ id: 'grow', status: 'failed', error: expect.stringMatching(/stopped after 5,000,000 steps of work/) });
    const step = expectUnpaged(await post<{ status: string; error?: string }>('/dev/v1/workflow/feel-bound-flow/steps/grow/test', { context: {} }), 200);
    expect(step).toMatchObject({ status: 'failed', error: expect.stringMatching(/stopped after 5,000,000 steps of work/) });
  });
});
