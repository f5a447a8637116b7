/**
 * Every FEEL text of a workflow step, with its path: the one walk that
 * validation parses, the runner compiles and the console's step rename
 * rewrites. Apart from ./definition.ts so that running a workflow builds
 * none of its schemas.
 */
import { plainName } from '../engine/feel/names.ts';
import type { WorkflowStep } from '../entities/workflow-definition.ts';

/** The path of a named entry under `base`, as problems and the prepared form name it: `steps[0].inputs.amount`, `steps[0].headers["X-Id"]`. */
export const fieldPath = (base: string, name: string): string => (plainName.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`);

/** One FEEL text of a step: its path, and for the entries of a name → FEEL map or a branch's cases, the group it belongs to and its key there. */
export interface StepExpression {
  path: string;
  text: string;
  /** The map's path (`steps[0].inputs`), or the cases' (`steps[3].cases`). */
  group?: string;
  /** The entry's name in its map, or the case's index. */
  key?: string;
}

/** What a walk of a step's FEEL makes of each text: the text it is to have. */
export type ExpressionVisit = (expression: StepExpression) => string;

const visitMap = (group: string, map: Record<string, string>, visit: ExpressionVisit): Record<string, string> =>
  Object.fromEntries(Object.entries(map).map(([key, text]) => [key, visit({ path: fieldPath(group, key), text, group, key })]));

/**
 * The step with each FEEL text, in order, replaced by what `visit` makes of
 * it: the one walk of a step's FEEL, which listing it (`stepExpressions`)
 * and rewriting it (renaming what it reads) share.
 */
export function rewriteStepExpressions<S extends WorkflowStep>(step: S, base: string, visit: ExpressionVisit): S;
export function rewriteStepExpressions(step: WorkflowStep, base: string, visit: ExpressionVisit): WorkflowStep {
  switch (step.kind) {
    case 'rule':
      return step.inputs === undefined ? step : { ...step, inputs: visitMap(`${base}.inputs`, step.inputs, visit) };
    case 'apiRequest': {
      const { query, headers, body } = step.request;
      const at = `${base}.request`;
      return {
        ...step,
        request: {
          ...step.request,
          query: visitMap(`${at}.query`, query, visit),
          headers: visitMap(`${at}.headers`, headers, visit),
          ...(body !== undefined && { body: visit({ path: `${at}.body`, text: body }) }),
        },
      };
    }
    case 'branch':
      return {
        ...step,
        cases: step.cases.map((c, j) => ({ ...c, when: visit({ path: `${base}.cases[${j}].when`, text: c.when, group: `${base}.cases`, key: String(j) }) })),
      };
    case 'transform':
      return { ...step, set: visitMap(`${base}.set`, step.set, visit) };
    case 'end':
      return { ...step, output: visitMap(`${base}.output`, step.output, visit) };
  }
}

/** Every FEEL text of a step, with its path: the one list that validation parses and the runner compiles. */
export function stepExpressions(step: WorkflowStep, base: string): StepExpression[] {
  const found: StepExpression[] = [];
  rewriteStepExpressions(step, base, (expression) => {
    found.push(expression);
    return expression.text;
  });
  return found;
}
