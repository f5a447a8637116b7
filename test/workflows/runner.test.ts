/** Runs with fake rules, APIs and clocks: the path taken, each step's record, failures and the deadline, each naming the step. */
import { describe, expect, it, vi } from 'vitest';
import type { WorkflowDefinitionInput } from '../../lib/workflows/definition.ts';
import { compileWorkflow, runWorkflow, type ApiRequest, type ApiResponse, type RunOptions, type WorkflowServices } from '../../lib/workflows/runner.ts';
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
  return { options: { now: () => t, sleep: async () => {} } satisfies RunOptions, advance: (ms: number) => void (t += ms) };
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
        method: 'POST',
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

  it('retries a call that failed or answered 5xx, and fails the step when the tries run out', async () => {
    const retried = await runWorkflow(workflow, inputs, services(20, [new Error('socket hang up'), ok(7)]).fake, fakeTime().options);
    expect(retried.output).toMatchObject({ fee: 7 });
    const failed = await runWorkflow(workflow, inputs, services(20, [new Error('socket hang up'), { status: 503, headers: {}, body: null }]).fake, fakeTime().options);
    expect(failed).toMatchObject({ status: 'failed', error: { stepId: 'price-api', message: 'the request answered 503 (2 tries)' } });
    expect(failed.steps.map((s) => s.status)).toEqual(['succeeded', 'failed', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
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
    const flow = compile({ inputs: [{ name: 'x', type: 'number' }], start: 'b', steps: [{ id: 'b', kind: 'branch', cases: [{ when: 'x > 1', next: 'e' }] }, { id: 'e', kind: 'end' }] });
    expect((await runWorkflow(flow, { x: 0 }, services(0, []).fake)).error).toEqual({ stepId: 'b', message: 'no case holds and there is no otherwise' });
    expect((await runWorkflow(flow, { x: 'ten' }, services(0, []).fake)).error).toEqual({ stepId: 'b', message: 'invalid inputs: x: expected a number, got the string "ten"' });
    const api = compile({ start: 'a', steps: [{ id: 'a', kind: 'apiRequest', method: 'GET', url: 'https://x.test/', headers: { 'X-List': '[1, 2]' }, next: 'e' }, { id: 'e', kind: 'end' }] });
    expect((await runWorkflow(api, {}, services(0, [ok(1)]).fake)).error).toEqual({ stepId: 'a', message: 'steps[0].headers["X-List"] must give a string, number or boolean' });
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
    const loop = define({ start: 'a', steps: [{ id: 'a', kind: 'transform', set: { n: '1' }, next: 'b' }, { id: 'b', kind: 'transform', set: { n: '2' }, next: 'a' }] });
    const { prepared } = validateWorkflow(loop);
    const run = await runWorkflow(compileWorkflow(prepared), {}, services(0, []).fake);
    expect(run.error).toEqual({ stepId: 'a', message: 'the run reached its bound of 2 steps' });
  });

  it('needs a validated, parsed workflow to compile', () => {
    expect(() => compileWorkflow({ definition: define(quoteFlow), expressions: new Map() })).toThrow(/steps\[0\]\.inputs\.total was not parsed/);
  });
});
