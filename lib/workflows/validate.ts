/**
 * Save-time checks of a workflow definition (one that the schema of
 * `./definition.ts` accepted): every problem at once, each with its path, so
 * an author fixes them in one pass. The graph (a start that exists, next steps
 * that exist, no cycles, every step reachable, only end steps finish), the
 * FEEL (syntax, with positions) and the names each expression reads: a name is
 * available at a step when the run has certainly set it there, being a
 * declared input or the id of a step that every path from start to this step
 * passes through ("definitely assigned", a forward data-flow over the graph).
 * Whether rules, integrations and credentials exist is asked of the caller
 * through lookups, so this module stays pure. The result carries the parsed
 * FEEL, so the runner compiles without the parser.
 */
import type { Expr } from '../engine/feel/ast.ts';
import { FeelSyntaxError, parseBudget, parseExpression } from '../engine/feel/parse.ts';
import type { WorkflowDefinition } from '../entities/workflow-definition.ts';
import { stepExpressions } from './step-expressions.ts';
import { analyseGraph, availableNames, producesValue, type Graph } from '../entities/workflow-graph.ts';
import { freeNames } from '../engine/feel/names.ts';

export interface WorkflowProblem {
  /** From the definition: `steps[2].cases[0].when`. */
  path: string;
  message: string;
}

/** What the caller knows of the workspace: each lookup says what is wrong with a reference, if anything; one left out is not checked. */
export interface WorkflowLookups {
  rule?: (id: string, version: string | undefined) => string | undefined;
  integration?: (id: string) => string | undefined;
  credential?: (id: string) => string | undefined;
}

/** A definition with its FEEL parsed, keyed by path: what `./runner.ts` compiles. */
export interface PreparedWorkflow {
  definition: WorkflowDefinition;
  expressions: ReadonlyMap<string, Expr>;
}

export interface WorkflowCheck {
  /** None: the workflow can be saved and run. */
  problems: WorkflowProblem[];
  prepared: PreparedWorkflow;
}

function unavailable(name: string, def: WorkflowDefinition, graph: Graph): string {
  const at = graph.index.get(name);
  if (at === undefined) return `"${name}", which is neither a workflow input nor a step id`;
  if (!producesValue(def.steps[at]!)) return `"${name}", a ${def.steps[at]!.kind} step, which gives no value`;
  if (!graph.live[at]) return `"${name}", a step that never runs`;
  return `"${name}", which is not set on every path to this step`;
}

function syntax(path: string, error: unknown, add: (path: string, message: string) => void) {
  if (!(error instanceof FeelSyntaxError)) throw error;
  for (const p of error.problems) add(path, `${p.message} at line ${p.line}, column ${p.column}`);
}

/**
 * Checks a workflow definition whole.
 *
 * @example
 * const { problems, prepared } = validateWorkflow(workflowDefinitionSchema.parse(body), { rule: (id) => (rules.has(id) ? undefined : `no rule "${id}"`) });
 * if (problems.length) refuse(problems);
 * const workflow = compileWorkflow(prepared);
 */
export function validateWorkflow(def: WorkflowDefinition, lookups: WorkflowLookups = {}, options: { graphProblems?: boolean } = {}): WorkflowCheck {
  const problems: WorkflowProblem[] = [];
  const add = (path: string, message: string) => void problems.push({ path, message });

  const inputNames = new Set<string>();
  def.inputs.forEach((input, i) => {
    if (inputNames.has(input.name)) add(`inputs[${i}].name`, `"${input.name}" is declared twice`);
    inputNames.add(input.name);
  });

  // The schema reports the graph's own problems already when it is given them to parse (`workflowDefinitionSchema`).
  const graph = analyseGraph(def, options.graphProblems === false ? () => {} : add);
  def.inputs.forEach((input, i) => graph.index.has(input.name) && add(`inputs[${i}].name`, `"${input.name}" is also a step id, whose result would hide it`));

  const available = availableNames(def, graph);
  // The parser needs every name that may appear (ids may hold "-" or "."); availability is checked after.
  const names = [...inputNames, ...graph.index.keys()];
  const expressions = new Map<string, Expr>();
  // Shared by every text, as for rules: a definition full of broken FEEL reports each text's first problem once it is spent, instead of recovering for seconds.
  const budget = parseBudget();
  def.steps.forEach((step, i) => {
    const base = `steps[${i}]`;
    const refer = (field: string, problem: string | undefined) => problem && add(`${base}.${field}`, problem);
    if (step.kind === 'rule') refer('ruleId', lookups.rule?.(step.ruleId, step.version));
    if (step.kind === 'apiRequest') {
      if (step.request.integrationId !== undefined) refer('request.integrationId', lookups.integration?.(step.request.integrationId));
      if (step.credentialId !== undefined) refer('credentialId', lookups.credential?.(step.credentialId));
    }
    for (const { path, text } of stepExpressions(step, base)) {
      let expr: Expr;
      try {
        expr = parseExpression(text, names, budget);
      } catch (error) {
        syntax(path, error, add);
        continue;
      }
      expressions.set(path, expr);
      const here = available[i];
      if (here) for (const name of freeNames(expr)) if (!here.has(name)) add(path, `reads ${unavailable(name, def, graph)}`);
    }
  });
  return { problems, prepared: { definition: def, expressions } };
}
