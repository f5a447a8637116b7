/**
 * Key layout of the single table (see ./README.md). Workspace ids, entity ids
 * and version labels never contain ":", and git forbids it in branch names, so
 * ":" separates key segments unambiguously.
 */
import type { EntityType } from '../vocabulary/kinds.ts';
import type { TallyKey, EntityRef, ExecutionScope, RuleScope } from './types.ts';

export interface ItemKey {
  PK: string;
  SK: string;
}

/** Sorts below every printable character, so "ab" < "ab c" < "abc" hold in the index as they do by name. */
const nameIdSeparator = '\u0001';

/** Only workspace items have this sort key: a Scan filtered on it finds every workspace. */
export const workspaceSortKey = 'WORKSPACE';
export const workspaceKey = (workspaceId: string): ItemKey => ({ PK: `WS:${workspaceId}`, SK: workspaceSortKey });
export const branchKey = (workspaceId: string, branch: string): ItemKey => ({ PK: `WS:${workspaceId}`, SK: `BRANCH:${branch}` });
export const branchPrefix = 'BRANCH:';

export const apiKeyKey = (hash: string): ItemKey => ({ PK: `APIKEY:${hash}`, SK: 'APIKEY' });
export const apiKeysOfWorkspace = (workspaceId: string) => `APIKEYS:${workspaceId}`;

/** The partition holding a branch's entities of one type, and their counter. */
export const entityPartition = (workspaceId: string, branch: string, entityType: EntityType) => `ENT:${workspaceId}:${branch}:${entityType}`;
export const entityPrefix = 'E:';
export const entityKey = (ref: EntityRef): ItemKey => ({ PK: entityPartition(ref.workspaceId, ref.branch, ref.entityType), SK: `${entityPrefix}${ref.id}` });
/** The counter of a branch's entities of one type, or of one kind of them. */
export const counterKey = (partition: string, kind?: string): ItemKey => ({ PK: partition, SK: kind ? `COUNT:${kind}` : 'COUNT' });
export const counterPrefix = 'COUNT';
/**
 * The index sort key of counters. Names hold no control characters and
 * timestamps start with a digit, so a counter sorts before every entity of
 * its index partition: a query from the start reads the count with the page.
 */
export const counterSortKey = '\u0001';
export const kindPartition = (partition: string, kind: string) => `${partition}:${kind}`;
export const nameSortKey = (name: string, id: string) => `${name.toLowerCase()}${nameIdSeparator}${id}`;
export const timeSortKey = (timestamp: string, id: string) => `${timestamp}${nameIdSeparator}${id}`;

export const versionPartition = (ref: EntityRef) => `VER:${ref.workspaceId}:${ref.branch}:${ref.entityType}:${ref.id}`;
/** Zero-padded so that versions sort by number. */
export const versionSortKey = (version: string) => `V:${version.slice(1).padStart(9, '0')}`;
export const versionKey = (ref: EntityRef, version: string): ItemKey => ({ PK: versionPartition(ref), SK: versionSortKey(version) });

/** A rule's executions, newest last by key (read descending): the time they started, then their id. A workflow's under "workflow/", which no rule id can hold. */
export const executionPartition = (scope: ExecutionScope) =>
  `EXEC:${scope.workspaceId}:${scope.branch}:${'workflowId' in scope ? `workflow/${scope.workflowId}` : scope.ruleId}`;
export const executionKey = (scope: ExecutionScope, startedAt: string, executionId: string): ItemKey => ({
  PK: executionPartition(scope),
  SK: timeSortKey(startedAt, executionId),
});

/** A branch's rule schedules, one item per rule (its id after `R:`). */
export const schedulesPrefix = 'SCHED:';
export const schedulesPartition = (workspaceId: string, branch: string) => `${schedulesPrefix}${workspaceId}:${branch}`;
export const scheduleKey = (scope: RuleScope): ItemKey => ({ PK: schedulesPartition(scope.workspaceId, scope.branch), SK: `R:${scope.ruleId}` });

/** A workspace's credentials and the claims on their names share one partition. */
export const credentialsPartition = (workspaceId: string) => `CREDS:${workspaceId}`;
export const credentialPrefix = 'C:';
export const credentialKey = (workspaceId: string, id: string): ItemKey => ({ PK: credentialsPartition(workspaceId), SK: `${credentialPrefix}${id}` });
export const credentialNameKey = (workspaceId: string, name: string): ItemKey => ({ PK: credentialsPartition(workspaceId), SK: `N:${name.toLowerCase()}` });

/** A workspace's integrations and the claims on their names, likewise. */
export const integrationsPartition = (workspaceId: string) => `INTGS:${workspaceId}`;
export const integrationPrefix = 'I:';
export const integrationKey = (workspaceId: string, id: string): ItemKey => ({ PK: integrationsPartition(workspaceId), SK: `${integrationPrefix}${id}` });
export const integrationNameKey = (workspaceId: string, name: string): ItemKey => ({ PK: integrationsPartition(workspaceId), SK: `N:${name.toLowerCase()}` });

export const taskKey = (taskId: string): ItemKey => ({ PK: `TASK:${taskId}`, SK: 'TASK' });
/** What each shard of a task found, beside the task in its partition, by shard (zero-padded, so they sort by it). */
export const taskPartPrefix = 'PART:';
export const taskPartKey = (taskId: string, shard: number): ItemKey => ({ PK: taskKey(taskId).PK, SK: `${taskPartPrefix}${String(shard).padStart(6, '0')}` });
/** The sparse index partition of tasks not finished yet, sorted by the time they must be done by. */
export const openTasksPartition = 'TASKS:open';
export const remoteKey = (workspaceId: string): ItemKey => ({ PK: `WS:${workspaceId}`, SK: 'REMOTE' });

/** A workspace's audit log: its records by sequence number (zero-padded, so they sort by it) and the head of the chain. */
export const auditPartition = (workspaceId: string) => `AUDIT:${workspaceId}`;
export const auditRecordPrefix = 'R:';
export const auditRecordSortKey = (seq: number) => `${auditRecordPrefix}${String(seq).padStart(12, '0')}`;
export const auditRecordKey = (workspaceId: string, seq: number): ItemKey => ({ PK: auditPartition(workspaceId), SK: auditRecordSortKey(seq) });
export const auditHeadKey = (workspaceId: string): ItemKey => ({ PK: auditPartition(workspaceId), SK: 'HEAD' });

/** The change requests of one entity on one branch, by id. */
export const changeRequestPartition = (ref: EntityRef) => `CR:${ref.workspaceId}:${ref.branch}:${ref.entityType}:${ref.id}`;
export const changeRequestKey = (ref: EntityRef, id: string): ItemKey => ({ PK: changeRequestPartition(ref), SK: `R:${id}` });

/**
 * A rule's sampled rollout disagreements: per rollout, by the time the execution ran and its id, so that a
 * descending Query from the rollout's end reads the newest, and one from its start the oldest not expired.
 */
export const rolloutSamplePartition = (scope: RuleScope) => `ROLLOUT:${scope.workspaceId}:${scope.branch}:${scope.ruleId}`;
export const rolloutSamplePrefix = (rolloutId: string) => `${rolloutId}:`;
export const rolloutSampleKey = (scope: RuleScope, rolloutId: string, at: string, executionId: string): ItemKey => ({
  PK: rolloutSamplePartition(scope),
  SK: `${rolloutSamplePrefix(rolloutId)}${timeSortKey(at, executionId)}`,
});

/** A rule's counters items (coverage per version, a rollout's agreement), by name. */
export const tallyPartition = (scope: RuleScope) => `USAGE:${scope.workspaceId}:${scope.branch}:${scope.ruleId}`;
export const tallyKey = (key: TallyKey): ItemKey => ({ PK: tallyPartition(key), SK: key.name });
