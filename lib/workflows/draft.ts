/**
 * Workflows from their text: a definition checked and parsed (which needs the
 * FEEL parser) for a save, a publish or a test, and the prepared form a new
 * version keeps. Only
 * the authoring and test functions import this; executing a version does not
 * (`./load.ts`).
 */
import { safeParse } from 'zod/mini';
import { errors, type PathProblem } from '../http/errors.ts';
import type { EntityScope, StoredEntity } from '../store/types.ts';
import { workflowShapeSchema, type WorkflowDefinition } from './definition.ts';
import { packWorkflow, runnableWorkflow, type RunnableWorkflow } from './load.ts';
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
  return parsed.success ? { data: parsed.data } : { problems: parsed.error.issues.map((i) => ({ path: ['definition', ...i.path].join('.'), message: i.message })) };
}

function checked(definition: WorkflowDefinition, lookups: WorkflowLookups, options: { graphProblems?: boolean }): StoredWorkflowCheck {
  const check = validateWorkflow(definition, lookups, options);
  return { problems: check.problems.map((p) => ({ path: `definition.${p.path}`, message: p.message })), check };
}

/**
 * A stored definition checked whole: its shape (a draft saved before the
 * shape it has now may not fit) and then its graph and FEEL.
 */
export function checkStoredWorkflow(definition: unknown): StoredWorkflowCheck {
  const shape = parseShape(definition);
  return 'data' in shape ? checked(shape.data, {}, {}) : shape;
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

/** Compiles a workflow's working copy; a draft with problems (imported or pulled) is refused, naming them. */
export function compileWorkflowDraft(draft: Pick<StoredEntity, 'id' | 'checksum' | 'definition'>): RunnableWorkflow {
  const { problems, check } = checkStoredWorkflow(draft.definition);
  if (problems.length || !check) throw errors.workflowInvalid(draft.id, problems);
  return runnableWorkflow(draft, '', check.prepared);
}

/** What a new version of a workflow keeps: its parsed FEEL, when its text has no problems. */
export function workflowVersionExtras(draft: Pick<StoredEntity, 'definition'>) {
  const { problems, check } = checkStoredWorkflow(draft.definition);
  return problems.length || !check ? {} : { prepared: packWorkflow(check.prepared) };
}
