/**
 * A workflow's steps as a graph: an SVG drawn here (no library), in layers
 * from `start`, edges with arrows and a branch's edges labelled by their
 * case. Each node is a button that selects its step; after a run, nodes show
 * the step's status. The same steps as a list follow it, for screen readers
 * and for anyone who reads a list more easily than a drawing.
 */
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { WorkflowDefinition } from '../../../entities/workflow-definition.ts';
import { compactNode, layout, regularNode, stepHasProblem, stepSummary, type Edge, type NodeMetrics, type Placed } from './model.ts';

export interface GraphProps {
  definition: WorkflowDefinition;
  selected: number | undefined;
  onSelect(index: number): void;
  /** The last run's status of each step, by id. */
  statuses: Map<string, string>;
  problems: Map<string, string>;
}

/** The drawing shrinks to fit its column, but to no less than this share of its size, so that its text stays readable (the frame scrolls then). */
const smallestScale = 0.75;

const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);
/** A condition's end tells cases apart best (`… = "approve"`), so a long one keeps its end. */
const clipStart = (text: string, length: number) => (text.length > length ? `…${text.slice(text.length - length + 1)}` : text);

/** An element's content width, followed as it changes; undefined until it is first measured. */
function useWidth(element: RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const observer = new ResizeObserver(([entry]) => setWidth(entry!.contentRect.width));
    observer.observe(element.current!);
    return () => observer.disconnect();
  }, []);
  return width;
}

export function StepGraph(props: GraphProps) {
  const frame = useRef<HTMLDivElement>(null);
  const frameWidth = useWidth(frame);
  const regular = layout(props.definition, regularNode);
  // A column too narrow for the regular drawing even shrunk (a phone's) gets narrower nodes, so that the graph fits it and its text stays readable.
  const { node, placed, edges, width, height } =
    frameWidth !== undefined && regular.width * smallestScale > frameWidth ? layout(props.definition, compactNode) : regular;
  const at = new Map(placed.map((p) => [p.index, p]));
  const start = placed.find((p) => props.definition.steps[p.index]!.id === props.definition.start);
  return (
    <div class="graph-frame" ref={frame}>
      <svg
        class="step-graph"
        viewBox={`0 0 ${width} ${height}`}
        // The style sheet sizes the drawing between these two widths (CSSOM, which the page's policy allows, unlike a style attribute).
        style={{ '--graph-width': `${width}px`, '--graph-smallest-width': `${Math.round(width * smallestScale)}px` }}
        role="group"
        aria-label="Steps of the workflow as a graph"
      >
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
          </marker>
        </defs>
        {edges.map((edge) => (
          <EdgeLine key={`${edge.from}-${edge.to}-${edge.label ?? ''}`} edge={edge} from={at.get(edge.from)!} to={at.get(edge.to)!} node={node} />
        ))}
        {start && (
          <path
            class="start-arrow"
            d={`M ${start.x + node.width / 2} ${start.y - node.margin + 2} L ${start.x + node.width / 2} ${start.y}`}
            marker-end="url(#arrow)"
            aria-hidden="true"
          />
        )}
        {placed.map((p) => (
          <StepNode key={p.index} placed={p} node={node} props={props} />
        ))}
      </svg>
    </div>
  );
}

function EdgeLine({ edge, from, to, node }: { edge: Edge; from: Placed; to: Placed; node: NodeMetrics }) {
  const sx = from.x + node.width / 2;
  const sy = from.y + node.height;
  const tx = to.x + node.width / 2;
  const ty = to.y;
  const down = to.layer > from.layer;
  // An edge that does not go down (a cycle being edited) loops round the right of both nodes.
  const d = down
    ? `M ${sx} ${sy} C ${sx} ${sy + node.gapY / 2}, ${tx} ${ty - node.gapY / 2}, ${tx} ${ty}`
    : `M ${from.x + node.width} ${from.y + node.height / 2} C ${from.x + node.width + 60} ${from.y}, ${to.x + node.width + 60} ${to.y + node.height}, ${to.x + node.width} ${to.y + node.height / 2}`;
  const label = edge.label && clipStart(edge.label, node.labelChars);
  // Just above the target, where a branch's edges have parted, so that their labels do not meet.
  const lx = down ? tx : Math.max(from.x, to.x) + node.width + 30;
  const ly = down ? ty - 16 : (from.y + to.y + node.height) / 2;
  // The label's monospaced text is 0.6 of its font's size (--text-2xs, 11.25 px) per character, with a margin each side.
  const labelWidth = label ? label.length * 6.75 + 10 : 0;
  return (
    <g class={`edge${edge.label ? ' branch-edge' : ''}`} aria-hidden="true">
      <path d={d} marker-end="url(#arrow)" />
      {label && (
        <g class="edge-label">
          <title>{edge.title}</title>
          <rect x={lx - labelWidth / 2} y={ly - 9} width={labelWidth} height={18} rx={4} />
          <text x={lx} y={ly + 4} text-anchor="middle">
            {label}
          </text>
        </g>
      )}
    </g>
  );
}

function StepNode({ placed, node, props }: { placed: Placed; node: NodeMetrics; props: GraphProps }) {
  const step = props.definition.steps[placed.index]!;
  const selected = props.selected === placed.index;
  const status = props.statuses.get(step.id);
  const problem = stepHasProblem(props.problems, placed.index);
  const isStart = step.id === props.definition.start;
  const title = clip(step.id, node.idChars);
  const summary = clip(stepSummary(step), node.summaryChars);
  // The name starts with the text the node shows, so that speech input can name it as seen.
  const name = `${title} ${summary}${isStart ? ', start' : ''}${status ? `, last run ${status}` : ''}${problem ? ', has problems' : ''}`;
  const select = () => props.onSelect(placed.index);
  return (
    <g
      class={`node ${step.kind}${selected ? ' selected' : ''}${status ? ` ${status}` : ''}${problem ? ' has-problem' : ''}`}
      transform={`translate(${placed.x} ${placed.y})`}
      role="button"
      // Lower case: in SVG, attributes keep their case, and only `tabindex` makes the node focusable.
      tabindex={0}
      aria-label={name}
      aria-pressed={selected}
      aria-controls="step-editor"
      data-step={step.id}
      onClick={select}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          select();
        }
      }}
    >
      <rect width={node.width} height={node.height} rx={step.kind === 'branch' ? 18 : 6} />
      {/* One text, the space between its lines kept, so that the node's text reads as its name begins. */}
      <text>
        <tspan x={10} y={21} class="node-id">
          {title}
        </tspan>{' '}
        <tspan x={10} y={40} class="node-kind">
          {summary}
        </tspan>
      </text>
    </g>
  );
}

/** The same steps as a list: each with where it goes next, a branch with its cases. */
export function StepList(props: GraphProps) {
  const ids = props.definition.steps;
  return (
    <details class="step-list">
      <summary>Steps as a list</summary>
      <ol aria-label="Steps of the workflow">
        {ids.map((step, index) => {
          const status = props.statuses.get(step.id);
          return (
            <li key={step.id + index}>
              <button type="button" class="quiet" aria-pressed={props.selected === index} onClick={() => props.onSelect(index)}>
                {step.id}
              </button>{' '}
              {step.id === props.definition.start && '(start) '}
              {stepSummary(step)}
              {status && (
                <>
                  {' '}
                  <span class={`badge ${status}`}>{status}</span>
                </>
              )}
              {stepHasProblem(props.problems, index) && <span class="problem"> has problems</span>}
              <ul>
                {step.kind === 'branch' ? (
                  <>
                    {step.cases.map((c, j) => (
                      <li key={j}>
                        when <code>{c.when}</code> → {c.next}
                      </li>
                    ))}
                    <li>otherwise → {step.otherwise ?? 'the run fails'}</li>
                  </>
                ) : step.kind === 'end' ? (
                  <li>ends the run</li>
                ) : (
                  <li>next → {step.next}</li>
                )}
              </ul>
            </li>
          );
        })}
      </ol>
    </details>
  );
}
