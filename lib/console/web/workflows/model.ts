/**
 * The workflow editor's pure part: the graph laid out in layers from
 * `start`, the paths the API names problems by, and the steps a person adds,
 * renames or turns into another kind (with every reference to them kept).
 * Kept apart from the components so that it can be read (and reasoned about)
 * without the page.
 */
import { entityIdPattern } from '../../../vocabulary/kinds.ts';
import type { StepKind, StepOf, WorkflowDefinition, WorkflowStep } from '../../../entities/workflow-definition.ts';
import { successors } from '../../../entities/workflow-graph.ts';
import { rewriteStepExpressions } from '../../../workflows/step-expressions.ts';

export const kindNames: Record<StepKind, string> = {
  rule: 'rule',
  apiRequest: 'API request',
  branch: 'branch',
  transform: 'transform',
  end: 'end',
};

/** The path the API gives a step's problems under: `definition.steps[1]`. */
export const stepPath = (index: number) => `definition.steps[${index}]`;

/** Whether any problem is about the step at `index` (or something inside it). */
export const stepHasProblem = (problems: Map<string, string>, index: number) => {
  const base = stepPath(index);
  return [...problems.keys()].some((path) => path === base || path.startsWith(`${base}.`) || path.startsWith(`${base}[`));
};

/** What a node says under its id: the kind and the one thing that tells steps of that kind apart. */
export function stepSummary(step: WorkflowStep): string {
  switch (step.kind) {
    case 'rule':
      return `rule · ${step.ruleId}${step.version ? ` ${step.version}` : ''}`;
    case 'apiRequest':
      return `API · ${step.request.method} ${step.request.url ?? step.request.path ?? ''}`;
    case 'branch':
      return `branch · ${step.cases.length} case${step.cases.length === 1 ? '' : 's'}`;
    case 'transform':
      return `transform · ${Object.keys(step.set).length} value(s)`;
    case 'end':
      return `end · ${Object.keys(step.output).length} output(s)`;
  }
}

export interface Edge {
  from: number;
  to: number;
  /** A branch's edges: the case's condition, or "otherwise". */
  label?: string;
  /** The full text the label may shorten. */
  title?: string;
}

export function edgesOf(definition: WorkflowDefinition): Edge[] {
  const index = new Map(definition.steps.map((step, i) => [step.id, i]));
  return definition.steps.flatMap((step, from) =>
    successors(step).flatMap(({ next, field }) => {
      const to = index.get(next);
      if (to === undefined) return [];
      if (step.kind !== 'branch') return [{ from, to }];
      const j = /^cases\[(\d+)\]/.exec(field)?.[1];
      const when = j === undefined ? undefined : step.cases[Number(j)]?.when;
      return [{ from, to, label: when === undefined ? 'otherwise' : when, title: when === undefined ? 'otherwise' : `case ${Number(j) + 1}: ${when}` }];
    }),
  );
}

/** A node's size, the spaces around nodes (in the graph's units), and how many characters of its texts and of an edge's label fit it. */
export interface NodeMetrics {
  width: number;
  height: number;
  gapX: number;
  gapY: number;
  margin: number;
  idChars: number;
  summaryChars: number;
  labelChars: number;
}

export const regularNode: NodeMetrics = { width: 176, height: 52, gapX: 28, gapY: 72, margin: 16, idChars: 22, summaryChars: 27, labelChars: 24 };
/** Narrower nodes, closer together, for a column too narrow for the regular ones (a phone's): three abreast fit in 370 units. */
export const compactNode: NodeMetrics = { width: 112, height: 52, gapX: 10, gapY: 64, margin: 6, idChars: 13, summaryChars: 15, labelChars: 15 };

export interface Placed {
  index: number;
  layer: number;
  x: number;
  y: number;
}

export interface Layout {
  node: NodeMetrics;
  placed: Placed[];
  edges: Edge[];
  width: number;
  height: number;
}

/**
 * Layers by the longest path from `start`, so that every edge points down;
 * an edge that closes a cycle (refused on save, but possible in a draft being
 * edited) is left out of the layering and drawn as it is. Steps not reachable
 * go in a last layer, where a person sees them to link them. Within a layer,
 * steps sit under the mean position of the steps that lead to them.
 */
export function layout(definition: WorkflowDefinition, node: NodeMetrics): Layout {
  const edges = edgesOf(definition);
  const count = definition.steps.length;
  const out = Array.from({ length: count }, () => [] as number[]);
  for (const edge of edges) out[edge.from]!.push(edge.to);
  const start = definition.steps.findIndex((step) => step.id === definition.start);

  const state = new Array<0 | 1 | 2>(count).fill(0);
  const postorder: number[] = [];
  const back = new Set<string>();
  const visit = (at: number) => {
    state[at] = 1;
    // Children in reverse, so that the reversed postorder lists them in their order (a branch's cases first to last).
    for (const to of [...out[at]!].reverse()) {
      if (state[to] === 1) back.add(`${at}>${to}`);
      else if (state[to] === 0) visit(to);
    }
    state[at] = 2;
    postorder.push(at);
  };
  if (start >= 0) visit(start);
  const order = postorder.reverse();
  const layer = new Array<number>(count).fill(-1);
  if (start >= 0) layer[start] = 0;
  for (const at of order) for (const to of out[at]!) if (!back.has(`${at}>${to}`)) layer[to] = Math.max(layer[to]!, layer[at]! + 1);
  const deepest = Math.max(0, ...layer);
  const unreachable = layer.some((l) => l < 0) ? deepest + 1 : deepest;
  for (let i = 0; i < count; i++) if (layer[i]! < 0) layer[i] = unreachable;

  const rows: number[][] = Array.from({ length: unreachable + 1 }, () => []);
  const seen = [...order, ...definition.steps.map((_, i) => i).filter((i) => !order.includes(i))];
  for (const i of seen) rows[layer[i]!]!.push(i);

  const widest = Math.max(1, ...rows.map((row) => row.length));
  const width = node.margin * 2 + widest * node.width + (widest - 1) * node.gapX;
  const x = new Array<number>(count).fill(0);
  const placed: Placed[] = [];
  rows.forEach((row, l) => {
    const wanted = (i: number) => {
      const from = edges.filter((e) => e.to === i && layer[e.from]! < l).map((e) => x[e.from]!);
      return from.length ? from.reduce((a, b) => a + b, 0) / from.length : 0;
    };
    const sorted = l === 0 ? row : [...row].sort((a, b) => wanted(a) - wanted(b));
    const rowWidth = sorted.length * node.width + (sorted.length - 1) * node.gapX;
    sorted.forEach((i, k) => {
      x[i] = (width - rowWidth) / 2 + k * (node.width + node.gapX);
      placed.push({ index: i, layer: l, x: x[i]!, y: node.margin + l * (node.height + node.gapY) });
    });
  });
  return { node, placed, edges, width, height: node.margin * 2 + rows.length * node.height + (rows.length - 1) * node.gapY };
}

/** What a new step of a kind starts as, going on to `next` (the step a person added it before). */
export function newStep(kind: StepKind, id: string, next: string): WorkflowStep {
  switch (kind) {
    case 'rule':
      return { id, kind, ruleId: '', next } satisfies StepOf<'rule'>;
    case 'apiRequest':
      return {
        id,
        kind,
        request: { method: 'GET', url: 'https://', query: {}, headers: {} },
        timeoutMs: 10_000,
        retries: 2,
        acceptStatuses: [],
        next,
      } satisfies StepOf<'apiRequest'>;
    case 'branch':
      return { id, kind, cases: [{ when: 'true', next }] } satisfies StepOf<'branch'>;
    case 'transform':
      return { id, kind, set: {}, next } satisfies StepOf<'transform'>;
    case 'end':
      return { id, kind, output: {} } satisfies StepOf<'end'>;
  }
}

/**
 * The definition with a new step after the one at `after`: a step with a
 * single `next` hands it to the new step and points to it; otherwise (a
 * branch, an end) the new step is added unlinked, going to the first end.
 */
export function insertStep(definition: WorkflowDefinition, after: number | undefined, kind: StepKind, id: string): WorkflowDefinition {
  const before = after === undefined ? undefined : definition.steps[after];
  const firstEnd = definition.steps.find((step) => step.kind === 'end')?.id ?? id;
  if (before && 'next' in before) {
    const added = newStep(kind, id, before.next);
    const steps = definition.steps.map((step, i) => (i === after ? { ...before, next: id } : step));
    steps.splice(after! + 1, 0, added);
    return { ...definition, steps };
  }
  return { ...definition, steps: [...definition.steps, newStep(kind, id, firstEnd)] };
}

/** The definition without the step at `index`; steps that went to it are left pointing at its id, for the save to name. */
export const removeStep = (definition: WorkflowDefinition, index: number): WorkflowDefinition => ({
  ...definition,
  steps: definition.steps.filter((_, i) => i !== index),
});

/** Why `id` cannot be the id of the step at `index`, or undefined when it can: said in place, before anything is saved. */
export function stepIdProblem(definition: WorkflowDefinition, index: number, id: string): string | undefined {
  if (!id) return 'a step needs an id';
  if (!entityIdPattern.test(id)) return 'letters, digits, ".", "_" or "-", starting with a letter or digit, at most 128 characters';
  if (definition.steps.some((step, i) => i !== index && step.id === id)) return 'another step has this id';
  return undefined;
}

/** Rewrites one FEEL text so that it reads `to` where it read `from` (`renameReads` of lib/engine/feel/rename.ts, which the page loads on demand). */
export type RenameReads = (text: string, from: string, to: string, names: readonly string[]) => string;

/**
 * The definition with the step at `index` renamed to `id`, and every
 * reference to it (start, next, a branch's cases and otherwise) following, so
 * that the graph stays connected. With `renameReads`, the FEEL that reads the
 * step's result follows too; without it (or where a text does not parse),
 * the text is left for the save to name.
 */
export function renameStep(definition: WorkflowDefinition, index: number, id: string, renameReads?: RenameReads): WorkflowDefinition {
  const old = definition.steps[index]!.id;
  const to = (ref: string) => (ref === old ? id : ref);
  const names = [...definition.inputs.map((input) => input.name), ...definition.steps.map((step) => step.id)];
  const steps = definition.steps.map((step, i): WorkflowStep => {
    const renamed = i === index ? { ...step, id } : step;
    const reading = renameReads ? rewriteStepExpressions(renamed, stepPath(i), ({ text }) => renameReads(text, old, id, names)) : renamed;
    switch (reading.kind) {
      case 'branch':
        return {
          ...reading,
          cases: reading.cases.map((c) => ({ ...c, next: to(c.next) })),
          ...(reading.otherwise !== undefined && { otherwise: to(reading.otherwise) }),
        };
      case 'end':
        return reading;
      default:
        return { ...reading, next: to(reading.next) };
    }
  });
  return { ...definition, start: to(definition.start), steps };
}

/**
 * The definition with the step at `index` replaced by a new step of `kind`,
 * keeping its id (so references to it hold) and where it went on to: its
 * `next`, a branch's first way out, or for an end the first other end (or
 * other step). Its other fields are lost, which the page asks about first.
 */
export function changeKind(definition: WorkflowDefinition, index: number, kind: StepKind): WorkflowDefinition {
  const step = definition.steps[index]!;
  const others = definition.steps.filter((_, i) => i !== index);
  const next = successors(step)[0]?.next ?? others.find((s) => s.kind === 'end')?.id ?? others[0]?.id ?? '';
  return { ...definition, steps: definition.steps.map((s, i) => (i === index ? newStep(kind, step.id, next) : s)) };
}

/** The list with the item at `from` moved to `to` (cases, inputs). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const moved = [...items];
  const [item] = moved.splice(from, 1);
  moved.splice(to, 0, item!);
  return moved;
}

/** Params to start from: each declared input with an empty value of its type. */
export function paramsSkeleton(definition: WorkflowDefinition): Record<string, unknown> {
  const empty: Record<string, unknown> = { number: 0, string: '', boolean: false, list: [], array: [], context: {}, object: {} };
  return Object.fromEntries(definition.inputs.map((input) => [input.name, empty[input.type] ?? null]));
}

/** The context a run holds when it reaches a step: its params, and each earlier step's result under the step's id. */
export function contextOfRun(
  params: Record<string, unknown>,
  steps: { id: string; status: string; output?: unknown }[],
  before: string,
): Record<string, unknown> {
  const context: Record<string, unknown> = { ...params };
  for (const step of steps) {
    if (step.id === before) break;
    if (step.status === 'succeeded' && step.output !== undefined) context[step.id] = step.output;
  }
  return context;
}
