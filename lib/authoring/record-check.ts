/**
 * What a save of a record would be refused for, without refusing it: the
 * record schema's issues and, for a rule, every problem and warning the
 * engine finds, and the parts of it that no saved test case reaches
 * (lib/coverage/tested.ts); for a workflow, the problems its check found (with or
 * without the workspace's lookups). `validateRecord` (./save.ts) throws
 * them as one 400; the console runs the same check on a draft as it is
 * typed, so that both say the same thing.
 */
import { safeParse } from 'zod/mini';
import { checkRule } from '../engine/authoring.ts';
import type { RuleDefinition } from '../engine/index.ts';
import type { FieldIssue } from '../vocabulary/errors.ts';
import { fieldIssues } from '../http/input.ts';
import { selfContainedUntestedWarnings } from '../coverage/tested.ts';
import type { Warning } from '../store/types.ts';
import type { StoredWorkflowCheck } from '../workflows/check.ts';
import { entityTypeOf, isRuleKind, ruleKinds, workflowKind, type EntityType } from '../vocabulary/kinds.ts';
import { definitionSchemas, entityInputSchema, type EntityInput } from '../entities/schema.ts';

/** Warnings kept with a working copy at most; a table with more says how many it left out. */
export const maxWarningsKept = 50;

function keptWarnings(warnings: Warning[]): Warning[] {
  if (warnings.length <= maxWarningsKept) return warnings;
  const left = warnings.length - maxWarningsKept + 1;
  return [...warnings.slice(0, maxWarningsKept - 1), { path: 'definition', message: `and ${left} more warnings like these` }];
}

export interface RecordCheck {
  /** The record, when the schema took it. */
  input?: EntityInput;
  /** Every problem, by field (`definition.rules[2].when`); none when a save would take it. */
  issues: FieldIssue[];
  /** A rule's warnings, at most `maxWarningsKept`. */
  warnings: Warning[];
}

/**
 * Checks the whole record a save would store, as an entity of `entityType`.
 *
 * @param workflow a workflow's check (`checkWorkflowIn` with `graphProblems: false`: the record schema reports the graph)
 * @example
 * const { issues } = recordProblems('rule', { id: 'r', name: 'R', type: 'simpleRule', description: '', tags: [], definition: { when: 'x >', then: {} } });
 * // issues: [{ in: 'body', field: 'definition.when', message: 'the expression is incomplete at line 1, column 4' }]
 */
export function recordProblems(entityType: EntityType, candidate: Record<string, unknown>, workflow?: StoredWorkflowCheck): RecordCheck {
  const parsed = entityInputSchema.safeParse(candidate);
  const issues: FieldIssue[] = parsed.success ? [] : fieldIssues(parsed.error.issues, 'body');
  const kind = String(candidate.type);
  if (Object.hasOwn(definitionSchemas, kind) && entityTypeOf(kind as EntityInput['type']) !== entityType)
    issues.push({ in: 'body', field: 'type', message: `must be ${entityType === 'rule' ? ruleKinds.join(', ') : 'workflow'} for a ${entityType}` });
  let warnings: Warning[] = [];
  if (isRuleKind(kind)) {
    const definition = parsed.success ? { success: true as const, data: parsed.data.definition } : safeParse(definitionSchemas[kind], candidate.definition);
    if (definition.success) {
      const check = checkRule({ kind, definition: definition.data } as RuleDefinition);
      issues.push(...check.problems.map((p) => ({ in: 'body' as const, field: p.path, message: p.message })));
      const untested = check.problems.length ? [] : selfContainedUntestedWarnings(check.prepared, definition.data as Record<string, unknown>);
      warnings = keptWarnings([...check.warnings, ...untested]);
    }
  } else if (kind === workflowKind && workflow?.check) {
    // Its FEEL and references; the definition's shape and graph problems are the record schema's already.
    issues.push(...workflow.problems.map((p) => ({ in: 'body' as const, field: p.path, message: p.message })));
  }
  return { ...(parsed.success && { input: parsed.data }), issues, warnings };
}
