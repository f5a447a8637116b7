/**
 * The store's public surface: what the domain may ask of persistence. The
 * DynamoDB adapter in `./dynamo` implements it; nothing outside `lib/store`
 * touches the SDK.
 */
import type { SealedSecret } from '../credentials/sealing.ts';
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

export type Store = DirectoryStore & EntityStore & CredentialStore;

export class RevisionConflict extends Error {
  /** `what`: the item that changed, as people name it ("rule shipping-cost"). */
  constructor(what: string) {
    super(`${what} changed while it was being written`);
  }
}

export const describeRef = (ref: EntityRef) => `${ref.entityType} ${ref.id}`;

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

export interface CredentialStore {
  getCredential(workspaceId: string, id: string, options?: { withSecret?: boolean }): Promise<StoredCredential | undefined>;
  /** Every credential of the workspace, without secrets, by id. */
  listCredentials(workspaceId: string): Promise<StoredCredential[]>;
  /** Writes if the stored revision is still `expectedRevision` (0: must not exist); RevisionConflict otherwise. */
  putCredential(credential: StoredCredential, expectedRevision: number): Promise<void>;
  /**
   * Claims a name (case-insensitive) for a credential unless another holds it;
   * returns the holder. With `replacing`, takes the claim over from that holder only.
   */
  claimCredentialName(workspaceId: string, name: string, credentialId: string, replacing?: string): Promise<string>;
  /** Gives a name up, if this credential still holds it. */
  releaseCredentialName(workspaceId: string, name: string, credentialId: string): Promise<void>;
}
