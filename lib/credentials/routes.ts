/** The API-key credential operations: workspace-wide, so no branch. */
import { pageQuerySchema } from '../http/paging.ts';
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';
import { opensCredentials } from './route-access.ts';
import { createCredentialSchema, testCredentialSchema, updateCredentialSchema } from './schema.ts';

const credentialRead = {
  method: 'GET',
  path: '/dev/v1/credentials/{credentialId}',
  branch: 'none',
  query: emptyQuery,
  tableAccess: 'read',
} as const;

export const credentialRoutes = {
  createCredential: {
    operationId: 'createCredential',
    workspaceWide: true,
    permission: 'manage',
    method: 'POST',
    path: '/dev/v1/credentials',
    handler: 'create-credential',
    summary: 'Create an API-key credential for outbound calls',
    description:
      "Stores a provider's API key, sealed, under a name unique in the workspace; it is sent in the header (or query parameter) `key`. The same request again returns the credential it made (200) instead of a conflict.",
    branch: 'none',
    query: emptyQuery,
    body: createCredentialSchema,
    tableAccess: 'readWrite',
    // Decrypt too: a retried create compares the value it sent with the one stored.
    keyAccess: 'encryptDecrypt',
  },
  listCredentials: {
    ...credentialRead,
    operationId: 'listCredentials',
    permission: 'read',
    path: '/dev/v1/credentials',
    handler: 'list-credentials',
    summary: "List the workspace's credentials (values never shown)",
    description: "One page of the workspace's credentials, by name, revoked ones included. A value shows as its last characters at most.",
    query: pageQuerySchema,
  },
  getCredential: {
    ...credentialRead,
    operationId: 'getCredential',
    permission: 'read',
    handler: 'get-credential',
    summary: 'Get a credential (its value never shown)',
    description: 'A credential by id: its name, key, placement and status, and a hint of its value.',
  },
  updateCredential: {
    ...credentialRead,
    operationId: 'updateCredential',
    workspaceWide: true,
    permission: 'manage',
    method: 'PATCH',
    handler: 'update-credential',
    summary: 'Rename a credential, change its key or placement, or rotate its value',
    description:
      'Changes only the fields given, keeping the id that steps and the remote refer to; a new `value` rotates the key (rotatedAt is set). A revoked credential cannot be changed.',
    body: updateCredentialSchema,
    tableAccess: 'readWrite',
    keyAccess: 'encryptDecrypt',
  },
  revokeCredential: {
    ...credentialRead,
    operationId: 'revokeCredential',
    workspaceWide: true,
    permission: 'manage',
    method: 'DELETE',
    handler: 'revoke-credential',
    summary: 'Revoke a credential: it is never sent again',
    description: 'Deletes the sealed value for good and frees the name; the credential stays listed as revoked. Revoking again changes nothing.',
    tableAccess: 'readWrite',
  },
  testCredential: {
    ...credentialRead,
    operationId: 'testCredential',
    workspaceWide: true,
    permission: 'manage',
    method: 'POST',
    path: '/dev/v1/credentials/{credentialId}/test',
    handler: 'test-credential',
    summary: 'Call a provider endpoint with the credential placed, and explain the answer',
    description:
      "Calls `url` with the key placed as configured and reports the provider's status and what it means for the key (401: wrong or revoked, 403: lacks the permission). A call that got no answer is a result too, with `failure` saying why; a URL that may not be called is a 400.",
    body: testCredentialSchema,
    ...opensCredentials,
    outbound: 'trying',
  },
} satisfies Record<string, Route>;
