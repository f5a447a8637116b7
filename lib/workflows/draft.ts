/**
 * Workflows from their text: the draft checked and parsed (which needs the
 * FEEL parser) for a test, and the prepared form a new version keeps. Only
 * the authoring and test functions import this; executing a version does not
 * (`./load.ts`).
 */
import { safeParse } from 'zod/mini';
import { errors, type PathProblem } from '../http/errors.ts';
import type { StoredEntity } from '../store/types.ts';
import { workflowShapeSchema } from './definition.ts';
import { packWorkflow, runnableWorkflow, type RunnableWorkflow } from './load.ts';
import { validateWorkflow, type WorkflowCheck, type WorkflowLookups } from './validate.ts';

/**
 * A stored definition checked whole: its shape (a draft saved before the
 * shape it has now may not fit) and then its graph and FEEL (the graph's
 * problems left out with `graphProblems: false`, for a caller whose schema
 * reported them).
 */
export function checkStoredWorkflow(definition: unknown, lookups: WorkflowLookups = {}, options: { graphProblems?: boolean } = {}): { problems: PathProblem[]; check?: WorkflowCheck } {
  const parsed = safeParse(workflowShapeSchema, definition);
  if (!parsed.success) return { problems: parsed.error.issues.map((i) => ({ path: ['definition', ...i.path].join('.'), message: i.message })) };
  const check = validateWorkflow(parsed.data, lookups, options);
  return { problems: check.problems.map((p) => ({ path: `definition.${p.path}`, message: p.message })), check };
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
