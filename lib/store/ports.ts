/**
 * The store's ports: what the domain may ask of persistence, and in what
 * shapes it asks and is answered. The DynamoDB adapter in `./dynamo`
 * implements them; nothing outside `lib/store` touches the SDK.
 */
import type { EntityKind, EntityStatus } from '../vocabulary/kinds.ts';
import type { VersionInfo } from '../vocabulary/records.ts';
import type { AuditEvent, AuditHead, AuditRecord } from './model/audit.ts';
import type { Approval, BranchProtection, ChangeRequest } from './model/change-requests.ts';
import type { NamedTallies, TallyKey, StoredTallies } from './model/tallies.ts';
import type { RolloutSample } from './model/rollouts.ts';
import type { StoredCredential } from './model/credentials.ts';
import type { ApiKey, ApiKeyChange, Branch, Workspace, WorkspaceAccess } from './model/directory.ts';
import type { EntityRef, EntityScope, StoredEntity, StoredVersion, Summary } from './model/entities.ts';
import type { Execution, ExecutionScope, RuleScope } from './model/executions.ts';
import type { StoredIntegration } from './model/integrations.ts';
import type { NameClaim, NamedKind } from './model/name-claims.ts';
import type { RemoteConfig } from './model/remote.ts';
import type { StoredRuleSchedule } from './model/schedules.ts';
import type { ExecutionRange, Task, TaskChange, TaskState } from './model/tasks.ts';

export interface ListQuery extends EntityScope {
  pageNo: number;
  pageSize: number;
  name?: string;
  kind?: string;
  status?: EntityStatus;
  sortBy: 'name' | 'createdAt' | 'updatedAt';
  sortDir: 'asc' | 'desc';
}

export interface Page<T> {
  items: T[];
  totalCount: number;
}

export interface DirectoryStore {
  getWorkspace(id: string): Promise<Workspace | undefined>;
  /** Every workspace, by id, by a Scan of the whole table: for the operator's CLI, never a function's. */
  listWorkspaces(): Promise<Workspace[]>;
  /** Creates the workspace unless it exists; returns what is stored. */
  createWorkspace(workspace: Workspace): Promise<Workspace>;
  /** Replaces who among the people signed in may do what in the workspace; false when it is not there. */
  setWorkspaceAccess(workspaceId: string, access: WorkspaceAccess, audit?: AuditEvent): Promise<boolean>;
  getBranch(workspaceId: string, name: string): Promise<Branch | undefined>;
  createBranch(branch: Branch): Promise<Branch>;
  listBranches(workspaceId: string): Promise<Branch[]>;
  /** Sets (or, with null, takes away) a branch's protection; false when the branch is not there. */
  setBranchProtection(workspaceId: string, branch: string, protection: BranchProtection | null, audit?: AuditEvent): Promise<boolean>;
  getApiKeyByHash(hash: string): Promise<ApiKey | undefined>;
  createApiKey(hash: string, key: ApiKey, audit?: AuditEvent): Promise<void>;
  listApiKeys(workspaceId: string): Promise<ApiKey[]>;
  /** One key of the workspace by its id (revoked or expired too); undefined when the workspace has none by that id. */
  getApiKeyById(workspaceId: string, keyId: string): Promise<ApiKey | undefined>;
  /** Changes a key's fields (null takes one away); undefined when the workspace has no such key. */
  updateApiKey(workspaceId: string, keyId: string, change: ApiKeyChange, audit?: AuditEvent): Promise<ApiKey | undefined>;
}

export interface EntityStore {
  listEntities(query: ListQuery): Promise<Page<Summary>>;
  getEntity(ref: EntityRef): Promise<StoredEntity | undefined>;
  /**
   * The working copy's latest published version label ('' when never published), creation time and a rule's rollout:
   * all that running its latest version (or its rollout's candidate) reads, in a narrow read.
   */
  getEntityHead(ref: EntityRef): Promise<Pick<StoredEntity, 'version' | 'createdAt' | 'rollout'> | undefined>;
  /** `getEntityHead` of many entities in one request (at most 100), in the order asked: what a workflow run reads of itself and the rules it runs. */
  getEntityHeads(refs: EntityRef[]): Promise<(Pick<StoredEntity, 'version' | 'createdAt'> | undefined)[]>;
  getVersion(ref: EntityRef, version: string): Promise<StoredVersion | undefined>;
  listVersions(ref: EntityRef): Promise<VersionInfo[]>;
  /**
   * Writes a working copy if the stored revision is still `expectedRevision`
   * (0: the entity must not exist). Throws RevisionConflict otherwise.
   */
  putEntity(ref: EntityRef, entity: StoredEntity, expectedRevision: number, kind: EntityKind, audit?: AuditEvent): Promise<void>;
  /**
   * Bulk path (pulls, benchmarks): writes many working copies of one branch and
   * type and deletes others, in batches, without revision checks, then
   * recounts the branch if anything changed.
   */
  writeEntities(scope: EntityScope, entities: { entity: StoredEntity; kind: EntityKind }[], deletions?: string[]): Promise<void>;
  /** Sets the branch's counters from the index: the repair after bulk writes. */
  recount(scope: EntityScope): Promise<void>;
  /** Every working copy of a branch and type, for a pull to compare with. */
  listEntityStates(scope: EntityScope): Promise<StoredEntity[]>;
  /** Stores a published snapshot unless that version exists; returns false when it did. */
  putVersion(ref: EntityRef, record: StoredVersion, info: VersionInfo): Promise<boolean>;
  /**
   * Deletes a working copy and takes it off the branch's counters, exactly
   * once however often it is called; returns false when there was none. A
   * delete that stopped half way is finished when it is retried, or by the
   * next write that changes the entity (the delete came first).
   */
  deleteEntity(ref: EntityRef, audit?: AuditEvent): Promise<boolean>;
  /** Deletes every published version of an entity. */
  deleteVersions(ref: EntityRef): Promise<void>;
}

export interface ExecutionStore {
  /**
   * Records an execution, with the time it will be kept until; returns the
   * record. With `once`, only if no execution of the same key (start time,
   * or scheduled time, and id) is recorded: undefined when one is.
   */
  putExecution(scope: ExecutionScope, execution: Omit<Execution, 'expiresAt'>, options?: { once?: boolean }): Promise<Execution | undefined>;
  /**
   * Records the executions of a batch, each as `putExecution` records one
   * (their ids are new, so their keys are free): in requests of 25, what
   * DynamoDB leaves unprocessed asked again a bounded number of times.
   */
  putExecutions(scope: ExecutionScope, executions: Omit<Execution, 'expiresAt'>[]): Promise<void>;
  /** One page of a rule's (or workflow's) executions not yet expired at `now`, newest first, with their total. */
  listExecutions(scope: ExecutionScope, page: { pageNo: number; pageSize: number }, now: string): Promise<Page<Execution>>;
  /**
   * The newest `limit` of a rule's executions whose key time (start, or a
   * scheduled run's due time) is at or after `from` and before `to`, and not
   * expired at `now`, cut into ranges of at most `rangeSize` each, oldest
   * first: found by a walk of the keys alone, never reading an input.
   */
  splitExecutions(scope: RuleScope, window: { from: string; to: string }, bounds: { limit: number; rangeSize: number }, now: string): Promise<ExecutionRange[]>;
  /** One page (at most 1 MB) of a range's executions, oldest first, from after the position `after` a page answered as `next`: what a replay reads of each. */
  readExecutionRange(scope: RuleScope, range: ExecutionRange, after?: string): Promise<{ items: RecordedInput[]; next?: string }>;
}

/** What a replay needs of a recorded execution: its params as given, and when it started (its clock). */
export type RecordedInput = Pick<Execution, 'executionId' | 'startedAt' | 'input'>;

export interface ScheduleStore {
  /** Read consistently: a save compares with what is stored. */
  getSchedule(scope: RuleScope): Promise<StoredRuleSchedule | undefined>;
  /** Writes if the stored revision is still `expectedRevision` (0: none stored); RevisionConflict otherwise. */
  putSchedule(scope: RuleScope, schedule: StoredRuleSchedule, expectedRevision: number, audit?: AuditEvent): Promise<void>;
  /** Deletes if the stored revision is still `expectedRevision`; RevisionConflict otherwise. */
  deleteSchedule(scope: RuleScope, expectedRevision: number, audit?: AuditEvent): Promise<void>;
  /** Every stored schedule, by a Scan of the whole table: for the local runtime's restart only, never a function's. */
  scanSchedules(): Promise<{ scope: RuleScope; schedule: StoredRuleSchedule }[]>;
}

export interface TaskStore {
  getTask(taskId: string): Promise<Task | undefined>;
  /** Writes a new task (pending). */
  createTask(task: Task): Promise<void>;
  /**
   * Moves a task to new fields if it is in one of `from` states (and, with
   * `runId`, still held by that run); returns the updated task, or undefined
   * when the condition did not hold.
   */
  transitionTask(
    taskId: string,
    from: TaskState[],
    change: TaskChange,
    options?: { runId?: string; leaseExpiredBefore?: string },
    /** Recorded with the change, in one transaction: what the task does to the workspace (a pull beginning to write a branch, a push sent). */
    audit?: AuditEvent,
  ): Promise<Task | undefined>;
  /** Open tasks (pending or in progress) whose deadline is before `now`: what the sweeper ends. */
  listOverdueTasks(now: string): Promise<string[]>;
  /**
   * Of a task split into shards (`shards`): writes what shard `shard` found, as JSON text, unless it was written
   * (a redelivered shard's first result is the one kept); false when it was.
   */
  putTaskPart(taskId: string, shard: number, resultJson: string): Promise<boolean>;
  /** What the shards of a task found, a page of the table at a time, by shard. */
  readTaskParts(taskId: string): AsyncIterable<string>;
  /** Records shard `shard` of an in-progress task as done (again: no change); answers the task, or undefined when it is not in progress. */
  markShardDone(taskId: string, shard: number, at: string): Promise<Task | undefined>;
}

/** A workspace's Git remote (lib/remote): its configuration, and each branch's record of the pull or push it runs and the commit it last synced. */
export interface RemoteStore {
  getRemote(workspaceId: string): Promise<RemoteConfig | undefined>;
  putRemote(workspaceId: string, remote: RemoteConfig, audit?: AuditEvent): Promise<void>;
  /**
   * The branch's record of its Git remote: its open pull or push task (a branch runs one at a time), and
   * the remote's commit the branch was last synced with (the one its last pull pulled, or its last push left
   * the remote's branch at): a push refuses a remote that moved from it.
   */
  getBranchSync(workspaceId: string, branch: string): Promise<{ activeTaskId?: string; syncedCommit?: string } | undefined>;
  /** Makes `taskId` the branch's active task if the active one is still `expected`; false otherwise. */
  claimBranchSync(workspaceId: string, branch: string, taskId: string, expected: string | undefined, audit?: AuditEvent): Promise<boolean>;
  /** Ends the branch's active task (if it is this one), recording the synced commit when given. */
  releaseBranchSync(workspaceId: string, branch: string, taskId: string, syncedCommit?: string): Promise<void>;
}

/** Names unique per workspace and kind: each is claimed by its own item before what bears it is written. */
export interface NameClaimStore {
  /**
   * Claims a name (case-insensitive) for `holderId` unless another holds it;
   * returns the claim as it stands. With `replacing`, takes the claim over from that holder only.
   */
  claimName(kind: NamedKind, workspaceId: string, name: string, holderId: string, replacing?: string): Promise<NameClaim>;
  /** Gives a name up, if `holderId` still holds it. */
  releaseName(kind: NamedKind, workspaceId: string, name: string, holderId: string): Promise<void>;
}

export interface CredentialStore {
  getCredential(workspaceId: string, id: string, options?: { withSecret?: boolean }): Promise<StoredCredential | undefined>;
  /** Every credential of the workspace, without secrets, by id. */
  listCredentials(workspaceId: string): Promise<StoredCredential[]>;
  /** Writes if the stored revision is still `expectedRevision` (0: must not exist); RevisionConflict otherwise. */
  putCredential(credential: StoredCredential, expectedRevision: number, audit?: AuditEvent): Promise<void>;
  /**
   * Binds a credential made before hosts were required to `allowedHosts`, if it is still at `expectedRevision`
   * and has none: sets those and the next revision only, so its sealed value is never rewritten. RevisionConflict otherwise.
   */
  bindCredentialHosts(workspaceId: string, id: string, allowedHosts: string[], expectedRevision: number, audit?: AuditEvent): Promise<void>;
}

export interface IntegrationStore {
  getIntegration(workspaceId: string, id: string): Promise<StoredIntegration | undefined>;
  /** Every integration of the workspace, by id. */
  listIntegrations(workspaceId: string): Promise<StoredIntegration[]>;
  /** Writes if the stored revision is still `expectedRevision` (0: must not exist); RevisionConflict otherwise. */
  putIntegration(integration: StoredIntegration, expectedRevision: number, audit?: AuditEvent): Promise<void>;
  /** Deletes if the stored revision is still `expectedRevision`; RevisionConflict otherwise. */
  deleteIntegration(workspaceId: string, id: string, expectedRevision: number, audit?: AuditEvent): Promise<void>;
}

/**
 * The audit log. Every write method above that takes an `audit` event stores
 * it in the same transaction as the write; a refusal, which writes nothing
 * else, is appended alone.
 */
export interface AuditStore {
  appendAudit(workspaceId: string, event: AuditEvent): Promise<AuditRecord>;
  /** The newest record's place in the chain; undefined before the first. */
  getAuditHead(workspaceId: string): Promise<AuditHead | undefined>;
  /** Up to `limit` records: in order from after `after` (exclusive), or newest first from before `before` (exclusive; absent, the newest). */
  readAudit(workspaceId: string, range: { after?: number; before?: number; limit: number }): Promise<AuditRecord[]>;
}

/** Change requests of an entity on a branch (./model/change-requests.ts). Every change is conditional on the request being open. */
export interface ChangeRequestStore {
  getChangeRequest(ref: EntityRef, id: string): Promise<ChangeRequest | undefined>;
  /** Newest first. */
  listChangeRequests(ref: EntityRef): Promise<ChangeRequest[]>;
  /** False when one with its id exists. */
  createChangeRequest(ref: EntityRef, request: ChangeRequest, audit?: AuditEvent): Promise<boolean>;
  /** Adds the approval of its owner; false when the request is not open or that owner approved already. */
  approveChangeRequest(ref: EntityRef, id: string, approval: Approval, audit?: AuditEvent): Promise<boolean>;
  /** Closes an open request (rejected or published); false when it was not open. */
  closeChangeRequest(
    ref: EntityRef,
    id: string,
    close: Pick<ChangeRequest, 'state' | 'closedAt' | 'rejection' | 'publishedVersion'>,
    audit?: AuditEvent,
  ): Promise<boolean>;
}

export interface TallyStore {
  /**
   * Adds each of `counts` to its counter (a counter starts at 0), and sets each of `latest`, in the item `key` (made when absent).
   * Adding is commutative, so functions that add at once never lose each other's counts; a latest time is the last writer's.
   */
  addTallies(key: TallyKey, counts: Record<string, number>, latest: Record<string, string>): Promise<void>;
  getTallies(key: TallyKey): Promise<StoredTallies | undefined>;
  /** Every tally item of a rule whose name starts with `prefix` (the items of one version's coverage), read consistently, by name. */
  listTallies(scope: RuleScope, prefix: string): Promise<NamedTallies[]>;
}

/** The disagreements a rollout keeps as a sample (./model/rollouts.ts), each expiring on its own. */
export interface RolloutStore {
  /** Keeps a disagreement of the rollout `rolloutId` of a rule for `rolloutSampleRetentionDays`; the same execution again overwrites it. */
  putRolloutSample(scope: RuleScope, rolloutId: string, sample: RolloutSample): Promise<void>;
  /** The newest `limit` disagreements of the rollout not yet expired at `now`, newest first. */
  listRolloutSamples(scope: RuleScope, rolloutId: string, limit: number, now: string): Promise<RolloutSample[]>;
}

export type Store = DirectoryStore &
  TallyStore &
  RolloutStore &
  ChangeRequestStore &
  EntityStore &
  CredentialStore &
  IntegrationStore &
  NameClaimStore &
  TaskStore &
  RemoteStore &
  ExecutionStore &
  ScheduleStore &
  AuditStore;
