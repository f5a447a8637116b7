/**
 * The route table: the one list of operations. The CDK stack makes an API
 * Gateway method and a function from each entry, the local runtime serves the
 * same entries with the same handlers, and the OpenAPI document is written from
 * it (with the response schemas of `lib/openapi/responses.ts`, kept apart so
 * that the functions do not bundle them).
 */
import * as z from 'zod/mini';
import { createCredentialSchema, testCredentialSchema, updateCredentialSchema } from '../credentials/schema.ts';
import { getQuerySchema, legacyListQuerySchema, listQuerySchema, pageQuerySchema } from '../entities/queries.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  operationId: string;
  method: HttpMethod;
  /** In API Gateway's form: `{name}` is a path parameter. */
  path: string;
  /** The file in `functions/` (without extension) whose `handler` serves the route. */
  handler: string;
  summary: string;
  deprecated?: boolean;
  branch: 'none' | 'optional' | 'required';
  query: z.ZodMiniObject;
  /** The JSON body it takes, if any. */
  body?: z.ZodMiniObject;
  /** What the function may do to the table; the stack grants exactly this. */
  tableAccess: 'read' | 'readWrite';
  /** What it may do with the credentials key: seal values, open them, or both. */
  keyAccess?: 'encrypt' | 'decrypt' | 'encryptDecrypt';
  /** Whether it calls out to providers (through lib/outbound). */
  outbound?: boolean;
}

const emptyQuery = z.object({});

const credentialRead = {
  method: 'GET',
  path: '/dev/v1/credentials/{credentialId}',
  branch: 'none',
  query: emptyQuery,
  tableAccess: 'read',
} as const;

const listEntities = {
  path: '/dev/v1/{entityType}',
  method: 'GET',
  branch: 'optional',
  tableAccess: 'read',
} as const;

const getEntity = {
  path: '/dev/v1/{entityType}/{entityId}',
  method: 'GET',
  branch: 'optional',
  query: getQuerySchema,
  tableAccess: 'read',
} as const;

export const routes = {
  listEntities: {
    ...listEntities,
    operationId: 'listEntities',
    handler: 'list-entities',
    summary: 'List rules or workflows of a branch',
    query: listQuerySchema,
  },
  listEntitiesLegacy: {
    ...listEntities,
    operationId: 'listEntitiesLegacy',
    path: '/dev/{entityType}',
    handler: 'list-entities-legacy',
    summary: 'List rules or workflows of a branch (legacy path)',
    deprecated: true,
    query: legacyListQuerySchema,
  },
  getEntity: {
    ...getEntity,
    operationId: 'getEntity',
    handler: 'get-entity',
    summary: 'Get a rule or workflow with its version history',
  },
  getEntityLegacy: {
    ...getEntity,
    operationId: 'getEntityLegacy',
    path: '/dev/{entityType}/{entityId}',
    handler: 'get-entity-legacy',
    summary: 'Get a rule or workflow (legacy path)',
    deprecated: true,
  },
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

export const routeList: readonly Route[] = Object.values(routes);
