/**
 * Every FEEL text of a workflow step, with its path: the one list that
 * validation parses and the runner compiles. Apart from ./definition.ts so
 * that running a workflow builds none of its schemas.
 */
import { plainName } from '../engine/feel/names.ts';
import type { WorkflowStep } from './definition.ts';

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

const mapExpressions = (group: string, map: Record<string, string>): StepExpression[] =>
  Object.entries(map).map(([key, text]) => ({ path: fieldPath(group, key), text, group, key }));

/** Every FEEL text of a step, with its path: the one list that validation parses and the runner compiles. */
export function stepExpressions(step: WorkflowStep, base: string): StepExpression[] {
  switch (step.kind) {
    case 'rule':
      return mapExpressions(`${base}.inputs`, step.inputs ?? {});
    case 'apiRequest': {
      const { query, headers, body } = step.request;
      const at = `${base}.request`;
      return [...mapExpressions(`${at}.query`, query), ...mapExpressions(`${at}.headers`, headers), ...(body === undefined ? [] : [{ path: `${at}.body`, text: body }])];
    }
    case 'branch':
      return step.cases.map((c, j) => ({ path: `${base}.cases[${j}].when`, text: c.when, group: `${base}.cases`, key: String(j) }));
    case 'transform':
      return mapExpressions(`${base}.set`, step.set);
    case 'end':
      return mapExpressions(`${base}.output`, step.output);
  }
}
