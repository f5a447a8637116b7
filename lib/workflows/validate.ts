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
import { FeelSyntaxError, parseExpression } from '../engine/feel/parse.ts';
import { producesValue, stepExpressions, successors, type WorkflowDefinition } from './definition.ts';
import { freeNames } from '../engine/feel/names.ts';

export interface WorkflowProblem {
  /** From the definition: `steps[2].cases[0].when`. */
  path: string;
  message: string;
}

/** What the caller knows of the workspace; a lookup left out is not checked. */
export interface WorkflowLookups {
  knownRule?: (id: string) => boolean;
  knownIntegration?: (id: string) => boolean;
  knownCredential?: (id: string) => boolean;
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

interface Graph {
  index: Map<string, number>;
  /** Successor indexes of each step; unknown next steps left out. */
  edges: number[][];
}

function checkGraph(def: WorkflowDefinition, add: (path: string, message: string) => void): Graph {
  const index = new Map<string, number>();
  def.steps.forEach((s, i) => {
    if (index.has(s.id)) add(`steps[${i}].id`, `"${s.id}" is the id of steps[${index.get(s.id)}] too`);
    else index.set(s.id, i);
  });
  if (!index.has(def.start)) add('start', `no step has the id "${def.start}"`);
  const edges = def.steps.map((s, i) =>
    successors(s).flatMap(({ next, field }) => {
      const to = index.get(next);
      if (to === undefined) add(`steps[${i}].${field}`, `no step has the id "${next}"`);
      return to === undefined ? [] : [to];
    }),
  );
  return { index, edges };
}

/** Steps reachable from `start`, as a flag per step. */
function reachable(graph: Graph, start: number | undefined, size: number): boolean[] {
  const seen = new Array<boolean>(size).fill(false);
  const stack = start === undefined ? [] : [start];
  while (stack.length) {
    const at = stack.pop()!;
    if (seen[at]) continue;
    seen[at] = true;
    stack.push(...graph.edges[at]!);
  }
  return seen;
}

/** Each cycle once, at the edge that closes it in a depth-first walk from every step. */
function checkCycles(def: WorkflowDefinition, graph: Graph, add: (path: string, message: string) => void) {
  const state = new Array<0 | 1 | 2>(def.steps.length).fill(0);
  const trail: number[] = [];
  const visit = (at: number) => {
    state[at] = 1;
    trail.push(at);
    for (const { next, field } of successors(def.steps[at]!)) {
      const to = graph.index.get(next);
      if (to === undefined) continue;
      if (state[to] === 1) {
        const cycle = [...trail.slice(trail.indexOf(to)), to].map((i) => def.steps[i]!.id);
        add(`steps[${at}].${field}`, `closes a cycle: ${cycle.join(' → ')}`);
      } else if (state[to] === 0) visit(to);
    }
    trail.pop();
    state[at] = 2;
  };
  const start = graph.index.get(def.start);
  if (start !== undefined) visit(start);
  def.steps.forEach((_, i) => state[i] === 0 && visit(i));
}

/**
 * The names certainly set when each reachable step starts: the inputs at
 * start; elsewhere, what every predecessor leaves (its own names and its id
 * when it produces a value). Solved by iteration from "everything", so that
 * it holds with cycles too.
 */
function availableNames(def: WorkflowDefinition, graph: Graph, live: boolean[]): (Set<string> | undefined)[] {
  const start = graph.index.get(def.start);
  const inputs = new Set(def.inputs.map((i) => i.name));
  const all = new Set([...inputs, ...def.steps.map((s) => s.id)]);
  const before: (Set<string> | undefined)[] = def.steps.map((_, i) => (live[i] ? (i === start ? inputs : all) : undefined));
  const after = (i: number) => (producesValue(def.steps[i]!) ? new Set([...before[i]!, def.steps[i]!.id]) : before[i]!);
  const preds = def.steps.map(() => [] as number[]);
  graph.edges.forEach((tos, from) => live[from] && tos.forEach((to) => preds[to]!.push(from)));
  for (let changed = true; changed; ) {
    changed = false;
    def.steps.forEach((_, i) => {
      if (!live[i] || i === start) return;
      const outs = preds[i]!.map(after);
      const meet = new Set([...outs[0]!].filter((name) => outs.every((o) => o.has(name))));
      if (meet.size !== before[i]!.size) {
        before[i] = meet;
        changed = true;
      }
    });
  }
  return before;
}

function unavailable(name: string, def: WorkflowDefinition, graph: Graph, live: boolean[]): string {
  const at = graph.index.get(name);
  if (at === undefined) return `"${name}" is neither a workflow input nor a step id`;
  if (!producesValue(def.steps[at]!)) return `"${name}" is a ${def.steps[at]!.kind} step, which gives no value`;
  if (!live[at]) return `"${name}" is a step that never runs`;
  return `"${name}" is not set on every path to this step`;
}

function syntax(path: string, error: unknown, add: (path: string, message: string) => void) {
  if (!(error instanceof FeelSyntaxError)) throw error;
  for (const p of error.problems) add(path, `${p.message} at line ${p.line}, column ${p.column}`);
}

/**
 * Checks a workflow definition whole.
 *
 * @example
 * const { problems, prepared } = validateWorkflow(workflowDefinitionSchema.parse(body), { knownRule: (id) => rules.has(id) });
 * if (problems.length) refuse(problems);
 * const workflow = compileWorkflow(prepared);
 */
export function validateWorkflow(def: WorkflowDefinition, lookups: WorkflowLookups = {}): WorkflowCheck {
  const problems: WorkflowProblem[] = [];
  const add = (path: string, message: string) => void problems.push({ path, message });

  const inputNames = new Set<string>();
  def.inputs.forEach((input, i) => {
    if (inputNames.has(input.name)) add(`inputs[${i}].name`, `"${input.name}" is declared twice`);
    inputNames.add(input.name);
  });

  const graph = checkGraph(def, add);
  def.inputs.forEach((input, i) => graph.index.has(input.name) && add(`inputs[${i}].name`, `"${input.name}" is also a step id, whose result would hide it`));
  const live = reachable(graph, graph.index.get(def.start), def.steps.length);
  if (graph.index.has(def.start)) live.forEach((yes, i) => yes || add(`steps[${i}]`, `"${def.steps[i]!.id}" is not reachable from the start step "${def.start}"`));
  checkCycles(def, graph, add);

  const available = availableNames(def, graph, live);
  // The parser needs every name that may appear (ids may hold "-" or "."); availability is checked after.
  const names = [...inputNames, ...graph.index.keys()];
  const expressions = new Map<string, Expr>();
  def.steps.forEach((step, i) => {
    const base = `steps[${i}]`;
    if (step.kind === 'rule' && lookups.knownRule && !lookups.knownRule(step.ruleId)) add(`${base}.ruleId`, `no rule "${step.ruleId}" in this branch`);
    if (step.kind === 'apiRequest') {
      if (step.integrationId !== undefined && lookups.knownIntegration && !lookups.knownIntegration(step.integrationId)) add(`${base}.integrationId`, `no integration "${step.integrationId}"`);
      if (step.credentialId !== undefined && lookups.knownCredential && !lookups.knownCredential(step.credentialId)) add(`${base}.credentialId`, `no credential "${step.credentialId}"`);
    }
    for (const { path, text } of stepExpressions(step, base)) {
      let expr: Expr;
      try {
        expr = parseExpression(text, names);
      } catch (error) {
        syntax(path, error, add);
        continue;
      }
      expressions.set(path, expr);
      const here = available[i];
      if (here) for (const name of freeNames(expr)) if (!here.has(name)) add(path, `reads ${unavailable(name, def, graph, live)}`);
    }
  });
  return { problems, prepared: { definition: def, expressions } };
}
