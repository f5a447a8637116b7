/**
 * The save's own check of a rule or workflow, run in the browser on the draft
 * as it is typed: `recordProblems`, the function the API refuses a save with,
 * so the page and the API cannot disagree. A workflow is checked without the
 * workspace's lookups (whether the rules, integrations and credentials it
 * names exist is the save's to say). Loaded on demand, as a chunk of its own:
 * it holds the schemas, the engine's checks and the FEEL parser.
 */
import type { EntityType } from '../../entities/kinds.ts';
import { recordProblems } from '../../entities/record-check.ts';
import { checkStoredWorkflow } from '../../workflows/check.ts';

/** What a save of `record` would be refused for, by field, as the API's 400 names them (`ApiFailure.fieldProblems`). */
export function draftProblems(entityType: EntityType, record: Record<string, unknown>): Map<string, string> {
  const workflow = entityType === 'workflow' ? checkStoredWorkflow(record.definition, { graphProblems: false }) : undefined;
  return new Map(recordProblems(entityType, record, workflow).issues.map((issue) => [issue.field, issue.message]));
}
