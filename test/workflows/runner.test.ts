/** Runs with fake rules, APIs and clocks: the path taken, each step's record, failures and the deadline, each naming the step. */
import { describe, expect, it, vi } from 'vitest';
import type { WorkflowDefinitionInput } from '../../lib/entities/workflow-definition.ts';
import { ApiCallFailure, type ApiRequest, type ApiResponse } from '../../lib/integrations/api-call.ts';
import { compileWorkflow, retryAfterMs, runWorkflow, type RunOptions, type WorkflowServices } from '../../lib/workflows/runner.ts';
import { validateWorkflow } from '../../lib/workflows/validate.ts';
import { define, quoteFlow } from './helpers.ts';

function compile(input: WorkflowDefinitionInput) {
  const { problems, prepared } = validateWorkflow(define(input));
  expect(problems).toEqual([]);
  return compileWorkflow(prepared);
}

/** A clock that moves only when told to, and a run that never waits. */
function fakeTime(start = 1_000) {
  let t = start;
  const slept: number[] = [];
  const options = { now: () => t, sleep: async (ms: number) => void slept.push(ms) } satisfies RunOptions;
  return { options, slept, advance: (ms: number) => void (t += ms) };
}

function services(score: number, responses: (ApiResponse | Error)[]) {
  const requests: ApiRequest[] = [];
  const fake: WorkflowServices = {
    runRule: vi.fn(async () => ({ score })),
    callApi: vi.fn(async (request: ApiRequest) => {
      requests.push(request);
      const next = responses.shift()!;
      if (next instanceof Error) throw next;
      return next;
    }),
  };
  return { fake, requests };
}

const ok = (price: number): ApiResponse => ({ status: 200, headers: { 'content-type': 'application/json' }, body: { price } });
const inputs = { order: { id: 'o-1', total: 120, country: 'DE' }, orderDate: '2025-01-31' };

describe('runWorkflow', () => {
  const workflow = compile(quoteFlow);

  it('runs rule → api → branch → transform → end, each step recorded', async () => {
    const { fake, requests } = services(20, [ok(10)]);
    const run = await runWorkflow(workflow, inputs, fake, fakeTime().options);
    expect(run).toMatchObject({ status: 'succeeded', output: { accepted: true, fee: 10, note: 'accepted' } });
    expect(fake.runRule).toHaveBeenCalledWith('risk-score', 'v2', { total: 120, country: 'DE' });
    expect(requests).toEqual([
      {
        stepId: 'price-api',
        method: 'PUT',
        integrationId: 'pricing',
        path: '/quotes',
        query: { currency: 'EUR', rush: 'false' },
        headers: { 'X-Order': 'o-1' },
        body: { total: 120, score: 20, on: '2025-01-31' },
        timeoutMs: 10_000,
      },
    ]);
    expect(run.steps.map((s) => [s.id, s.status])).toEqual([
      ['risk', 'succeeded'],
      ['price-api', 'succeeded'],
      ['decide', 'succeeded'],
      ['accept', 'succeeded'],
      ['done', 'succeeded'],
      ['review', 'skipped'],
      ['rejected', 'skipped'],
      ['reviewed', 'skipped'],
    ]);
    expect(run.steps[1]).toEqual({ id: 'price-api', type: 'apiRequest', status: 'succeeded', durationMs: 0, output: ok(10) });
    expect(run.steps[3]!.output).toEqual({ fee: 10, note: 'accepted' });
  });

  it('takes each branch by its case, in order, or otherwise', async () => {
    const review = await runWorkflow(workflow, inputs, services(80, [ok(10)]).fake, fakeTime().options);
    expect(review.output).toEqual({ accepted: true, fee: 11, note: 'manual review' });
    expect(review.steps.filter((s) => s.status === 'succeeded').map((s) => s.id)).toEqual(['risk', 'price-api', 'decide', 'review', 'reviewed']);
    // A 4xx answer is the step's output, for a branch to read; the first case that holds wins over the later one.
    const rejected = await runWorkflow(workflow, inputs, services(80, [{ status: 404, headers: {}, body: null }]).fake, fakeTime().options);
    expect(rejected).toMatchObject({ status: 'succeeded', output: { accepted: false, status: 404 } });
  });

  it('tries an idempotent request again after no answer or a 5xx, with backoff, and fails the step when the tries run out', async () => {
    const time = fakeTime();
    const retried = await runWorkflow(workflow, inputs, services(20, [new ApiCallFailure('the connection was refused', true), ok(7)]).fake, time.options);
    expect(retried.output).toMatchObject({ fee: 7 });
    expect(time.slept).toEqual([200]);
    const failed = await runWorkflow(
      workflow,
      inputs,
      services(20, [new ApiCallFailure('the connection was refused', true), { status: 503, headers: {}, body: null }]).fake,
      fakeTime().options,
    );
    expect(failed).toMatchObject({
      status: 'failed',
      error: { stepId: 'price-api', message: 'the provider answered 503: the provider failed to handle the request; try again later (2 tries)' },
    });
    expect(failed.steps.map((s) => s.status)).toEqual(['succeeded', 'failed', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
    // What trying again cannot mend is not tried again.
    const revoked = services(20, [new ApiCallFailure('the credential "key" is revoked', false)]);
    expect((await runWorkflow(workflow, inputs, revoked.fake, fakeTime().options)).error).toEqual({
      stepId: 'price-api',
      message: 'the credential "key" is revoked',
    });
    expect(revoked.requests).toHaveLength(1);
  });

  const post = (retries: number) =>
    compile({
      start: 'a',
      steps: [
        { id: 'a', kind: 'apiRequest', request: { method: 'POST', url: 'https://x.test/' }, retries, next: 'e' },
        { id: 'e', kind: 'end', output: { price: 'a.body.price' } },
      ],
    });

  it('never sends a POST twice unless the provider asks, by 429 or 503 with Retry-After', async () => {
    const refused = services(0, [new ApiCallFailure('the connection was refused', true), ok(1)]);
    expect((await runWorkflow(post(3), {}, refused.fake, fakeTime().options)).error).toEqual({ stepId: 'a', message: 'the connection was refused' });
    expect(refused.requests).toHaveLength(1);
    const failing = services(0, [{ status: 500, headers: {}, body: null }]);
    expect((await runWorkflow(post(3), {}, failing.fake, fakeTime().options)).error?.message).toBe(
      'the provider answered 500: the provider failed to handle the request; try again later',
    );

    const time = fakeTime();
    const asked = services(0, [
      { status: 429, headers: { 'retry-after': '2' }, body: null },
      { status: 503, headers: { 'retry-after': new Date(1_000 + 1_500).toUTCString() }, body: null },
      ok(3),
    ]);
    expect((await runWorkflow(post(3), {}, asked.fake, time.options)).output).toEqual({ price: 3 });
    expect(time.slept).toEqual([2_000, 1_000]); // the date is read to the second
    const tooLate = services(0, [{ status: 429, headers: { 'retry-after': '120' }, body: null }]);
    expect((await runWorkflow(post(3), {}, tooLate.fake, fakeTime().options)).error?.message).toBe(
      "the provider answered 429: the provider is limiting the rate of calls; try again later; waiting 120000 ms to try again would pass the run's deadline",
    );
  });

  it('fails the step on 401 and 403 with what they mean for the key, and takes only the statuses the step accepts', async () => {
    const answer = (status: number) => services(0, [{ status, headers: {}, body: { error: 'no' } }, ok(1)]);
    expect((await runWorkflow(post(3), {}, answer(401).fake, fakeTime().options)).error?.message).toBe(
      'the provider answered 401: the key is wrong or revoked',
    );
    expect((await runWorkflow(post(3), {}, answer(403).fake, fakeTime().options)).error?.message).toBe(
      'the provider answered 403: the key is valid but lacks the permission',
    );
    expect((await runWorkflow(post(0), {}, answer(404).fake, fakeTime().options)).error?.message).toBe(
      'the provider answered 404: the provider has nothing at this URL; check the URL',
    );
    expect((await runWorkflow(workflow, inputs, services(0, [{ status: 404, headers: {}, body: null }]).fake, fakeTime().options)).status).toBe('succeeded');
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3', 0)).toBe(3_000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:05 GMT', 1_000)).toBe(4_000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:05 GMT', 9_000)).toBe(0);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
    expect(retryAfterMs(undefined, 0)).toBeUndefined();
  });

  it('gives a rule step without inputs the whole context', async () => {
    const flow = compile({
      inputs: [{ name: 'order', type: 'context' }],
      start: 'first',
      steps: [
        { id: 'first', kind: 'transform', set: { rush: 'order.total > 100' }, next: 'r' },
        { id: 'r', kind: 'rule', ruleId: 'shipping', next: 'e' },
        { id: 'e', kind: 'end', output: { score: 'r.score' } },
      ],
    });
    const { fake } = services(5, []);
    expect((await runWorkflow(flow, { order: { total: 120 } }, fake, fakeTime().options)).output).toEqual({ score: 5 });
    expect(fake.runRule).toHaveBeenCalledWith('shipping', undefined, { order: { total: 120 }, first: { rush: true } });
  });

  it('ends the run at a failing step, naming it', async () => {
    const { fake } = services(20, []);
    fake.runRule = async () => {
      throw new Error('invalid_params: total: expected a number');
    };
    const run = await runWorkflow(workflow, inputs, fake, fakeTime().options);
    expect(run.error).toEqual({ stepId: 'risk', message: 'invalid_params: total: expected a number' });
    expect(run.steps[0]).toMatchObject({ id: 'risk', status: 'failed', error: 'invalid_params: total: expected a number' });
    expect(run.output).toBeUndefined();
  });

  it('fails a branch where no case holds and there is no otherwise, and a header that is not text', async () => {
    const flow = compile({
      inputs: [{ name: 'x', type: 'number' }],
      start: 'b',
      steps: [
        { id: 'b', kind: 'branch', cases: [{ when: 'x > 1', next: 'e' }] },
        { id: 'e', kind: 'end' },
      ],
    });
    expect((await runWorkflow(flow, { x: 0 }, services(0, []).fake)).error).toEqual({ stepId: 'b', message: 'no case holds and there is no otherwise' });
    await expect(runWorkflow(flow, { x: 'ten' }, services(0, []).fake)).rejects.toMatchObject({
      code: 'invalid_params',
      problems: [{ field: 'params.x', message: 'expected a number, got the string "ten"' }],
    });
    const api = compile({
      start: 'a',
      steps: [
        { id: 'a', kind: 'apiRequest', request: { method: 'GET', url: 'https://x.test/', headers: { 'X-List': '[1, 2]' } }, next: 'e' },
        { id: 'e', kind: 'end' },
      ],
    });
    expect((await runWorkflow(api, {}, services(0, [ok(1)]).fake)).error).toEqual({
      stepId: 'a',
      message: 'steps[0].request.headers["X-List"] must give a string, number or boolean',
    });
  });

  it('fails the run once its deadline passes, naming the step, and gives each call no more than the time left', async () => {
    const time = fakeTime();
    const { fake, requests } = services(20, [ok(10)]);
    fake.runRule = async () => {
      time.advance(59_995);
      return { score: 20 };
    };
    const late = await runWorkflow(workflow, inputs, fake, time.options);
    expect(requests[0]!.timeoutMs).toBe(5);
    expect(late.status).toBe('succeeded');

    const slow = fakeTime();
    const stuck = services(20, []).fake;
    stuck.runRule = async () => {
      slow.advance(61_000);
      return { score: 1 };
    };
    const run = await runWorkflow(workflow, inputs, stuck, slow.options);
    expect(run.error).toEqual({ stepId: 'risk', message: "the run's deadline of 60000 ms passed during the step" });
    expect(run.steps[0]).toMatchObject({ id: 'risk', status: 'failed', durationMs: 61_000 });

    const short = await runWorkflow(workflow, inputs, stuck, { ...fakeTime().options, timeoutMs: 0 });
    expect(short.error).toEqual({ stepId: 'risk', message: "the run's deadline of 0 ms passed before the step started" });
  });

  it('bounds the number of steps even when validation was skipped', async () => {
    const loop = define({
      start: 'a',
      steps: [
        { id: 'a', kind: 'transform', set: { n: '1' }, next: 'b' },
        { id: 'b', kind: 'transform', set: { n: '2' }, next: 'a' },
      ],
    });
    const { prepared } = validateWorkflow(loop);
    const run = await runWorkflow(compileWorkflow(prepared), {}, services(0, []).fake);
    expect(run.error).toEqual({ stepId: 'a', message: 'the run reached its bound of 2 steps' });
  });

  it('needs a validated, parsed workflow to compile', () => {
    expect(() => compileWorkflow({ definition: define(quoteFlow), expressions: new Map() })).toThrow(/steps\[0\]\.inputs\.total was not parsed/);
  });
});
