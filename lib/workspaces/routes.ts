/** The workspace itself: its branches (the console's branch switcher lists them), and its API keys, managed over the API. */
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';
import { createKeyBody, updateKeyBody } from './keys.ts';

const keyRules =
  'Needs `manage`. A key gives no other key more than it has: no permission its own role lacks, no branch beyond its own. The last usable admin key (unexpired, limited to no branch) cannot be revoked, limited, expired or demoted. Changes hold on every function within 30 s (the directory cache).';

export const workspaceRoutes = {
  listBranches: {
    operationId: 'listBranches',
    permission: 'read',
    method: 'GET',
    path: '/dev/v1/branches',
    handler: 'list-branches',
    summary: "The workspace's branches",
    description:
      "Every branch of the key's workspace, the default branch (used when a request names none) first, then by name. Any of them may be named in Service-Branch.",
    branch: 'none',
    query: emptyQuery,
    tableAccess: 'read',
  },
  getCaller: {
    operationId: 'getCaller',
    permission: 'anyKey',
    method: 'GET',
    path: '/dev/v1/me',
    handler: 'get-caller',
    summary: 'What the calling key may do',
    description:
      "The key's id, owner and role, the permissions the role grants, the branches it is limited to (null: every branch), and its workspace. The console shows or hides each control from this and each operation's x-permission.",
    branch: 'none',
    query: emptyQuery,
    tableAccess: 'read',
  },
  createKey: {
    operationId: 'createKey',
    permission: 'manage',
    method: 'POST',
    path: '/dev/v1/keys',
    handler: 'create-key',
    summary: 'Make an API key',
    description: `Makes a key for the workspace with a role (reader, executor, editor, publisher, admin), an owner (the person or system it belongs to), optionally the branches it is limited to and when it expires. The answer holds the key itself, once: only its hash is kept. ${keyRules}`,
    branch: 'none',
    query: emptyQuery,
    body: createKeyBody,
    tableAccess: 'readWrite',
  },
  listKeys: {
    operationId: 'listKeys',
    permission: 'manage',
    method: 'GET',
    path: '/dev/v1/keys',
    handler: 'list-keys',
    summary: "The workspace's API keys",
    description: `Every key of the workspace, oldest first, with its role, owner, branches, expiry and state (active, expired, revoked); never a secret. ${keyRules}`,
    branch: 'none',
    query: emptyQuery,
    tableAccess: 'read',
  },
  getKey: {
    operationId: 'getKey',
    permission: 'manage',
    method: 'GET',
    path: '/dev/v1/keys/{keyId}',
    handler: 'get-key',
    summary: 'One API key',
    description: `A key of the workspace, without its secret. ${keyRules}`,
    branch: 'none',
    query: emptyQuery,
    tableAccess: 'read',
  },
  updateKey: {
    operationId: 'updateKey',
    permission: 'manage',
    method: 'PATCH',
    path: '/dev/v1/keys/{keyId}',
    handler: 'update-key',
    summary: "Change an API key's role, branches, label, owner or expiry",
    description: `Changes what is given (branches or expiresAt null takes the limit away). A revoked key cannot be changed (409 key_revoked). ${keyRules}`,
    branch: 'none',
    query: emptyQuery,
    body: updateKeyBody,
    tableAccess: 'readWrite',
  },
  revokeKey: {
    operationId: 'revokeKey',
    permission: 'manage',
    method: 'DELETE',
    path: '/dev/v1/keys/{keyId}',
    handler: 'revoke-key',
    summary: 'Revoke an API key',
    description: `Revokes the key for good; revoking it again answers it as it is. ${keyRules}`,
    branch: 'none',
    query: emptyQuery,
    tableAccess: 'readWrite',
  },
} satisfies Record<string, Route>;
