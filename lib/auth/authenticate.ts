import { errors } from '../vocabulary/errors.ts';
import type { ApiKey, DirectoryStore, Workspace } from '../store/types.ts';
import { hashApiKey } from './api-key.ts';
import { defaultRole, type Role } from '../vocabulary/permissions.ts';

export interface Principal {
  keyId: string;
  workspace: Workspace;
  /** What the key may do; a key made before roles is an admin. */
  role: Role;
  /** Who the key belongs to; the key id for a key made before owners. */
  owner: string;
  /** The branches the key is limited to; absent, every branch. */
  branches?: readonly string[];
}

/** Who a key belongs to, as approvals and the audit log name them: its owner, or for a key made before owners, its id. */
export const keyOwner = (key: Pick<ApiKey, 'owner' | 'keyId'>) => key.owner ?? key.keyId;

/** Whether a key may still be used: neither revoked nor expired at `now`. */
export const isUsable = (key: Pick<ApiKey, 'revokedAt' | 'expiresAt'>, now = Date.now()) =>
  !key.revokedAt && !(key.expiresAt && Date.parse(key.expiresAt) <= now);

/** Resolves a `Service-API-Key` value to its workspace, or throws the 401 the spec prescribes. */
export async function authenticate(directory: DirectoryStore, apiKey: string | undefined, now = Date.now()): Promise<Principal> {
  if (!apiKey || !apiKey.trim()) throw errors.apiKeyEmpty();
  const key = await directory.getApiKeyByHash(hashApiKey(apiKey.trim()));
  if (!key || key.revokedAt) throw errors.apiKeyInvalid();
  if (!isUsable(key, now)) throw errors.apiKeyExpired();
  const workspace = await directory.getWorkspace(key.workspaceId);
  if (!workspace) throw errors.apiKeyInvalid();
  return { keyId: key.keyId, workspace, role: key.role ?? defaultRole, owner: keyOwner(key), ...(key.branches && { branches: key.branches }) };
}
