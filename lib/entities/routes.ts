/** The rule and workflow operations: the legacy /dev list and get, kept for their old clients, and their /dev/v1 replacements. */
import { namedActorsPerAnswer } from '../auth/actors.ts';
import type { Route } from '../http/route.ts';
import { getQuerySchema, legacyListQuerySchema, listQuerySchema } from './queries.ts';

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

export const entityRoutes = {
  listEntities: {
    ...listEntities,
    operationId: 'listEntities',
    permission: 'read',
    handler: 'list-entities',
    summary: 'List rules or workflows of a branch',
    description:
      'One page of the rules or workflows of the branch (the Service-Branch header, else the default branch), filtered by name, kind and status and sorted as asked (by name unless told). Unknown query parameters are refused.',
    query: listQuerySchema,
  },
  listEntitiesLegacy: {
    ...listEntities,
    operationId: 'listEntitiesLegacy',
    permission: 'read',
    path: '/dev/{entityType}',
    handler: 'list-entities-legacy',
    summary: 'List rules or workflows of a branch (legacy path)',
    description:
      'One page of the rules or workflows of the branch, by name, filtered by name and kind. Kept for existing clients: use listEntities (/dev/v1), which also filters by status and sorts.',
    deprecated: true,
    query: legacyListQuerySchema,
  },
  getEntity: {
    ...getEntity,
    operationId: 'getEntity',
    permission: 'read',
    handler: 'get-entity',
    summary: 'Get a rule or workflow with its version history',
    description: `The working copy of a rule or workflow (or, with \`version\`, one of its published versions), with its definition, audit fields and the list of its published versions, each with who published it named for people (publishedByName: the first ${namedActorsPerAnswer} distinct keys met are named, others show their key id).`,
  },
  getEntityLegacy: {
    ...getEntity,
    operationId: 'getEntityLegacy',
    permission: 'read',
    path: '/dev/{entityType}/{entityId}',
    handler: 'get-entity-legacy',
    summary: 'Get a rule or workflow (legacy path)',
    description:
      'The working copy of a rule or workflow, or with `version` one of its published versions, without audit fields or version history. Kept for existing clients: use getEntity (/dev/v1).',
    deprecated: true,
  },
} satisfies Record<string, Route>;
