/**
 * The store's public surface: what the domain may ask of persistence. The
 * DynamoDB adapter in `./dynamo` implements it; nothing outside `lib/store`
 * touches the SDK.
 */
import type { SealedSecret } from '../credentials/sealing.ts';
import type { Audit, EntityKind, EntityRecord, EntityStatus, EntityType, VersionInfo } from '../entities/schema.ts';
import type { StoredSchedule } from '../schedules/spec.ts';

export interface Workspace {
  id: string;
  name: string;
  defaultBranch: string;
  createdAt: string;
}

export interface Branch {
  workspaceId: string;
  name: string;
  createdAt: string;
}

export interface ApiKey {
  keyId: string;
  workspaceId: string;
  label: string;
  createdAt: string;
  expiresAt?: string;
  revokedAt?: string;
}

export interface EntityScope {
  workspaceId: string;
  branch: string;
  entityType: EntityType;
}

export interface EntityRef extends EntityScope {
  id: string;
}

/** What a save reports without refusing it (a row that can never be the answer, a gap), by its path in the definition. */
export interface Warning {
  path: string;
  message: string;
}

/** The working copy of an entity as stored. */
export interface StoredEntity extends EntityRecord, Audit {
  /** The save's warnings, kept so that reads need no parser; absent when the writer did not analyse the rule (import, pull). */
  warnings?: Warning[];
  /** Checksum of the latest published version, empty when never published. */
  publishedChecksum: string;
  /** "remote" when a pull wrote it last. */
  source?: 'remote';
  /** Store bookkeeping: the kind the branch counters include this entity as; unset until counted. */
  countedAs?: string;
}

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

export type Summary = Pick<EntityRecord, 'id' | 'name' | 'description' | 'type' | 'status' | 'version' | 'tags' | 'createdAt' | 'updatedAt'>;

export interface DirectoryStore {
  getWorkspace(id: string): Promise<Workspace | undefined>;
  /** Every workspace, by id, by a Scan of the whole table: for the operator's CLI, never a function's. */
  listWorkspaces(): Promise<Workspace[]>;
  /** Creates the workspace unless it exists; returns what is stored. */
  createWorkspace(workspace: Workspace): Promise<Workspace>;
  getBranch(workspaceId: string, name: string): Promise<Branch | undefined>;
  createBranch(branch: Branch): Promise<Branch>;
  listBranches(workspaceId: string): Promise<Branch[]>;
  getApiKeyByHash(hash: string): Promise<ApiKey | undefined>;
  createApiKey(hash: string, key: ApiKey): Promise<void>;
  listApiKeys(workspaceId: string): Promise<ApiKey[]>;
  /** Sets revokedAt or expiresAt; returns the updated key, undefined when the workspace has no such key. */
  updateApiKey(workspaceId: string, keyId: string, change: Pick<ApiKey, 'revokedAt'> | Pick<ApiKey, 'expiresAt'>): Promise<ApiKey | undefined>;
}

/** A published snapshot as stored: the record, and the warnings its working copy had. */
export interface StoredVersion extends EntityRecord {
  warnings?: Warning[];
  /** A version's prepared form (lib/entities/prepared-form.ts): what executing it compiles, without the FEEL parser. */
  prepared?: string;
}

export interface EntityStore {
  listEntities(query: ListQuery): Promise<Page<Summary>>;
  getEntity(ref: EntityRef): Promise<StoredEntity | undefined>;
  /** The working copy's latest published version label ('' when never published) and creation time: all that running its latest version reads, in a narrow read. */
  getEntityHead(ref: EntityRef): Promise<Pick<StoredEntity, 'version' | 'createdAt'> | undefined>;
  /** `getEntityHead` of many entities in one request (at most 100), in the order asked: what a workflow run reads of itself and the rules it runs. */
  getEntityHeads(refs: EntityRef[]): Promise<(Pick<StoredEntity, 'version' | 'createdAt'> | undefined)[]>;
  getVersion(ref: EntityRef, version: string): Promise<StoredVersion | undefined>;
  listVersions(ref: EntityRef): Promise<VersionInfo[]>;
  /**
   * Writes a working copy if the stored revision is still `expectedRevision`
   * (0: the entity must not exist). Throws RevisionConflict otherwise.
   */
  putEntity(ref: EntityRef, entity: StoredEntity, expectedRevision: number, kind: EntityKind): Promise<void>;
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
  deleteEntity(ref: EntityRef): Promise<boolean>;
  /** Deletes every published version of an entity. */
  deleteVersions(ref: EntityRef): Promise<void>;
}

/** The rule of a branch whose executions are meant. */
export interface RuleScope {
  workspaceId: string;
  branch: string;
  ruleId: string;
}

/** The rule an entity reference names, for what is kept per rule (executions, schedule). */
export const ruleScopeOf = (ref: EntityRef): RuleScope => ({ workspaceId: ref.workspaceId, branch: ref.branch, ruleId: ref.id });

/** The workflow of a branch whose executions are meant. */
export interface WorkflowScope {
  workspaceId: string;
  branch: string;
  workflowId: string;
}

/** Whose executions: a rule's or a workflow's. */
export type ExecutionScope = RuleScope | WorkflowScope;

/** The scope of the executions of the rule or workflow an entity reference names. */
export const executionScopeOf = (ref: EntityRef): ExecutionScope =>
  ref.entityType === 'workflow' ? { workspaceId: ref.workspaceId, branch: ref.branch, workflowId: ref.id } : ruleScopeOf(ref);

/** One step of a recorded workflow run, as the run's answer gives it. */
export interface StepRecord {
  id: string;
  type: string;
  status: 'succeeded' | 'failed' | 'skipped';
  durationMs: number;
  output?: unknown;
  error?: string;
}

/** One run of a rule or a workflow, as recorded (spec: executions). */
export interface Execution {
  executionId: string;
  /** The rule that ran, for a rule's execution… */
  ruleId?: string;
  /** …or the workflow, with its steps. */
  workflowId?: string;
  steps?: StepRecord[];
  version: string;
  /** What started it: an API call, or its schedule. */
  trigger: 'api' | 'schedule';
  /** A scheduled run's due time (ISO 8601 UTC, to the second): it keys the record, so a second delivery of the run records nothing. */
  scheduledTime?: string;
  outcome: 'succeeded' | 'failed';
  /** The params as given. */
  input: unknown;
  /** The rule's answer, when it succeeded and was small enough to keep (see `outputOmitted`). */
  output?: unknown;
  /** Set when the answer was larger than an execution keeps; the caller got it whole. */
  outputOmitted?: boolean;
  /** Why it failed: the engine's code and message. */
  error?: { code: string; message: string };
  durationMs: number;
  startedAt: string;
  finishedAt: string;
  /** When the record is deleted: the store keeps executions for a fixed time (its README says how long). */
  expiresAt: string;
}

/** How long an execution is kept: the store deletes its record (time to live) this long after it started. */
export const executionRetentionDays = 30;

export interface ExecutionStore {
  /**
   * Records an execution, with the time it will be kept until; returns the
   * record. With `once`, only if no execution of the same key (start time,
   * or scheduled time, and id) is recorded: undefined when one is.
   */
  putExecution(scope: ExecutionScope, execution: Omit<Execution, 'expiresAt'>, options?: { once?: boolean }): Promise<Execution | undefined>;
  /** One page of a rule's (or workflow's) executions not yet expired at `now`, newest first, with their total. */
  listExecutions(scope: ExecutionScope, page: { pageNo: number; pageSize: number }, now: string): Promise<Page<Execution>>;
}

/**
 * A rule's schedule on a branch as stored: what the last save asked for, and
 * how far the scheduler is known to follow it. Every write sets a state
 * other than `deployed` first, and the scheduler is called after it, so a
 * schedule the scheduler may hold is never missing from the store.
 */
export interface StoredRuleSchedule {
  schedule: StoredSchedule;
  /** As EventBridge Scheduler is sent it. */
  expression: string;
  /**
   * `deployed`: the scheduler holds it as stored. `pending`: saved, and the
   * scheduler may not hold it yet (the next save sends it again).
   * `deleting`: a delete began, and the scheduler may still hold it.
   */
  state: 'pending' | 'deployed' | 'deleting';
  revision: number;
  updatedAt: string;
}

export interface ScheduleStore {
  /** Read consistently: a save compares with what is stored. */
  getSchedule(scope: RuleScope): Promise<StoredRuleSchedule | undefined>;
  /** Writes if the stored revision is still `expectedRevision` (0: none stored); RevisionConflict otherwise. */
  putSchedule(scope: RuleScope, schedule: StoredRuleSchedule, expectedRevision: number): Promise<void>;
  /** Deletes if the stored revision is still `expectedRevision`; RevisionConflict otherwise. */
  deleteSchedule(scope: RuleScope, expectedRevision: number): Promise<void>;
  /** Every stored schedule, by a Scan of the whole table: for the local runtime's restart only, never a function's. */
  scanSchedules(): Promise<{ scope: RuleScope; schedule: StoredRuleSchedule }[]>;
}

export type TaskState = 'pending' | 'in-progress' | 'completed' | 'failed';

/** The states of a task that has not ended: a run may still take it, the sweeper may still end it. */
export const openTaskStates: TaskState[] = ['pending', 'in-progress'];
export const isOpenTask = (task: Pick<Task, 'taskState'>) => openTaskStates.includes(task.taskState);

export interface PullSummary {
  /** Per entity type: how the pull changed the branch. */
  rule: ChangeCounts;
  workflow: ChangeCounts;
  /** Top-level folders of the repository that hold no entities, ignored. */
  ignoredFolders: string[];
}

export interface ChangeCounts {
  added: number;
  updated: number;
  deleted: number;
  unchanged: number;
}

/** What a task that runs a workflow holds: the version it runs, its params, and the run when it ended. */
export interface WorkflowRunTask {
  workflowId: string;
  version: string;
  executionId: string;
  /** As JSON text: any JSON a caller sent stores as it came. */
  paramsJson: string;
  resultJson?: string;
}

/** A remote pull task (spec 2.3 and 3), or an asynchronous workflow run, with what users need to follow it. */
export interface Task {
  taskId: string;
  workspaceId: string;
  branch: string;
  taskState: TaskState;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  commit?: string;
  summary?: PullSummary;
  error?: string;
  /** While in progress: until when the current run holds it; a run found past it is taken as dead. */
  leaseUntil?: string;
  /** Identifies the run that holds the task, so only it can finish it. */
  runId?: string;
  /** When the sweeper may end it if it is still open; for a run, its lease, for a retry, after the next delivery. */
  dueAt?: string;
  /**
   * A pull's commit, set by a run before it writes the first entity: a task
   * that stopped with it set may have left the branch partly updated, so
   * the run that takes it over finishes the update, and failing it says so.
   */
  applyingCommit?: string;
  /** What the run that set `applyingCommit` planned to change: the summary of the pull, whichever run finishes writing it. */
  applyingSummary?: PullSummary;
  /** Set for a workflow run; a pull has none. */
  workflowRun?: WorkflowRunTask;
}

export interface RemoteConfig {
  url: string;
  credentialId?: string;
  updatedAt: string;
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
  transitionTask(taskId: string, from: TaskState[], change: Partial<Task>, options?: { runId?: string; leaseExpiredBefore?: string }): Promise<Task | undefined>;
  /** Open tasks (pending or in progress) whose deadline is before `now`: what the sweeper ends. */
  listOverdueTasks(now: string): Promise<string[]>;
  getRemote(workspaceId: string): Promise<RemoteConfig | undefined>;
  putRemote(workspaceId: string, remote: RemoteConfig): Promise<void>;
  /** The branch's current pull task, and its last pulled commit. */
  getBranchPull(workspaceId: string, branch: string): Promise<{ activeTaskId?: string; pulledCommit?: string } | undefined>;
  /** Makes `taskId` the branch's active task if the active one is still `expected`; false otherwise. */
  claimBranchPull(workspaceId: string, branch: string, taskId: string, expected: string | undefined): Promise<boolean>;
  /** Ends the branch's active task (if it is this one), recording the pulled commit when given. */
  releaseBranchPull(workspaceId: string, branch: string, taskId: string, pulledCommit?: string): Promise<void>;
}

export type Store = DirectoryStore & EntityStore & CredentialStore & IntegrationStore & NameClaimStore & TaskStore & ExecutionStore & ScheduleStore;

export class RevisionConflict extends Error {
  /** `what`: the item that changed, as people name it ("rule shipping-cost"). */
  constructor(readonly what: string) {
    super(`${what} changed while it was being written`);
  }
}

/** Tries of a read-modify-write that others keep changing under it, and the longest wait between two. */
export const revisionRetries = { attempts: 10, maxDelayMs: 200 } as const;

export const describeRef = (ref: EntityRef) => `${ref.entityType} ${ref.id}`;

/**
 * Runs a read-modify-write again when another writer got in between, after a
 * random wait that grows with each try (so that writers racing for one item
 * spread out instead of colliding again), `revisionRetries.attempts` times in
 * all; past that, the conflict is the caller's (lib/http answers it 409).
 */
export async function retryOnRevisionConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof RevisionConflict)) throw error;
      if (i >= revisionRetries.attempts) throw new RevisionConflict(error.what);
      const ceiling = Math.min(revisionRetries.maxDelayMs, 5 * 2 ** i);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
    }
  }
}

export type CredentialPlacement = 'header' | 'query';

/** An API-key credential as stored: the value only sealed (see lib/credentials/sealing.ts). */
export interface StoredCredential {
  id: string;
  workspaceId: string;
  name: string;
  type: 'apiKey';
  key: string;
  placement: CredentialPlacement;
  description: string;
  /** The value's last characters at most, for people to recognise it. */
  valueHint: string;
  /** Absent once revoked: a revoked credential can never be sent again. */
  secret?: SealedSecret;
  createdAt: string;
  updatedAt: string;
  rotatedAt?: string;
  revokedAt?: string;
  revision: number;
}

/** What bears a name unique in its workspace, case-insensitively. */
export type NamedKind = 'credential' | 'integration';

export interface NameClaim {
  /** The id of the credential or integration that holds the name. */
  holderId: string;
  claimedAt: string;
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
  putCredential(credential: StoredCredential, expectedRevision: number): Promise<void>;
}

/** A REST integration as stored: what the API-request steps that name it share. */
export interface StoredIntegration {
  id: string;
  workspaceId: string;
  name: string;
  type: 'restApi';
  /** http(s), without user name, password, query or fragment: step paths are joined to it. */
  baseUrl: string;
  /** Sent on every call, under the step's own headers. */
  headers: Record<string, string>;
  /** The credential placed on every call, when it has one. */
  credentialId?: string;
  timeoutMs: number;
  description: string;
  createdAt: string;
  updatedAt: string;
  revision: number;
}

export interface IntegrationStore {
  getIntegration(workspaceId: string, id: string): Promise<StoredIntegration | undefined>;
  /** Every integration of the workspace, by id. */
  listIntegrations(workspaceId: string): Promise<StoredIntegration[]>;
  /** Writes if the stored revision is still `expectedRevision` (0: must not exist); RevisionConflict otherwise. */
  putIntegration(integration: StoredIntegration, expectedRevision: number): Promise<void>;
  /** Deletes if the stored revision is still `expectedRevision`; RevisionConflict otherwise. */
  deleteIntegration(workspaceId: string, id: string, expectedRevision: number): Promise<void>;
}
