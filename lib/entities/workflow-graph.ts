/**
 * The shape of a workflow's graph, checked without FEEL: step ids unique, a
 * start and next steps that exist, every step reachable from the start, no
 * cycles; and, for the FEEL checks of `./validate.ts`, which names a run has
 * certainly set when it reaches each step. Pure, and without the parser, so
 * that the definition schema itself refuses a broken graph wherever a
 * workflow is read (save, import, pull).
 */
import type { WorkflowDefinition, WorkflowStep } from './workflow-definition.ts';

/** The steps a step may go to next, each with the path of the field that names it. */
export function successors(step: WorkflowStep): { next: string; field: string }[] {
  switch (step.kind) {
    case 'branch':
      return [
        ...step.cases.map((c, j) => ({ next: c.next, field: `cases[${j}].next` })),
        ...(step.otherwise === undefined ? [] : [{ next: step.otherwise, field: 'otherwise' }]),
      ];
    case 'end':
      return [];
    default:
      return [{ next: step.next, field: 'next' }];
  }
}

/** Whether a step's result joins the context under its id (branches and ends add nothing). */
export const producesValue = (step: WorkflowStep): boolean => step.kind !== 'branch' && step.kind !== 'end';

type Add = (path: string, message: string) => void;

export interface Graph {
  index: Map<string, number>;
  /** Successor indexes of each step; unknown next steps left out. */
  edges: number[][];
  /** Whether each step is reachable from the start. */
  live: boolean[];
}

function linkSteps(def: WorkflowDefinition, add: Add): Omit<Graph, 'live'> {
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
function reachable(graph: Omit<Graph, 'live'>, start: number | undefined, size: number): boolean[] {
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
function checkCycles(def: WorkflowDefinition, graph: Omit<Graph, 'live'>, add: Add) {
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
export function availableNames(def: WorkflowDefinition, graph: Graph): (Set<string> | undefined)[] {
  const { live } = graph;
  const start = graph.index.get(def.start);
  const inputs = new Set(def.inputs.map((i) => i.name));
  const all = new Set([...inputs, ...def.steps.map((s) => s.id)]);
  const before: (Set<string> | undefined)[] = def.steps.map((_, i) => (live[i] ? (i === start ? inputs : all) : undefined));
  const after = (i: number) => (producesValue(def.steps[i]!) ? new Set([...before[i]!, def.steps[i]!.id]) : before[i]!);
  const preds = def.steps.map(() => [] as number[]);
  graph.edges.forEach((tos, from) => live[from] && tos.forEach((to) => preds[to]!.push(from)));
  for (let changed = true; changed;) {
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

/** Links the steps and checks the graph, reporting each problem by its path (`steps[1].next`). */
export function analyseGraph(def: WorkflowDefinition, add: Add): Graph {
  const linked = linkSteps(def, add);
  const live = reachable(linked, linked.index.get(def.start), def.steps.length);
  if (linked.index.has(def.start))
    live.forEach((yes, i) => yes || add(`steps[${i}]`, `"${def.steps[i]!.id}" is not reachable from the start step "${def.start}"`));
  checkCycles(def, linked, add);
  return { ...linked, live };
}

/** Every problem of the graph, with its path as segments (`['steps', 1, 'next']`), as a schema reports it. */
export function graphProblems(def: WorkflowDefinition): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  analyseGraph(def, (path, message) =>
    problems.push({
      path: path
        .split(/[.[\]]+/)
        .filter(Boolean)
        .map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      message,
    }),
  );
  return problems;
}
