import { errors } from '../vocabulary/errors.ts';
import type { DirectoryStore, Workspace } from '../store/types.ts';
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

/** Resolves a `Service-API-Key` value to its workspace, or throws the 401 the spec prescribes. */
export async function authenticate(directory: DirectoryStore, apiKey: string | undefined, now = Date.now()): Promise<Principal> {
  if (!apiKey || !apiKey.trim()) throw errors.apiKeyEmpty();
  const key = await directory.getApiKeyByHash(hashApiKey(apiKey.trim()));
  if (!key || key.revokedAt) throw errors.apiKeyInvalid();
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) throw errors.apiKeyExpired();
  const workspace = await directory.getWorkspace(key.workspaceId);
  if (!workspace) throw errors.apiKeyInvalid();
  return { keyId: key.keyId, workspace, role: key.role ?? defaultRole, owner: key.owner ?? key.keyId, ...(key.branches && { branches: key.branches }) };
}
