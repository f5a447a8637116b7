/**
 * The OpenAPI 3.1 document, written from the route table, the zod schemas
 * that validate requests, the errors each function can raise (found in its
 * code, ./raised-errors.ts) and the answers API Gateway gives itself
 * (lib/http/gateway-responses.ts), so that every status and error code the
 * stack can answer is listed where it can occur.
 */
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { safeParse } from 'zod/v4/core';
import { anyKey, grants, permissionMeaning, permissions, roleNames, type Permission, type Role } from '../vocabulary/permissions.ts';
import { stageName } from '../deployment/names.ts';
import { entityTypes } from '../vocabulary/kinds.ts';
import { entityIdSchema } from '../vocabulary/records.ts';
import type { FailedCase, FieldIssue, PathProblem } from '../vocabulary/errors.ts';
import { strictPathPrefix } from '../http/input.ts';
import { gatewayResponses, methodNotAllowed, routeNotFound, type GatewayAnswer } from '../http/gateway-responses.ts';
import { areas, routeList } from '../api/routes.ts';
import { formatNames } from '../interchange/format-contract.ts';
import type { Route } from '../http/route.ts';
import { branchNamePattern, forbiddenBranchForms, maxBranchNameBytes } from '../vocabulary/branch-name.ts';
import { raisedErrors, type RaisedError } from './raised-errors.ts';
import { responses } from './responses/index.ts';
import { replayReportSchema } from './responses/replay.ts';

type JsonSchema = Record<string, unknown>;

const rolesGranting = (permission: Permission) =>
  roleNames
    .filter((role) => grants(role, permission))
    .map((role) => `\`${role}\``)
    .join(', ');

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const count = (description: string) => z.number().int().describe(description);

const successEnvelope = (data: z.ZodType) =>
  z.object({
    code: z.literal('').describe('empty on success'),
    data,
    message: z.literal('').describe('empty on success'),
    pageNo: count('current page; 0 when not paginated'),
    pageSize: count('items per page; 0 when not paginated'),
    totalCount: count('matching items; 0 when not paginated'),
    totalPages: count('pages; 0 when not paginated'),
  });

const unpaged = z.literal(0).describe('0: a failure is not paginated');
const errorEnvelope = z.object({
  code: z.string().min(1).describe('what failed, as a stable code (each response lists those it can carry)'),
  data: z.unknown().describe('null for 401, field details for invalid_request, otherwise {}'),
  message: z.string().min(1).describe('what went wrong and what to do, for people'),
  pageNo: unpaged,
  pageSize: unpaged,
  totalCount: unpaged,
  totalPages: unpaged,
});

/** `data` of invalid_request: one entry per field at fault. */
const fieldIssues = z.object({
  errors: z.array(z.object({ in: z.enum(['path', 'query', 'header', 'body']), field: z.string(), message: z.string() })),
}) satisfies z.ZodType<{ errors: FieldIssue[] }>;

/** `data` of publish_refused and rule_invalid: the rule's problems by path. */
const pathProblems = z.object({
  problems: z.array(z.object({ path: z.string().describe('where in the record: definition.rules[2].when[0]'), message: z.string() })),
}) satisfies z.ZodType<{ problems: PathProblem[] }>;

/** `data` of tests_failed: each failing test case. */
const failedCases = z.object({
  failures: z.array(
    z.object({
      name: z.string(),
      expected: z.unknown(),
      actual: z.unknown().describe('what the rule answered; null when it raised an error'),
      error: z.string().optional().describe('the error it raised'),
    }),
  ),
}) satisfies z.ZodType<{ failures: FailedCase[] }>;

/** `data` of forbidden when the key's role lacks the operation's permission. */
const missingPermission = z.object({ permission: z.enum(permissions), role: z.enum(roleNames as [Role, ...Role[]]) });

/** `data` of forbidden when the key is limited to other branches. */
const branchLimit = z.object({ branch: z.string(), branches: z.array(z.string()).describe('the branches the key may use') });

/** `data` of forbidden when the key is limited to branches and the operation changes what the whole workspace shares. */
const workspaceWide = z.object({ workspaceWide: z.literal(true), branches: z.array(z.string()).describe('the branches the key is limited to') });

/** `data` of branch_protected: the branch. */
const protectedBranch = z.object({ branch: z.string() });
/** `data` of self_approval: the author, whom no key of theirs may approve for. */
const requestAuthor = z.object({ owner: z.string() });
/** `data` of personal_key_owner: the key. */
const keyRef = z.object({ keyId: z.string() });
/** `data` of forbidden when a person has no role in the workspace named. */
const membership = z.object({ workspace: z.string().describe('the workspace Service-Workspace named') });
/** `data` of owner_fixed: the key, and when it first proposed or approved. */
const fixedOwner = z.object({ keyId: z.string(), ownerFixedAt: z.string() });
/** `data` of change_request_closed: what closed it. */
const requestState = z.object({ state: z.enum(['rejected', 'published']) });
/** `data` of approvals_missing: the approvals it has and the branch requires. */
const approvalCount = z.object({ approvals: z.number().int(), required: z.number().int() });

/** `data` of import_refused: the file's problems and what it holds that no record keeps, each by file and element. */
const importProblems = z.object({
  problems: pathProblems.shape.problems,
  notCarried: z.array(z.object({ path: z.string(), message: z.string() })).describe('elements of the file no record keeps, and why'),
});
/** `data` of file_refused: the bound the file passed (lib/interchange/format-contract.ts). */
const fileBound = z.object({
  bound: z.string().describe('maxRows, maxColumns, maxTables, maxDepth, maxZipEntries, maxUnzippedBytes, maxZipRatio, doctype, encoding or format'),
});
/** `data` of format_cannot_hold: the format asked. */
const fileFormat = z.object({ format: z.enum(formatNames) });
/** `data` of unsupported_media_type: the content types an import takes. */
const acceptedTypes = z.object({ accepted: z.array(z.string()) });
/** `data` of checksum_required: the draft an import would replace. */
const draftId = z.object({ id: z.string() });
/** `data` of replay_gate: the replay the publish ran (a completed task) and its report. */
const replayRefusal = z.object({
  taskId: z.string().describe('the replay, at GET /dev/v1/tasks/{taskId}: publish with acknowledgeReplay naming it to go ahead'),
  report: replayReportSchema,
});

const schemaRef = (name: keyof typeof componentSchemas) => ({ $ref: `#/components/schemas/${name}` });
const componentSchemas = {
  ErrorEnvelope: jsonSchema(errorEnvelope, 'output'),
  FieldIssues: jsonSchema(fieldIssues, 'output'),
  PathProblems: jsonSchema(pathProblems, 'output'),
  FailedCases: jsonSchema(failedCases, 'output'),
  MissingPermission: jsonSchema(missingPermission, 'output'),
  BranchLimit: jsonSchema(branchLimit, 'output'),
  WorkspaceWide: jsonSchema(workspaceWide, 'output'),
  ProtectedBranch: jsonSchema(protectedBranch, 'output'),
  RequestAuthor: jsonSchema(requestAuthor, 'output'),
  RequestState: jsonSchema(requestState, 'output'),
  FixedOwner: jsonSchema(fixedOwner, 'output'),
  Membership: jsonSchema(membership, 'output'),
  KeyRef: jsonSchema(keyRef, 'output'),
  ApprovalCount: jsonSchema(approvalCount, 'output'),
  ImportProblems: jsonSchema(importProblems, 'output'),
  FileBound: jsonSchema(fileBound, 'output'),
  FileFormat: jsonSchema(fileFormat, 'output'),
  AcceptedTypes: jsonSchema(acceptedTypes, 'output'),
  DraftId: jsonSchema(draftId, 'output'),
  ReplayRefusal: jsonSchema(replayRefusal, 'output'),
  Empty: jsonSchema(z.strictObject({}).describe('{}'), 'output'),
};

/** The component that describes an error's details, by the one field its `data` has. */
const detailSchemas = {
  errors: 'FieldIssues',
  // Before problems: an import's refusal lists what was not carried beside its problems.
  notCarried: 'ImportProblems',
  problems: 'PathProblems',
  failures: 'FailedCases',
  permission: 'MissingPermission',
  // Before branches: it names the key's branches too.
  workspaceWide: 'WorkspaceWide',
  branches: 'BranchLimit',
  // After branches: a branch limit names a branch too.
  branch: 'ProtectedBranch',
  owner: 'RequestAuthor',
  state: 'RequestState',
  ownerFixedAt: 'FixedOwner',
  // After ownerFixedAt: it names the key too.
  keyId: 'KeyRef',
  workspace: 'Membership',
  approvals: 'ApprovalCount',
  bound: 'FileBound',
  format: 'FileFormat',
  accepted: 'AcceptedTypes',
  id: 'DraftId',
  report: 'ReplayRefusal',
} as const satisfies Record<string, keyof typeof componentSchemas>;

const requestIdHeaders = { 'x-request-id': { description: 'the request id, as in the service logs', schema: { type: 'string' } } };

/**
 * A failure response whose envelope carries one of `codes`, with `data` as
 * one of `data`. The envelope is narrowed with allOf rather than beside its
 * $ref, which many tools still ignore.
 */
const failure = (description: string, codes: string[], data: JsonSchema[], withRequestId: boolean) => ({
  description,
  ...(withRequestId && { headers: requestIdHeaders }),
  content: {
    'application/json': {
      schema: { allOf: [schemaRef('ErrorEnvelope'), { properties: { code: { enum: codes }, data: data.length === 1 ? data[0] : { anyOf: data } } }] },
    },
  },
});

const byStatus = <T extends { status: number }>(items: Iterable<T>) => {
  const groups = new Map<number, T[]>();
  for (const item of items) groups.set(item.status, [...(groups.get(item.status) ?? []), item]);
  return groups;
};

/** What API Gateway answers itself, by status: before any function runs, or when one fails or is slow. */
const gatewayAnswers = [...new Set([...Object.values(gatewayResponses), methodNotAllowed])];
const gatewayByStatus = byStatus(gatewayAnswers);
/** What it can answer to a request for an operation: all but route_not_found, which answers paths that have none. */
const operationGatewayByStatus = byStatus(gatewayAnswers.filter((answer) => answer !== routeNotFound));
const gatewayRef = (status: number) => ({ $ref: `#/components/responses/Gateway${status}` });
const describeGateway = (answers: GatewayAnswer[]) => answers.map((a) => `${a.code} (${a.message.replace(/\.$/, '')})`).join(', ');
const gatewayResponseComponents = Object.fromEntries(
  [...gatewayByStatus]
    .sort(([a], [b]) => a - b)
    .map(([status, answers]) => [
      `Gateway${status}`,
      failure(
        `${STATUS_CODES[status]}, from API Gateway itself: ${describeGateway(answers)}.`,
        answers.map((a) => a.code),
        [schemaRef('Empty')],
        // Gateway responses cannot carry the request id; the 405 mock sets it.
        answers.includes(methodNotAllowed),
      ),
    ]),
);

/** Errors of the Service-Branch header: the shared middleware raises them only where the route takes the header. */
const branchErrorModes: Partial<Record<RaisedError['name'], readonly Route['branch'][]>> = {
  branchRequired: ['required'],
  invalidBranch: ['optional', 'required'],
  branchNotFound: ['optional', 'required'],
};

/** Operations under this prefix refuse unknown query parameters and body fields (lib/http/endpoint.ts). */

const detailsOf = (data: unknown) =>
  typeof data === 'object' && data !== null ? Object.entries(detailSchemas).find(([field]) => field in data)?.[1] : undefined;

function failureResponses(route: Route, raised: RaisedError[]) {
  const fromFunction = byStatus(
    raised.filter((error) => (branchErrorModes[error.name]?.includes(route.branch) ?? true) && (error.name !== 'workspaceWide' || route.workspaceWide)),
  );
  const statuses = [...new Set([...fromFunction.keys(), ...operationGatewayByStatus.keys()])].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => {
      const own = fromFunction.get(status);
      if (!own) return [status, gatewayRef(status)];
      const gateway = operationGatewayByStatus.get(status) ?? [];
      const dataOf = (error: RaisedError) => (error.data === null ? 'null' : (!route.bareErrors && detailsOf(error.data)) || 'Empty');
      const data = [...new Set([...own.map(dataOf), ...(gateway.length ? ['Empty' as const] : [])])].sort();
      const codes = [...new Set(own.map((e) => e.code))].sort();
      const notes = [
        codes.includes('invalid_request') && !route.bareErrors && "invalid_request lists each field's problem in data.errors",
        codes.includes('invalid_request') &&
          route.path.startsWith(strictPathPrefix) &&
          'an unknown query parameter or body field is refused with invalid_request naming it',
        data.includes('PathProblems') && "data.problems lists the rule's problems by path",
        data.includes('FailedCases') && 'data.failures lists each failing test case with what it expected and what came',
        data.includes('ReplayRefusal') && "data.report is the replay gate's report, data.taskId its task",
        data.includes('MissingPermission') && "forbidden names the permission the key's role lacks in data.permission",
        data.includes('BranchLimit') && 'forbidden names the branch and the branches the key is limited to in data.branch and data.branches',
        data.includes('WorkspaceWide') &&
          'forbidden with data.workspaceWide: the key is limited to branches (data.branches), and this changes or sends out what the whole workspace shares',
        data.includes('null') && 'data is null',
        route.bareErrors && status !== 401 && 'data is {}',
        gateway.length && `from API Gateway itself: ${describeGateway(gateway)}`,
      ].filter(Boolean);
      const description = `${STATUS_CODES[status]}: ${codes.join(', ')}${notes.length ? `; ${notes.join('; ')}` : ''}.`;
      return [
        status,
        failure(
          description,
          [...new Set([...codes, ...gateway.map((a) => a.code)])].sort(),
          data.map((d) => (d === 'null' ? { type: 'null' } : schemaRef(d))),
          true,
        ),
      ];
    }),
  );
}

const pathParameterSchemas = (route: Route): Record<string, z.ZodType> => ({
  entityType: z.enum(route.entityTypes ?? entityTypes),
  entityId: entityIdSchema,
  credentialId: z.string(),
  integrationId: z.string(),
  taskId: z.string(),
});

/** The Service-Branch header's schema: the two patterns `isValidBranchName` tests, and its bound. */
const branchNameSchema = {
  type: 'string',
  minLength: 1,
  // JSON Schema counts characters, each at least one byte: the byte bound itself is in the description.
  maxLength: maxBranchNameBytes,
  allOf: [{ pattern: branchNamePattern.source }, { not: { pattern: forbiddenBranchForms.source } }],
};

function operation(route: Route, tag: string, raised: RaisedError[]) {
  const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: jsonSchema(pathParameterSchemas(route)[name!] ?? z.string(), 'input'),
  }));
  const queryParameters = Object.entries(route.query.shape).map(([name, schema]) => {
    const { description, ...rest } = jsonSchema(schema as z.ZodType, 'input');
    return { name, in: 'query', required: !safeParse(schema, undefined).success, description, schema: rest };
  });
  const branch =
    route.branch === 'none'
      ? []
      : [
          {
            name: 'Service-Branch',
            in: 'header',
            required: route.branch === 'required',
            description: `The branch: a git branch name (as \`git check-ref-format --branch\` accepts), at most ${maxBranchNameBytes} bytes in UTF-8. ${route.branch === 'optional' ? "The workspace's default branch when absent; an empty value counts as absent." : 'An empty value counts as absent (branch_required).'}`,
            schema: branchNameSchema,
          },
        ];
  const response: (typeof responses)[keyof typeof responses] = responses[route.operationId as keyof typeof responses];
  const success =
    'file' in response
      ? {
          description: response.file.description,
          headers: { ...requestIdHeaders, ...response.file.headers },
          content: Object.fromEntries(
            ([] as string[]).concat(response.file.contentType).map((type) => [type, { schema: jsonSchema(response.file.schema, 'output') }]),
          ),
        }
      : 'body' in response || 'data' in response
        ? {
            description: 'success',
            headers: requestIdHeaders,
            content: {
              'application/json': { schema: 'body' in response ? jsonSchema(response.body, 'output') : jsonSchema(successEnvelope(response.data), 'output') },
            },
          }
        : undefined; // an operation that only queues answers 202 alone
  return {
    operationId: route.operationId,
    summary: route.summary,
    description:
      route.permission === 'public'
        ? route.description
        : route.permission === anyKey
          ? `${route.description}\n\nAny valid key may call it, whatever its role.`
          : `${route.description}\n\nNeeds the permission \`${route.permission}\` (${permissionMeaning[route.permission]}), which the roles ${rolesGranting(route.permission)} grant.`,
    ...(route.permission !== 'public' && { 'x-permission': route.permission }),
    tags: [tag],
    ...(route.deprecated && { deprecated: true }),
    // An operation that cannot answer 401 never looks at the key.
    ...(!raised.some((error) => error.status === 401) && { security: [] }),
    parameters: [...pathParameters, ...branch, ...queryParameters],
    ...(route.upload && {
      requestBody: {
        required: true,
        description: route.upload.description,
        content: Object.fromEntries(route.upload.contentTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
      },
    }),
    ...(route.body && {
      requestBody: {
        required: !safeParse(route.body, undefined).success,
        content: { 'application/json': { schema: jsonSchema(route.body as unknown as z.ZodType, 'input') } },
      },
    }),
    responses: {
      ...(success && { 200: success }),
      ...('created' in response && { 201: { ...success, description: 'created' } }),
      ...('accepted' in response &&
        response.accepted && {
          202: {
            description: 'accepted: queued, to follow',
            headers: requestIdHeaders,
            content: { 'application/json': { schema: jsonSchema(successEnvelope(response.accepted), 'output') } },
          },
        }),
      ...failureResponses(route, raised),
    },
  };
}

export function openApiDocument() {
  const raised = raisedErrors(routeList);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const area of areas)
    for (const route of Object.values(area.routes) as Route[])
      (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, area.name, raised.get(route.operationId)!);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rule and workflow management API',
      version: '1.0.0',
      description:
        'Rules and workflows of workspace branches, the credentials sent to providers and the REST integrations that send them, and pulls from a Git remote. Every response but this document is the envelope. The /dev paths are kept for compatibility; /dev/v1 replaces them and refuses unknown query parameters and body fields.',
    },
    servers: [
      {
        url: `https://{apiId}.execute-api.{region}.amazonaws.com/${stageName}`,
        description: 'The deployed stack (`npx cdk deploy` prints this URL as ApiUrl)',
        variables: {
          apiId: { default: 'abcdef1234', description: "the REST API's id" },
          region: { default: 'us-east-1', description: "the stack's AWS region" },
        },
      },
      { url: 'http://127.0.0.1:{port}', description: 'The local runtime (`npm start`)', variables: { port: { default: '3000', description: 'its PORT' } } },
    ],
    tags: areas.map(({ name, description }) => ({ name, description })),
    // A key, or a person's ID token with the workspace they act in: one or the other, never both.
    security: [{ serviceApiKey: [] }, { personToken: [], serviceWorkspace: [] }],
    paths,
    components: {
      securitySchemes: {
        serviceApiKey: { type: 'apiKey', in: 'header', name: 'Service-API-Key', description: "the workspace's API key" },
        personToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "a person's OpenID Connect ID token, of the issuer the stack names (its audience the console's client id); 401 token_expired, token_not_yet_valid, token_issuer_invalid, token_audience_invalid, token_algorithm_refused, token_signature_invalid or token_malformed say which check failed",
        },
        serviceWorkspace: { type: 'apiKey', in: 'header', name: 'Service-Workspace', description: 'with a person token: the workspace to act in' },
      },
      schemas: componentSchemas,
      responses: gatewayResponseComponents,
    },
  };
}
