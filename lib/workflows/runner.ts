/**
 * Runs a workflow that `./validate.ts` accepted: FEEL compiled once per
 * definition, then each run walks from start along `next` and branch cases.
 * Pure: rules run and HTTP calls go through functions the caller injects, so
 * credentials, integrations and I/O stay outside, and so does time (a clock
 * the caller may replace). A run is bounded twice: a deadline for the whole
 * run (checked before and after each step, and handed to each call as its
 * timeout), and a number of steps, so that even a definition that skipped
 * validation cannot loop. A step that fails ends the run, naming the step.
 */
import { EngineError } from '../engine/errors.ts';
import { compileExpression, rootEnv, type Evaluator } from '../engine/feel/compile.ts';
import { toPlain, type FeelContext, type FeelValue } from '../engine/feel/values.ts';
import { convertParams } from '../engine/compile.ts';
import { describeProviderStatus } from '../outbound/provider-status.ts';
import type { StepRecord } from '../store/types.ts';
import { ApiCallFailure, type ApiRequest, type ApiResponse, type CallApi } from '../integrations/api-call.ts';
import type { StepOf, WorkflowDefinition, WorkflowStep } from '../entities/workflow-definition.ts';
import { fieldPath, stepExpressions } from './step-expressions.ts';
import type { PreparedWorkflow } from './validate.ts';
import { isNum } from '../decimal/decimal.ts';

export interface WorkflowServices {
  runRule(ruleId: string, version: string | undefined, params: Record<string, unknown>): Promise<unknown>;
  callApi: CallApi;
}

export interface RunOptions {
  /** Milliseconds since some origin; `Date.now` unless given. */
  now?: () => number;
  /** Waits between API retries; a real timer unless given. */
  sleep?: (ms: number) => Promise<void>;
  /** Overrides the definition's `timeoutMs`. */
  timeoutMs?: number;
  /** At most this many steps run; the number of steps of the definition unless given (enough for any acyclic walk). */
  maxSteps?: number;
}

/** A step as the run's answer gives it, and so as its execution records it: the stored shape, of the kinds a definition has. */
export interface StepResult extends StepRecord {
  type: WorkflowStep['kind'];
}

export interface WorkflowRun {
  status: 'succeeded' | 'failed';
  /** The end step's output, as JSON. */
  output?: unknown;
  /** Every step: those run in the order run, then those skipped in definition order. */
  steps: StepResult[];
  error?: { stepId: string; message: string };
}

/** One FEEL text of a step, compiled, with the path that names it in problems. */
interface CompiledField {
  /** Its name in its map, or its index among a branch's cases. */
  name: string;
  path: string;
  evaluate: Evaluator;
}

export interface CompiledWorkflow {
  readonly definition: WorkflowDefinition;
  readonly steps: ReadonlyMap<string, { step: WorkflowStep; base: string }>;
  readonly evaluators: ReadonlyMap<string, Evaluator>;
  /** The compiled entries of each name → FEEL map and of each branch's cases, by their group's path (`steps[0].inputs`, `steps[3].cases`), in order: what a run walks, without building paths. */
  readonly fields: ReadonlyMap<string, readonly CompiledField[]>;
}

/** A failure of one step, with the message the run reports. */
class StepFailure extends Error {}

const retryBaseMs = 200;
/** Methods that may be sent again after no answer or a 5xx: sending them twice does what sending them once does. */
const idempotentMethods = new Set(['GET', 'PUT', 'DELETE']);
/** Exponential backoff before try `attempt + 1`: 200, 400, 800 ms… */
const backoffMs = (attempt: number) => retryBaseMs * 2 ** (attempt - 1);

/** A Retry-After header as milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Compiles every FEEL of a prepared workflow, once. */
export function compileWorkflow(prepared: PreparedWorkflow): CompiledWorkflow {
  const steps = new Map(prepared.definition.steps.map((step, i) => [step.id, { step, base: `steps[${i}]` }]));
  const evaluators = new Map<string, Evaluator>();
  const fields = new Map<string, CompiledField[]>();
  prepared.definition.steps.forEach((step, i) => {
    for (const { path, group, key } of stepExpressions(step, `steps[${i}]`)) {
      const expr = prepared.expressions.get(path);
      if (!expr) throw new Error(`${path} was not parsed: validate the workflow before compiling it`);
      const evaluate = compileExpression(expr);
      evaluators.set(path, evaluate);
      if (group === undefined) continue;
      if (!fields.has(group)) fields.set(group, []);
      fields.get(group)!.push({ name: key!, path, evaluate });
    }
  });
  return { definition: prepared.definition, steps, evaluators, fields };
}

/** One step's work, given the context so far; its result (as a FEEL value) joins the context, and `next` says where to go. */
interface Outcome {
  value?: FeelValue;
  next?: string;
  /** Set by an end step: the run's output. */
  output?: FeelContext;
}

class Run {
  /** The context as FEEL sees it, with the run's one clock: steps add to the context, so one environment serves the whole run. */
  private readonly env: ReturnType<typeof rootEnv>;

  constructor(
    readonly workflow: CompiledWorkflow,
    readonly services: WorkflowServices,
    readonly context: FeelContext,
    readonly clock: Date,
    readonly now: () => number,
    readonly deadline: number,
    readonly sleep: (ms: number) => Promise<void>,
  ) {
    this.env = rootEnv(context, { clock });
  }

  evaluate(path: string, evaluate: Evaluator = this.workflow.evaluators.get(path)!): FeelValue {
    try {
      return evaluate(this.env);
    } catch (error) {
      if (error instanceof EngineError) throw new StepFailure(`${path}: ${error.message}`);
      throw error;
    }
  }

  evaluateMap(base: string): FeelContext {
    const out: FeelContext = {};
    for (const field of this.workflow.fields.get(base) ?? []) out[field.name] = this.evaluate(field.path, field.evaluate);
    return out;
  }

  /** A step's work: a promise for the steps that wait on something outside (rules, providers), the outcome at once for the others. */
  step(step: WorkflowStep, base: string): Outcome | Promise<Outcome> {
    switch (step.kind) {
      case 'rule': {
        const params = toPlain(step.inputs === undefined ? this.context : this.evaluateMap(`${base}.inputs`)) as Record<string, unknown>;
        return this.services.runRule(step.ruleId, step.version, params).then((answer) => ({ value: json(answer), next: step.next }));
      }
      case 'apiRequest':
        return this.apiRequest(step, base).then((response) => ({ value: json(response), next: step.next }));
      case 'branch': {
        const taken = this.workflow.fields.get(`${base}.cases`)!.findIndex((c) => this.evaluate(c.path, c.evaluate) === true);
        const next = taken >= 0 ? step.cases[taken]!.next : step.otherwise;
        if (next === undefined) throw new StepFailure('no case holds and there is no otherwise');
        return { next };
      }
      case 'transform':
        return { value: this.evaluateMap(`${base}.set`), next: step.next };
      case 'end':
        return { output: this.evaluateMap(`${base}.output`) };
    }
  }

  private remaining(): number {
    return this.deadline - this.now();
  }

  /**
   * Sends the step's request, trying again when that is safe and may help:
   * after no answer or a 429/5xx for an idempotent method, with backoff; after
   * a 429 or 503 with Retry-After for any method, when the provider asks. An
   * answer whose status is not 2xx (nor one the step accepts) fails the step
   * with what the status means (401: the key is wrong or revoked; 403: it
   * lacks the permission).
   */
  private async apiRequest(step: StepOf<'apiRequest'>, base: string): Promise<ApiResponse> {
    const { request: r } = step;
    const at = `${base}.request`;
    const request: Omit<ApiRequest, 'timeoutMs'> = {
      stepId: step.id,
      method: r.method,
      ...(r.integrationId !== undefined && { integrationId: r.integrationId, path: r.path! }),
      ...(r.url !== undefined && { url: r.url }),
      ...(step.credentialId !== undefined && { credentialId: step.credentialId }),
      query: this.texts(`${at}.query`),
      headers: this.texts(`${at}.headers`),
      ...(r.body !== undefined && { body: toPlain(this.evaluate(`${at}.body`)) }),
    };
    const idempotent = idempotentMethods.has(r.method);
    for (let attempt = 1; ; attempt++) {
      const timeoutMs = Math.min(step.timeoutMs, this.remaining());
      if (timeoutMs <= 0) throw new StepFailure(`the run's deadline passed before try ${attempt} of the request`);
      let problem: string;
      let wait: number | undefined;
      try {
        const response = await this.services.callApi({ ...request, timeoutMs });
        if ((response.status >= 200 && response.status < 300) || step.acceptStatuses.includes(response.status)) return response;
        problem = `the provider answered ${response.status}: ${describeProviderStatus(response.status)}`;
        const asked = response.status === 429 || response.status === 503 ? retryAfterMs(response.headers['retry-after'], this.now()) : undefined;
        wait = asked ?? (idempotent && (response.status === 429 || response.status >= 500) ? backoffMs(attempt) : undefined);
      } catch (error) {
        if (!(error instanceof ApiCallFailure)) throw error;
        problem = error.message;
        wait = idempotent && error.retryable ? backoffMs(attempt) : undefined;
      }
      const tries = attempt > 1 ? ` (${attempt} tries)` : '';
      if (wait === undefined || attempt > step.retries) throw new StepFailure(`${problem}${tries}`);
      if (wait >= this.remaining()) throw new StepFailure(`${problem}${tries}; waiting ${wait} ms to try again would pass the run's deadline`);
      await this.sleep(wait);
    }
  }

  /** Query parameters and headers: a string, number or boolean as text; null leaves the entry out. */
  private texts(base: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.evaluateMap(base))) {
      if (value === null) continue;
      if (typeof value !== 'string' && !isNum(value) && typeof value !== 'boolean')
        throw new StepFailure(`${fieldPath(base, name)} must give a string, number or boolean`);
      out[name] = String(value);
    }
    return out;
  }
}

/** A JSON answer from outside as a FEEL value: objects are contexts and lists lists already; anything else (undefined) is null. */
const json = (value: unknown): FeelValue => (value === undefined ? null : (value as FeelValue));

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const failedStep = (step: WorkflowStep, durationMs: number, error: string): Attempt => ({
  result: { id: step.id, type: step.kind, status: 'failed', durationMs, error },
});

type Attempt = { result: StepResult; outcome?: Outcome };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A step that did its work: its record, unless the run's deadline passed meanwhile. */
function finished(run: Run, step: WorkflowStep, at: number, timeoutMs: number, outcome: Outcome): Attempt {
  const end = run.now();
  if (end > run.deadline) return failedStep(step, end - at, `the run's deadline of ${timeoutMs} ms passed during the step`);
  const output = outcome.output ?? outcome.value;
  return {
    result:
      output === undefined
        ? { id: step.id, type: step.kind, status: 'succeeded', durationMs: end - at }
        : { id: step.id, type: step.kind, status: 'succeeded', durationMs: end - at, output: toPlain(output) },
    outcome,
  };
}

/**
 * One step, timed: its record, and on success what it gave. Failures are the
 * record's error, never thrown. A step that waits on nothing outside (branch,
 * transform, end) is done without a promise, so a run pays for awaiting only
 * where something is awaited.
 */
function attemptStep(run: Run, step: WorkflowStep, base: string, timeoutMs: number): Attempt | Promise<Attempt> {
  const at = run.now();
  if (at >= run.deadline) return failedStep(step, 0, `the run's deadline of ${timeoutMs} ms passed before the step started`);
  let pending: Outcome | Promise<Outcome>;
  try {
    pending = run.step(step, base);
  } catch (error) {
    return failedStep(step, run.now() - at, messageOf(error));
  }
  if (!(pending instanceof Promise)) return finished(run, step, at, timeoutMs, pending);
  return pending.then(
    (outcome) => finished(run, step, at, timeoutMs, outcome),
    (error: unknown) => failedStep(step, run.now() - at, messageOf(error)),
  );
}

/** The run's answer: the steps run, in order, then those skipped, in definition order. */
function answer(workflow: CompiledWorkflow, results: StepResult[], run: Omit<WorkflowRun, 'steps'>): WorkflowRun {
  const { steps } = workflow.definition;
  if (results.length === steps.length) return { ...run, steps: results };
  const ran = new Set<string>();
  for (const result of results) ran.add(result.id);
  const skipped: StepResult[] = [];
  for (const step of steps) if (!ran.has(step.id)) skipped.push({ id: step.id, type: step.kind, status: 'skipped', durationMs: 0 });
  return { ...run, steps: results.concat(skipped) };
}

/**
 * Runs a compiled workflow with `inputs` (checked and converted by their declared types).
 *
 * @throws EngineError `invalid_params` naming each input of the wrong type, before any step runs
 * @example
 * const run = await runWorkflow(workflow, { order: { total: 120 } }, { runRule, callApi });
 * if (run.status === 'failed') log(run.error); // { stepId: 'quote', message: '...' }
 */
export async function runWorkflow(
  workflow: CompiledWorkflow,
  inputs: Record<string, unknown>,
  services: WorkflowServices,
  options: RunOptions = {},
): Promise<WorkflowRun> {
  const { definition } = workflow;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? definition.timeoutMs;
  const maxSteps = options.maxSteps ?? definition.steps.length;
  const started = now();
  const results: StepResult[] = [];

  // Before any step: bad inputs are the caller's mistake (a 400 naming each), not a failed run.
  const context = { ...convertParams(inputs, definition.inputs) };
  const run = new Run(workflow, services, context, new Date(started), now, started + timeoutMs, options.sleep ?? realSleep);

  let id: string | undefined = definition.start;
  for (let count = 0; id !== undefined; count++) {
    const entry = workflow.steps.get(id);
    if (!entry) return answer(workflow, results, { status: 'failed', error: { stepId: id, message: `no step has the id "${id}"` } });
    const { step, base } = entry;
    const attempt = count >= maxSteps ? failedStep(step, 0, `the run reached its bound of ${maxSteps} steps`) : attemptStep(run, step, base, timeoutMs);
    const { result, outcome } = attempt instanceof Promise ? await attempt : attempt;
    results.push(result);
    if (!outcome) return answer(workflow, results, { status: 'failed', error: { stepId: step.id, message: result.error! } });
    if (outcome.value !== undefined) context[step.id] = outcome.value;
    if (outcome.output) return answer(workflow, results, { status: 'succeeded', output: result.output });
    id = outcome.next;
  }
  return answer(workflow, results, { status: 'failed', error: { stepId: definition.start, message: 'the run ended without an end step' } });
}

/**
 * Runs one step on a context given whole (the workflow's inputs and earlier
 * steps' results by name, as JSON), the way a run would reach it: for trying
 * a step against its provider without running the steps before it.
 *
 * @example
 * await runStep(workflow, 'quote', { order: { total: 120 }, risk: { score: 20 } }, { runRule, callApi });
 * // { id: 'quote', type: 'apiRequest', status: 'succeeded', durationMs: 85, output: { status: 200, headers: {...}, body: {...} }, next: 'decide' }
 */
export async function runStep(
  workflow: CompiledWorkflow,
  stepId: string,
  context: Record<string, unknown>,
  services: WorkflowServices,
  options: Omit<RunOptions, 'maxSteps'> = {},
): Promise<StepResult & { next?: string }> {
  const entry = workflow.steps.get(stepId);
  if (!entry) throw new Error(`no step "${stepId}"`);
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? workflow.definition.timeoutMs;
  const started = now();
  const run = new Run(workflow, services, { ...(context as FeelContext) }, new Date(started), now, started + timeoutMs, options.sleep ?? realSleep);
  const { result, outcome } = await attemptStep(run, entry.step, entry.base, timeoutMs);
  return { ...result, ...(outcome?.next !== undefined && { next: outcome.next }) };
}
