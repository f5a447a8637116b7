/** The REST integration operations: workspace-wide, like credentials, so no branch. */
import { opensCredentials } from '../credentials/route-access.ts';
import { pageQuerySchema } from '../http/paging.ts';
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';
import { createIntegrationSchema, integrationLimits, testIntegrationSchema, updateIntegrationSchema } from './schema.ts';

const integrationRead = {
  method: 'GET',
  path: '/dev/v1/integrations/{integrationId}',
  branch: 'none',
  query: emptyQuery,
  tableAccess: 'read',
} as const;

export const integrationRoutes = {
  createIntegration: {
    operationId: 'createIntegration',
    workspaceWide: true,
    permission: 'manage',
    method: 'POST',
    path: '/dev/v1/integrations',
    handler: 'create-integration',
    summary: 'Create a REST integration that API-request steps call',
    description:
      'Keeps a base URL, headers, a credential and a timeout under a name unique in the workspace; a step names the integration and a path under the base URL. The credential must be active. The same request again returns the integration it made (200) instead of a conflict.',
    branch: 'none',
    query: emptyQuery,
    body: createIntegrationSchema,
    tableAccess: 'readWrite',
  },
  listIntegrations: {
    ...integrationRead,
    operationId: 'listIntegrations',
    permission: 'read',
    path: '/dev/v1/integrations',
    handler: 'list-integrations',
    summary: "List the workspace's integrations",
    description: "One page of the workspace's REST integrations, by name.",
    query: pageQuerySchema,
  },
  getIntegration: {
    ...integrationRead,
    operationId: 'getIntegration',
    permission: 'read',
    handler: 'get-integration',
    summary: 'Get an integration',
    description: 'An integration by id: its base URL, headers, credential id and timeout.',
  },
  updateIntegration: {
    ...integrationRead,
    operationId: 'updateIntegration',
    workspaceWide: true,
    permission: 'manage',
    method: 'PATCH',
    handler: 'update-integration',
    summary: 'Change an integration',
    description: 'Changes only the fields given, keeping the id that steps name; `credentialId: null` detaches the credential, and a new one must be active.',
    body: updateIntegrationSchema,
    tableAccess: 'readWrite',
  },
  deleteIntegration: {
    ...integrationRead,
    operationId: 'deleteIntegration',
    workspaceWide: true,
    permission: 'manage',
    method: 'DELETE',
    handler: 'delete-integration',
    summary: 'Delete an integration',
    description:
      'Deletes the integration for good and frees its name, answering it as it was; steps that name it fail from then on. Deleting it again answers 404 integration_not_found.',
    tableAccess: 'readWrite',
  },
  testIntegration: {
    ...integrationRead,
    operationId: 'testIntegration',
    workspaceWide: true,
    permission: 'manage',
    method: 'POST',
    path: '/dev/v1/integrations/{integrationId}/test',
    handler: 'test-integration',
    summary: 'Call a path of the integration as a step would, and explain the answer',
    description: `Sends \`method\` to \`path\` under the base URL with the integration's headers and credential, within its timeout (at most ${integrationLimits.testTimeoutMs / 1000} s here), and reports the provider's status, what it means (401: the key is wrong or revoked, 403: valid but lacking the permission) and its JSON answer. A call that got no usable answer is a result too, with \`failure\` saying why; a path or URL that may not be called is a 400.`,
    body: testIntegrationSchema,
    ...opensCredentials,
    outbound: 'trying',
  },
} satisfies Record<string, Route>;
