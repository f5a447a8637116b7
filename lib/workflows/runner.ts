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
import { convertValue } from '../engine/value-types.ts';
import { fieldPath, stepExpressions, type StepOf, type WorkflowDefinition, type WorkflowStep } from './definition.ts';
import type { PreparedWorkflow } from './validate.ts';

/** What an API step asks the caller to send; the caller resolves the integration or credential and makes the call. */
export interface ApiRequest {
  stepId: string;
  method: StepOf<'apiRequest'>['method'];
  integrationId?: string;
  path?: string;
  url?: string;
  credentialId?: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
  /** This try's timeout: the step's, or less when the run's deadline is nearer. */
  timeoutMs: number;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface WorkflowServices {
  runRule(ruleId: string, version: string | undefined, params: Record<string, unknown>): Promise<unknown>;
  callApi(request: ApiRequest): Promise<ApiResponse>;
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

export interface StepResult {
  id: string;
  type: WorkflowStep['kind'];
  status: 'succeeded' | 'failed' | 'skipped';
  durationMs: number;
  output?: unknown;
  error?: string;
}

export interface WorkflowRun {
  status: 'succeeded' | 'failed';
  /** The end step's output, as JSON. */
  output?: unknown;
  /** Every step: those run in the order run, then those skipped in definition order. */
  steps: StepResult[];
  error?: { stepId: string; message: string };
}

export interface CompiledWorkflow {
  readonly definition: WorkflowDefinition;
  readonly steps: ReadonlyMap<string, { step: WorkflowStep; base: string }>;
  readonly evaluators: ReadonlyMap<string, Evaluator>;
}

/** A failure of one step, with the message the run reports. */
class StepFailure extends Error {}

const retryBaseMs = 200;

/** Compiles every FEEL of a prepared workflow, once. */
export function compileWorkflow(prepared: PreparedWorkflow): CompiledWorkflow {
  const steps = new Map(prepared.definition.steps.map((step, i) => [step.id, { step, base: `steps[${i}]` }]));
  const evaluators = new Map<string, Evaluator>();
  prepared.definition.steps.forEach((step, i) => {
    for (const { path } of stepExpressions(step, `steps[${i}]`)) {
      const expr = prepared.expressions.get(path);
      if (!expr) throw new Error(`${path} was not parsed: validate the workflow before compiling it`);
      evaluators.set(path, compileExpression(expr));
    }
  });
  return { definition: prepared.definition, steps, evaluators };
}

/** One step's work, given the context so far; its result (as a FEEL value) joins the context, and `next` says where to go. */
interface Outcome {
  value?: FeelValue;
  next?: string;
  /** Set by an end step: the run's output. */
  output?: FeelContext;
}

class Run {
  constructor(
    readonly workflow: CompiledWorkflow,
    readonly services: WorkflowServices,
    readonly context: FeelContext,
    readonly clock: Date,
    readonly remaining: () => number,
    readonly sleep: (ms: number) => Promise<void>,
  ) {}

  evaluate(path: string): FeelValue {
    try {
      return this.workflow.evaluators.get(path)!(rootEnv(this.context, { clock: this.clock }));
    } catch (error) {
      if (error instanceof EngineError) throw new StepFailure(`${path}: ${error.message}`);
      throw error;
    }
  }

  evaluateMap(base: string, map: Record<string, string>): FeelContext {
    const out: FeelContext = {};
    for (const name of Object.keys(map)) out[name] = this.evaluate(fieldPath(base, name));
    return out;
  }

  async step(step: WorkflowStep, base: string): Promise<Outcome> {
    switch (step.kind) {
      case 'rule': {
        const params = toPlain(this.evaluateMap(`${base}.inputs`, step.inputs)) as Record<string, unknown>;
        return { value: json(await this.services.runRule(step.ruleId, step.version, params)), next: step.next };
      }
      case 'apiRequest':
        return { value: json(await this.apiRequest(step, base)), next: step.next };
      case 'branch': {
        const taken = step.cases.findIndex((_, j) => this.evaluate(`${base}.cases[${j}].when`) === true);
        const next = taken >= 0 ? step.cases[taken]!.next : step.otherwise;
        if (next === undefined) throw new StepFailure('no case holds and there is no otherwise');
        return { next };
      }
      case 'transform':
        return { value: this.evaluateMap(`${base}.set`, step.set), next: step.next };
      case 'end':
        return { output: this.evaluateMap(`${base}.output`, step.output) };
    }
  }

  private async apiRequest(step: StepOf<'apiRequest'>, base: string): Promise<ApiResponse> {
    const request: Omit<ApiRequest, 'timeoutMs'> = {
      stepId: step.id,
      method: step.method,
      ...(step.integrationId !== undefined && { integrationId: step.integrationId, path: step.path! }),
      ...(step.url !== undefined && { url: step.url }),
      ...(step.credentialId !== undefined && { credentialId: step.credentialId }),
      query: this.texts(`${base}.query`, step.query),
      headers: this.texts(`${base}.headers`, step.headers),
      ...(step.body !== undefined && { body: toPlain(this.evaluate(`${base}.body`)) }),
    };
    let last = '';
    for (let attempt = 0; attempt <= step.retries; attempt++) {
      if (attempt > 0) await this.sleep(Math.min(retryBaseMs * 2 ** (attempt - 1), Math.max(0, this.remaining())));
      const timeoutMs = Math.min(step.timeoutMs, this.remaining());
      if (timeoutMs <= 0) break;
      try {
        const response = await this.services.callApi({ ...request, timeoutMs });
        if (response.status !== 429 && response.status < 500) return response;
        last = `answered ${response.status}`;
      } catch (error) {
        last = `failed: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    throw new StepFailure(`the request ${last || 'was not sent before the deadline'}${step.retries ? ` (${step.retries + 1} tries)` : ''}`);
  }

  /** Query parameters and headers: a string, number or boolean as text; null leaves the entry out. */
  private texts(base: string, map: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.evaluateMap(base, map))) {
      if (value === null) continue;
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new StepFailure(`${fieldPath(base, name)} must give a string, number or boolean`);
      out[name] = String(value);
    }
    return out;
  }
}

/** A JSON answer from outside as a FEEL value: objects are contexts and lists lists already; anything else (undefined) is null. */
const json = (value: unknown): FeelValue => (value === undefined ? null : (value as FeelValue));

/**
 * Runs a compiled workflow with `inputs` (checked and converted by their declared types).
 *
 * @example
 * const run = await runWorkflow(workflow, { order: { total: 120 } }, { runRule, callApi });
 * if (run.status === 'failed') log(run.error); // { stepId: 'quote', message: '...' }
 */
export async function runWorkflow(workflow: CompiledWorkflow, inputs: Record<string, unknown>, services: WorkflowServices, options: RunOptions = {}): Promise<WorkflowRun> {
  const { definition } = workflow;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? definition.timeoutMs;
  const maxSteps = options.maxSteps ?? definition.steps.length;
  const started = now();
  const deadline = started + timeoutMs;
  const results: StepResult[] = [];
  const finish = (run: Omit<WorkflowRun, 'steps'>): WorkflowRun => {
    const ran = new Set(results.map((r) => r.id));
    const skipped = definition.steps.filter((s) => !ran.has(s.id)).map((s): StepResult => ({ id: s.id, type: s.kind, status: 'skipped', durationMs: 0 }));
    return { ...run, steps: [...results, ...skipped] };
  };

  const context: FeelContext = {};
  const invalid: string[] = [];
  for (const input of definition.inputs) {
    const converted = convertValue(inputs[input.name], input.type);
    if (converted.ok) context[input.name] = converted.value;
    else invalid.push(`${input.name}: ${converted.problem}`);
  }
  if (invalid.length) return finish({ status: 'failed', error: { stepId: definition.start, message: `invalid inputs: ${invalid.join('; ')}` } });

  const run = new Run(workflow, services, context, new Date(started), () => deadline - now(), options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))));
  const fail = (step: WorkflowStep, at: number, message: string) => {
    results.push({ id: step.id, type: step.kind, status: 'failed', durationMs: now() - at, error: message });
    return finish({ status: 'failed', error: { stepId: step.id, message } });
  };
  const pastDeadline = `the run's deadline of ${timeoutMs} ms passed`;

  let id: string | undefined = definition.start;
  for (let count = 0; id !== undefined; count++) {
    const entry = workflow.steps.get(id);
    if (!entry) return finish({ status: 'failed', error: { stepId: id, message: `no step has the id "${id}"` } });
    const { step, base } = entry;
    const at = now();
    if (count >= maxSteps) return fail(step, at, `the run reached its bound of ${maxSteps} steps`);
    if (at >= deadline) return fail(step, at, `${pastDeadline} before the step started`);
    let outcome: Outcome;
    try {
      outcome = await run.step(step, base);
    } catch (error) {
      return fail(step, at, error instanceof Error ? error.message : String(error));
    }
    if (now() > deadline) return fail(step, at, `${pastDeadline} during the step`);
    const output = outcome.output ?? outcome.value;
    results.push({ id: step.id, type: step.kind, status: 'succeeded', durationMs: now() - at, ...(output !== undefined && { output: toPlain(output) }) });
    if (outcome.value !== undefined) context[step.id] = outcome.value;
    if (outcome.output) return finish({ status: 'succeeded', output: toPlain(outcome.output) });
    id = outcome.next;
  }
  return finish({ status: 'failed', error: { stepId: definition.start, message: 'the run ended without an end step' } });
}
