/**
 * Workflows from their text: a working copy compiled for a test (checked by
 * ./check.ts, which needs the FEEL parser), and the prepared form a new
 * version keeps. Only the authoring and test functions import this;
 * executing a version does not (`./load.ts`).
 */
import { errors } from '../vocabulary/errors.ts';
import type { StoredEntity } from '../store/types.ts';
import { checkStoredWorkflow } from './check.ts';
import { packWorkflow, runnableWorkflow, type RunnableWorkflow } from './load.ts';

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
