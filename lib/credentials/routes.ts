/** The API-key credential operations: workspace-wide, so no branch. */
import { emptyQuery, pageQuerySchema } from '../http/queries.ts';
import type { Route } from '../http/routes.ts';
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
    method: 'POST',
    path: '/dev/v1/credentials',
    handler: 'create-credential',
    summary: 'Create an API-key credential for outbound calls',
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
    path: '/dev/v1/credentials',
    handler: 'list-credentials',
    summary: "List the workspace's credentials (values never shown)",
    query: pageQuerySchema,
  },
  getCredential: {
    ...credentialRead,
    operationId: 'getCredential',
    handler: 'get-credential',
    summary: 'Get a credential (its value never shown)',
  },
  updateCredential: {
    ...credentialRead,
    operationId: 'updateCredential',
    method: 'PATCH',
    handler: 'update-credential',
    summary: 'Rename a credential, change its key or placement, or rotate its value',
    body: updateCredentialSchema,
    tableAccess: 'readWrite',
    keyAccess: 'encryptDecrypt',
  },
  revokeCredential: {
    ...credentialRead,
    operationId: 'revokeCredential',
    method: 'DELETE',
    handler: 'revoke-credential',
    summary: 'Revoke a credential: it is never sent again',
    tableAccess: 'readWrite',
  },
  testCredential: {
    ...credentialRead,
    operationId: 'testCredential',
    method: 'POST',
    path: '/dev/v1/credentials/{credentialId}/test',
    handler: 'test-credential',
    summary: 'Call a provider endpoint with the credential placed, and explain the answer',
    body: testCredentialSchema,
    keyAccess: 'decrypt',
    outbound: true,
  },
} satisfies Record<string, Route>;
