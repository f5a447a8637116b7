/**
 * Prepared rules compiled into runnable ones, and the one call that runs a
 * rule: params checked against the declared inputs, the rule evaluated, the
 * answer as JSON, and on request a trace. The same code runs in the API, the
 * scheduled run, the workflow runner and the console; it does no I/O, so a
 * rule set's references are compiled by the caller and handed in.
 */
import { compileDecisionTable, compileOutput, type CompiledDecisionTable, type DecisionTableTrace } from './decision-table/plan.ts';
import type { DeclaredInput } from './definitions.ts';
import { EngineError, type FieldProblem } from './errors.ts';
import { Budget } from './feel/budget.ts';
import { Clock, compileExpression, rootEnv, type Env, type Evaluator } from './feel/compile.ts';
import { isContext, setEntry, toPlain, type FeelContext, type FeelValue } from './feel/values.ts';
import type { PreparedRule, PreparedRuleSet, PreparedSimpleRule } from './prepared.ts';
import { convertValue } from './value-types.ts';
import { otherwiseBranch, thenBranch } from './coverage.ts';

export interface RunOptions {
  /** The instant `now()` and `today()` read (one per evaluation); the time of the first read when absent. */
  clock?: Date;
  trace?: boolean;
  /** Collect the rule's hits (./coverage.ts): which of its rows, entries or branches gave the answer. Cheaper than a trace: no row is scanned for it. */
  hits?: boolean;
}

/** What a compiled rule runs with: the evaluation's one clock and one budget of steps, shared by every rule a rule set runs. */
export interface RunContext {
  clock: Clock;
  budget: Budget;
  trace?: boolean;
  /** Where the rule being run puts the indexes of its parts that matched (./coverage.ts); a rule set's references run without it, their hits being theirs. */
  hits?: number[];
}

export type RuleTrace =
  | ({ kind: 'decisionTable' } & DecisionTableTrace)
  | { kind: 'simpleRule'; condition: string; result: boolean | null; reason?: string }
  | { kind: 'ruleSet'; entries: { id: string; matched: boolean; ruleId?: string; condition?: string; reason?: string; trace?: RuleTrace }[] };

export interface CompiledRule {
  readonly parameters?: DeclaredInput[];
  /** Runs on FEEL values (params already converted); the answer stays a FEEL value, for rule sets to chain. */
  run(params: FeelContext, context: RunContext): { output: FeelValue; trace?: RuleTrace };
}

/** A rule set's reference, as the caller resolved it: the compiled rule for `ruleId` (at `version`, if pinned). */
export type ReferenceResolver = (ruleId: string, version?: string) => CompiledRule;

type Outputs = [string, Evaluator][];

function evaluateOutputs(outputs: Outputs, env: Env): FeelContext {
  const out: FeelContext = {};
  for (const [name, evaluate] of outputs) setEntry(out, name, evaluate(env));
  return out;
}

const compileOutputs = (entries: PreparedSimpleRule['then']): Outputs => entries.map(([name, output]) => [name, compileOutput(output)]);

function compileSimpleRule(rule: PreparedSimpleRule): CompiledRule {
  const when = compileExpression(rule.when);
  const then = compileOutputs(rule.then);
  const otherwise = rule.otherwise && compileOutputs(rule.otherwise);
  return {
    parameters: rule.parameters,
    run(params, { clock, budget, trace, hits }) {
      const notes = trace ? [] : null;
      const env = rootEnv(params, { clock, budget, notes });
      const result = when(env);
      hits?.push(result === true ? thenBranch : otherwiseBranch);
      // Why the condition came out null, before the outputs add notes of their own.
      const reason = notes?.join('; ');
      const output = result === true ? evaluateOutputs(then, env) : otherwise ? evaluateOutputs(otherwise, env) : null;
      if (!trace) return { output };
      const condition: boolean | null = typeof result === 'boolean' ? result : null;
      return { output, trace: { kind: 'simpleRule', condition: rule.whenText, result: condition, ...(reason && { reason }) } };
    },
  };
}

/** Puts `value` at a dotted path (`risk.flags.velocity`), making the contexts on the way. */
function setPath(target: FeelContext, path: string, value: FeelValue) {
  const parts = path.split('.');
  let at = target;
  for (const part of parts.slice(0, -1)) {
    const next = Object.hasOwn(at, part) ? at[part] : undefined;
    if (!isContext(next ?? null)) setEntry(at, part, {});
    at = at[part] as FeelContext;
  }
  setEntry(at, parts[parts.length - 1]!, value);
}

function compileRuleSet(rule: PreparedRuleSet, resolve: ReferenceResolver | undefined): CompiledRule {
  type Entry = { id: string; ruleId: string; rule: CompiledRule } | { id: string; when: Evaluator; whenText: string; then: (readonly [string, Evaluator])[] };
  const entries = rule.entries.map((entry): Entry => {
    if ('ruleId' in entry) {
      if (!resolve)
        throw new EngineError(
          'rule_reference_not_found',
          `The entry "${entry.id}" refers to the rule "${entry.ruleId}", which was not given to compile this rule set.`,
        );
      return { id: entry.id, ruleId: entry.ruleId, rule: resolve(entry.ruleId, entry.version) };
    }
    return {
      id: entry.id,
      when: compileExpression(entry.when),
      whenText: entry.whenText,
      then: entry.then.map(([path, output]) => [path, compileOutput(output)] as const),
    };
  });
  const firstMatch = rule.strategy === 'firstMatch';
  return {
    parameters: rule.parameters,
    run(params, options) {
      const outputs: FeelContext = {};
      const traced: Extract<RuleTrace, { kind: 'ruleSet' }>['entries'] = [];
      const notes: string[] | null = options.trace ? [] : null;
      // A later entry sees the params and every output so far: a copy per entry, paid for (references can run a rule set many times over).
      const scope = (): FeelContext => {
        options.budget.spend(1 + Object.keys(params).length + Object.keys(outputs).length);
        return { ...params, ...outputs };
      };
      const referenceOptions = options.hits ? { ...options, hits: undefined } : options;
      for (let index = 0; index < entries.length; index++) {
        const entry = entries[index]!;
        if ('ruleId' in entry) {
          const { output, trace } = entry.rule.run(scope(), referenceOptions);
          const matched = output !== null && !(Array.isArray(output) && output.length === 0);
          if (isContext(output)) for (const name of Object.keys(output)) setEntry(outputs, name, output[name]!);
          else if (matched) setEntry(outputs, entry.id, output);
          if (matched) options.hits?.push(index);
          if (options.trace) traced.push({ id: entry.id, ruleId: entry.ruleId, matched, ...(trace && { trace }) });
          if (matched && firstMatch) break;
          continue;
        }
        notes?.splice(0);
        const env = rootEnv(scope(), { clock: options.clock, budget: options.budget, notes });
        const matched = entry.when(env) === true;
        const reason = notes?.join('; ');
        if (matched) {
          options.hits?.push(index);
          for (const [path, evaluate] of entry.then) setPath(outputs, path, evaluate(env));
        }
        if (options.trace) traced.push({ id: entry.id, condition: entry.whenText, matched, ...(reason && { reason }) });
        if (matched && firstMatch) break;
      }
      return { output: outputs, ...(options.trace && { trace: { kind: 'ruleSet' as const, entries: traced } }) };
    },
  };
}

function fromDecisionTable(table: CompiledDecisionTable, parameters: DeclaredInput[] | undefined): CompiledRule {
  return {
    parameters,
    run(params, { clock, budget, trace, hits }) {
      if (!trace) return { output: table.evaluate(params, { clock, budget, hits }) };
      const traced = table.trace(params, { clock, budget, hits });
      return { output: traced.output, trace: { kind: 'decisionTable', ...traced.trace } };
    },
  };
}

/**
 * Compiles a prepared rule. A rule set's references are looked up with
 * `resolve`, which the caller backs with rules it loaded (and checked for
 * cycles) beforehand.
 */
export function compileRule(rule: PreparedRule, resolve?: ReferenceResolver): CompiledRule {
  switch (rule.kind) {
    case 'decisionTable':
      return fromDecisionTable(compileDecisionTable(rule), rule.parameters);
    case 'simpleRule':
      return compileSimpleRule(rule);
    case 'ruleSet':
      return compileRuleSet(rule, resolve);
  }
}

/** Params as the rule sees them: declared inputs checked and converted (a missing one is null), the rest as given. */
export function convertParams(params: unknown, parameters: DeclaredInput[] | undefined): FeelContext {
  if (params === undefined || params === null) params = {};
  if (!isContext(params as FeelValue))
    throw new EngineError('invalid_params', 'The params must be a JSON object of input names and values.', [
      { field: 'params', message: 'must be a JSON object' },
    ]);
  const given = params as FeelContext;
  if (!parameters) return given;
  const problems: FieldProblem[] = [];
  // Copied only when a conversion changes a value (a date given as text), so that params that already fit cost nothing.
  let converted: FeelContext | undefined;
  for (const { name, type } of parameters) {
    const value = Object.hasOwn(given, name) ? given[name]! : null;
    const result = convertValue(value, type);
    if (!result.ok) problems.push({ field: `params.${name}`, message: result.problem });
    else if (result.value !== value) setEntry((converted ??= { ...given }), name, result.value);
  }
  if (problems.length)
    throw new EngineError('invalid_params', `The params do not fit the rule's inputs: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.`, problems);
  return converted ?? given;
}

/**
 * Runs a compiled rule on JSON params and gives its answer as JSON.
 *
 * @throws EngineError `invalid_params` naming each param of the wrong type; `evaluation_failed` when the hit policy cannot answer, or the evaluation spends its budget of steps (./feel/budget.ts)
 * @example
 * const rule = compileRule(prepareRule({ kind: 'simpleRule', definition: { when: 'total >= 50', then: { fee: 0 } } }).prepared);
 * evaluateRule(rule, { total: 80 }); // { output: { fee: 0 } }
 */
export function evaluateRule(rule: CompiledRule, params: unknown, options: RunOptions = {}): { output: unknown; trace?: RuleTrace; hits?: number[] } {
  const hits = options.hits ? [] : undefined;
  const { output, trace } = rule.run(convertParams(params, rule.parameters), {
    clock: new Clock(options.clock),
    budget: new Budget(),
    trace: options.trace,
    hits,
  });
  return { output: toPlain(output), ...(trace && { trace }), ...(hits && { hits }) };
}
