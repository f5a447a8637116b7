/**
 * The save's own check of a rule or workflow, run in the browser on the draft
 * as it is typed: `recordProblems`, the function the API refuses a save with,
 * so the page and the API cannot disagree. A workflow is checked without the
 * workspace's lookups (whether the rules, integrations and credentials it
 * names exist is the save's to say). It runs in a worker
 * (`./draft-check-worker.ts`), which holds the schemas, the engine's checks
 * and the FEEL parser, so the page neither loads them to open nor waits on them.
 */
import type { EntityType } from '../../vocabulary/kinds.ts';
import { recordProblems } from '../../authoring/record-check.ts';
import type { Warning } from '../../store/types.ts';
import { checkStoredWorkflow } from '../../workflows/check.ts';

export interface DraftCheck {
  /** What a save would be refused for, by field, as the API's 400 names them (`ApiFailure.fieldProblems`). */
  problems: Map<string, string>;
  /** What a save would keep as the rule's warnings (the analysis), as a read gives them. */
  warnings: Warning[];
}

/** What a save of `record` would answer, short of saving it. */
export function draftProblems(entityType: EntityType, record: Record<string, unknown>): DraftCheck {
  const workflow = entityType === 'workflow' ? checkStoredWorkflow(record.definition, { graphProblems: false }) : undefined;
  const { issues, warnings } = recordProblems(entityType, record, workflow);
  return { problems: new Map(issues.map((issue) => [issue.field, issue.message])), warnings };
}
