/** Workspace administration: what the CLI and the demo seed do. */
import { generateApiKey, generateKeyId, hashApiKey } from '../auth/api-key.ts';
import { defaultRole, isRole, roleNames, type Role } from '../vocabulary/permissions.ts';
import type { ApiKey, DirectoryStore, Workspace } from '../store/types.ts';
import { isValidBranchName } from '../vocabulary/branch-name.ts';

/** What a workspace id may be: it is part of keys and of schedule group names. */
export const workspaceIdPattern = /^[a-z0-9][a-z0-9-]{0,62}$/;

const now = () => new Date().toISOString();

function assertBranchName(name: string) {
  if (!isValidBranchName(name)) throw new Error(`"${name}" is not a valid branch name (git ref rules)`);
}

/**
 * Creates a workspace with its default branch. Safe to retry: the same create
 * again answers the stored workspace (and makes its default branch, should a
 * try have stopped before it). A create that asks for another name or default
 * branch than the stored workspace has is refused: answering it would hand the
 * caller a workspace other than the one it asked for.
 */
export async function createWorkspace(store: DirectoryStore, input: { id: string; name?: string; defaultBranch?: string }): Promise<Workspace> {
  if (!workspaceIdPattern.test(input.id)) throw new Error(`"${input.id}" is not a valid workspace id: lower-case letters, digits and "-", at most 63`);
  const asked = { name: input.name ?? input.id, defaultBranch: input.defaultBranch ?? 'main' };
  assertBranchName(asked.defaultBranch);
  const createdAt = now();
  const workspace = await store.createWorkspace({ id: input.id, ...asked, createdAt });
  const differences = (['name', 'defaultBranch'] as const).filter((field) => workspace[field] !== asked[field]);
  if (differences.length > 0) {
    const described = differences.map((field) => `${fieldLabels[field]} "${workspace[field]}" (not "${asked[field]}")`).join(' and ');
    throw new Error(`workspace "${input.id}" already exists, with ${described}: nothing changed`);
  }
  await store.createBranch({ workspaceId: workspace.id, name: workspace.defaultBranch, createdAt });
  return workspace;
}

const fieldLabels = { name: 'name', defaultBranch: 'default branch' };

async function requireWorkspace(store: DirectoryStore, workspaceId: string) {
  const workspace = await store.getWorkspace(workspaceId);
  if (!workspace) throw new Error(`no workspace "${workspaceId}"`);
  return workspace;
}

export async function addBranch(store: DirectoryStore, workspaceId: string, name: string) {
  assertBranchName(name);
  await requireWorkspace(store, workspaceId);
  return store.createBranch({ workspaceId, name, createdAt: now() });
}

/**
 * Makes an API key for a workspace. The key is returned once; only its hash is
 * kept. `secret` lets the local runtime use a key given in its environment.
 */
export async function createApiKey(
  store: DirectoryStore,
  workspaceId: string,
  options: { label?: string; owner?: string; role?: string; branches?: string[]; expiresAt?: string; secret?: string } = {},
): Promise<{ key: string; record: ApiKey }> {
  await requireWorkspace(store, workspaceId);
  if (options.expiresAt !== undefined && Number.isNaN(Date.parse(options.expiresAt))) throw new Error(`"${options.expiresAt}" is not a date`);
  if (options.role !== undefined && !isRole(options.role)) throw new Error(`"${options.role}" is not a role: use ${roleNames.join(', ')}`);
  for (const branch of options.branches ?? [])
    if (!(await store.getBranch(workspaceId, branch))) throw new Error(`workspace "${workspaceId}" has no branch "${branch}"`);
  const key = options.secret ?? generateApiKey();
  const existing = await store.getApiKeyByHash(hashApiKey(key));
  if (existing) {
    if (existing.workspaceId !== workspaceId) throw new Error('that key belongs to another workspace');
    return { key, record: existing };
  }
  const record: ApiKey = {
    keyId: generateKeyId(),
    workspaceId,
    label: options.label ?? '',
    role: (options.role as Role | undefined) ?? defaultRole,
    ...(options.owner && { owner: options.owner }),
    ...(options.branches?.length && { branches: [...new Set(options.branches)] }),
    createdAt: now(),
    ...(options.expiresAt && { expiresAt: new Date(options.expiresAt).toISOString() }),
  };
  await store.createApiKey(hashApiKey(key), record);
  return { key, record };
}

export async function revokeApiKey(store: DirectoryStore, workspaceId: string, keyId: string) {
  const key = await store.updateApiKey(workspaceId, keyId, { revokedAt: now() });
  if (!key) throw new Error(`workspace "${workspaceId}" has no key "${keyId}"`);
  return key;
}

export async function expireApiKey(store: DirectoryStore, workspaceId: string, keyId: string, at = now()) {
  if (Number.isNaN(Date.parse(at))) throw new Error(`"${at}" is not a date`);
  const key = await store.updateApiKey(workspaceId, keyId, { expiresAt: new Date(at).toISOString() });
  if (!key) throw new Error(`workspace "${workspaceId}" has no key "${keyId}"`);
  return key;
}
