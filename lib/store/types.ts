/**
 * The store's public surface: what the domain may ask of persistence. The
 * DynamoDB adapter in `./dynamo` implements it; nothing outside `lib/store`
 * touches the SDK.
 */
import type { Audit, EntityKind, EntityRecord, EntityStatus, EntityType, VersionInfo } from '../entities/schema.ts';

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

/** The working copy of an entity as stored. */
export interface StoredEntity extends EntityRecord, Audit {
  /** Checksum of the latest published version, empty when never published. */
  publishedChecksum: string;
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

export interface EntityStore {
  listEntities(query: ListQuery): Promise<Page<Summary>>;
  getEntity(ref: EntityRef): Promise<StoredEntity | undefined>;
  getVersion(ref: EntityRef, version: string): Promise<EntityRecord | undefined>;
  listVersions(ref: EntityRef): Promise<VersionInfo[]>;
  /**
   * Writes a working copy if the stored revision is still `expectedRevision`
   * (0: the entity must not exist). Throws RevisionConflict otherwise.
   */
  putEntity(ref: EntityRef, entity: StoredEntity, expectedRevision: number, kind: EntityKind): Promise<void>;
  /**
   * Bulk path (pulls, benchmarks): writes many working copies of one branch and
   * type in batches, without revision checks, then recounts the branch.
   */
  writeEntities(scope: EntityScope, entities: { entity: StoredEntity; kind: EntityKind }[]): Promise<void>;
  /** Sets the branch's counters from the index: the repair after bulk writes. */
  recount(scope: EntityScope): Promise<void>;
  /** Stores a published snapshot unless that version exists; returns false when it did. */
  putVersion(ref: EntityRef, record: EntityRecord, info: VersionInfo): Promise<boolean>;
}

export type Store = DirectoryStore & EntityStore;

export class RevisionConflict extends Error {
  constructor(readonly ref: EntityRef) {
    super(`${ref.entityType} ${ref.id} changed while it was being written`);
  }
}
