/**
 * A workflow definition checked whole, as a save, a publish or a test checks
 * it: its shape, then its graph and FEEL (`./validate.ts`), and with a store,
 * the rules, integrations and credentials it names. Apart from ./draft.ts,
 * which compiles, so that the console can run the same check on a draft in
 * the browser.
 */
import { safeParse } from 'zod/mini';
import type { PathProblem } from '../vocabulary/errors.ts';
import type { EntityScope } from '../store/types.ts';
import { workflowShapeSchema, type WorkflowDefinition } from '../entities/workflow-definition.ts';
import { workflowLookups, type ReferenceStore } from './references.ts';
import { validateWorkflow, type WorkflowCheck, type WorkflowLookups } from './validate.ts';

export interface StoredWorkflowCheck {
  /** Every problem, by its path from the record (`definition.steps[2].next`). */
  problems: PathProblem[];
  /** Absent when the definition has not even the shape of one. */
  check?: WorkflowCheck;
}

/** The definition's shape: parsed, or its problems by path. */
function parseShape(definition: unknown): { data: WorkflowDefinition } | StoredWorkflowCheck {
  const parsed = safeParse(workflowShapeSchema, definition);
  return parsed.success
    ? { data: parsed.data }
    : { problems: parsed.error.issues.map((i) => ({ path: ['definition', ...i.path].join('.'), message: i.message })) };
}

function checked(definition: WorkflowDefinition, lookups: WorkflowLookups, options: { graphProblems?: boolean }): StoredWorkflowCheck {
  const check = validateWorkflow(definition, lookups, options);
  return { problems: check.problems.map((p) => ({ path: `definition.${p.path}`, message: p.message })), check };
}

/**
 * A stored definition checked whole: its shape (a draft saved before the
 * shape it has now may not fit) and then its graph and FEEL (with
 * `graphProblems: false`, not the graph's, which a record schema reports).
 */
export function checkStoredWorkflow(definition: unknown, options: { graphProblems?: boolean } = {}): StoredWorkflowCheck {
  const shape = parseShape(definition);
  return 'data' in shape ? checked(shape.data, {}, options) : shape;
}

/**
 * `checkStoredWorkflow` with the rules, integrations and credentials the
 * definition names looked up in `scope` (with `published`, as a publish
 * needs them). With `graphProblems: false` the graph's problems are left
 * out, for a caller whose record schema reported them.
 */
export async function checkWorkflowIn(
  store: ReferenceStore,
  scope: Pick<EntityScope, 'workspaceId' | 'branch'>,
  definition: unknown,
  options: { published?: boolean; graphProblems?: boolean } = {},
): Promise<StoredWorkflowCheck> {
  const shape = parseShape(definition);
  return 'data' in shape ? checked(shape.data, await workflowLookups(store, scope, shape.data, options), options) : shape;
}
