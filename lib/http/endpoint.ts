/**
 * The middleware stack every API function shares: header normalisation,
 * structured logging, the envelope, authentication and branch resolution. A
 * function supplies only its query schema and what it does with the input.
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { $ZodType, output } from 'zod/v4/core';
import { auditorOf, type Auditor } from '../auth/auditor.ts';
import { authenticate, authenticatePerson, type Principal } from '../auth/authenticate.ts';
import { signInConfigFromEnv, tokenVerifier } from '../auth/person-token.ts';
import { effectiveGrant } from '../auth/grants.ts';
import { grants, type Requirement } from '../vocabulary/permissions.ts';
import { EngineError } from '../engine/errors.ts';
import { RevisionConflict } from '../store/revision-retry.ts';
import { storeFromEnv, type Store } from '../store/index.ts';
import { isValidBranchName } from '../vocabulary/branch-name.ts';
import { failureEnvelope, jsonResponse, requestIdHeader, successEnvelope, type Paging } from './envelope.ts';
import { ApiError, errors, fromEngineError, fromRevisionConflict, isRefusal } from '../vocabulary/errors.ts';
import { jsonBody, parseInput, refuseUnknownQueryParameters, strictPathPrefix } from './input.ts';
import { invocationLogging, logger } from '../logging/logger.ts';

export type BranchMode = 'none' | 'optional' | 'required';

export interface Call<Q, B = unknown> {
  query: Q;
  body: B;
  path: Record<string, string | undefined>;
  principal: Principal;
  /** The resolved branch: the Service-Branch header, or the workspace's default branch when it is optional and absent. */
  branch: string;
  store: Store;
  /** Who acts, for the audit records of the call's writes. */
  auditor: Auditor;
  /** For an operation that takes a file (`upload` in its route): the body's bytes and its content type (lower case, without parameters). */
  upload?: Upload;
}

export interface Upload {
  contentType: string;
  bytes: Uint8Array;
}

export interface Reply {
  data?: unknown;
  paging?: Paging;
  /** 200 unless said otherwise, e.g. 201 for a create. */
  status?: number;
  /** A body that is not the envelope (an export): sent as it is, with its type and headers; bytes go base64-encoded, as API Gateway expects of binary answers. */
  file?: { contentType: string; body: string | Uint8Array; headers?: Record<string, string> };
}

interface CallContext extends Context {
  principal?: Principal;
  branch?: string;
}

type Request = middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallContext>;

const requestIdOf = (request: Request) => request.event.requestContext?.requestId ?? request.context.awsRequestId;

/**
 * Records a refusal in the audit log before the answer, wherever in the call
 * it was raised (the stack's checks, or the operation's own: an escalation, a
 * self-approval, a protected branch): what the key tried, on what, and the
 * code it got. A call refused before its key was known (401) has no one to
 * name; a person refused in a workspace that gives them no role is recorded
 * there (ApiError.refusedIn). A log that cannot be written does not turn the refusal into another
 * answer; it is logged.
 */
async function recordRefusal(request: Request, operation: string, refusal: ApiError) {
  const principal = request.context.principal;
  const actor = principal
    ? auditorOf(principal, operation, requestIdOf(request))
    : refusal.refusedIn && { actor: refusal.refusedIn.actor, operation, requestId: requestIdOf(request) };
  const workspaceId = principal?.workspace.id ?? refusal.refusedIn?.workspaceId;
  if (!actor || !workspaceId) return;
  const path = request.event.pathParameters ?? {};
  const id = path.entityId ?? path.credentialId ?? path.integrationId ?? path.keyId ?? path.taskId;
  const data = (refusal.data ?? {}) as Record<string, unknown>;
  const branch = typeof data.branch === 'string' ? data.branch : request.context.branch;
  const target = { type: path.entityType ?? operation, ...(id && { id }), ...(branch && { branch }) };
  const detail = {
    code: refusal.code,
    ...Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)])),
  };
  try {
    await storeFromEnv().store.appendAudit(workspaceId, {
      ...actor,
      target,
      outcome: 'forbidden',
      detail,
    });
  } catch (error) {
    logger.error('the refusal could not be recorded in the audit log', error as Error);
  }
}

/** The verifier of people's tokens for the issuer the stack names, made on first use and kept warm (its keys with it); none when it names none. */
let personTokens: { verify: ReturnType<typeof tokenVerifier> } | null | undefined;
const personTokenVerifier = () => {
  if (personTokens === undefined) {
    const config = signInConfigFromEnv();
    personTokens = config ? { verify: tokenVerifier(config) } : null;
  }
  return personTokens?.verify;
};

const bearerPattern = /^Bearer +(\S+)$/i;

/**
 * Who calls: a key (Service-API-Key), or a person with a token the issuer
 * signed (`Authorization: Bearer`) in the workspace Service-Workspace names.
 * Never both: which one would speak is not for the service to guess.
 */
async function callerOf(headers: Record<string, string | undefined>, permission: Requirement): Promise<Principal> {
  const key = headers['service-api-key'];
  const authorization = headers['authorization'];
  if (authorization === undefined || authorization === '') return authenticate(storeFromEnv().directory, key);
  if (key !== undefined && key !== '')
    throw errors.invalidRequest([{ in: 'header', field: 'Authorization', message: 'send either Service-API-Key or a bearer token, not both' }]);
  const token = bearerPattern.exec(authorization)?.[1];
  if (!token) throw errors.tokenInvalid('token_malformed', 'the Authorization header must be "Bearer <token>"');
  const verify = personTokenVerifier();
  if (!verify) throw errors.bearerNotAccepted();
  const person = await verify(token);
  const workspaceId = headers['service-workspace'];
  if (!workspaceId)
    throw errors.invalidRequest([{ in: 'header', field: 'Service-Workspace', message: 'is required with a bearer token: the workspace to act in' }]);
  return authenticatePerson(storeFromEnv().directory, person, workspaceId, permission);
}

/** Who calls, and whether their key or grants give the operation's permission: refused (403) before anything is read for the call. */
const authentication = (
  permission: Requirement,
  workspaceWide = false,
  peopleOnly = false,
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallContext> => ({
  before: async (request) => {
    const principal = await callerOf(request.event.headers ?? {}, permission);
    request.context.principal = principal;
    if (!grants(principal.role, permission)) throw errors.forbidden(permission, principal.role);
    if (workspaceWide && principal.branches) throw errors.workspaceWide(principal.branches);
    if (peopleOnly && !principal.person) throw errors.peopleOnly();
  },
});

/** A person's role for a call on `branch`: the widest of their grants that give `permission` there (a key's stays its own). */
function onBranch(principal: Principal, permission: Requirement, branch: string): Principal {
  const there = principal.grants?.filter((g) => !g.branches || g.branches.includes(branch));
  return there?.length ? { ...principal, role: effectiveGrant(there, permission).role } : principal;
}

const branchResolution = (mode: BranchMode, permission: Requirement): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallContext> => ({
  before: async (request) => {
    await resolveBranch(request, mode);
    const branch = request.context.branch ?? request.event.pathParameters?.branch;
    if (branch !== undefined) request.context.principal = onBranch(request.context.principal!, permission, branch);
  },
});

/** The branch the call acts on, held to the caller's branches before anything of it is read. */
async function resolveBranch(request: Request, mode: BranchMode) {
  const { workspace, branches } = request.context.principal!;
  if (mode === 'none') {
    // A branch the path names (a branch's protection) is held to the key's branches as Service-Branch is, before anything is read.
    const named = request.event.pathParameters?.branch;
    if (named !== undefined && branches && !branches.includes(named)) throw errors.branchForbidden(named, branches);
    return;
  }
  const header = request.event.headers?.['service-branch'];
  if (header === undefined || header === '') {
    if (mode === 'required') throw errors.branchRequired();
    if (branches && !branches.includes(workspace.defaultBranch)) throw errors.branchForbidden(workspace.defaultBranch, branches);
    request.context.branch = workspace.defaultBranch;
    return;
  }
  if (!isValidBranchName(header)) throw errors.invalidBranch(header);
  // Before the lookup: a key limited to other branches learns nothing of this one, not even whether it exists.
  if (branches && !branches.includes(header)) throw errors.branchForbidden(header, branches);
  if (!(await storeFromEnv().directory.getBranch(workspace.id, header))) throw errors.branchNotFound(header);
  request.context.branch = header;
}

/**
 * Turns whatever the handler returned or threw into an enveloped response,
 * logging one line per request. An engine failure is a domain fact that gets
 * its status here, from the one table in ./errors.ts.
 */
const envelope = (operation: string, bareErrors = false): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallContext> => {
  const started = new WeakMap<object, number>();
  const finish = (request: Request, response: APIGatewayProxyResult) => {
    request.response = response;
    logger.info('request', {
      method: request.event.httpMethod,
      route: request.event.resource,
      status: response.statusCode,
      durationMs: Date.now() - (started.get(request) ?? Date.now()),
    });
  };
  return {
    before: (request) => {
      started.set(request, Date.now());
      logger.appendKeys({ apiRequestId: requestIdOf(request) });
    },
    after: (request) => {
      const reply = request.response as unknown as Reply;
      if (reply.file) {
        const { contentType, body, headers } = reply.file;
        const binary = typeof body !== 'string';
        finish(request, {
          statusCode: reply.status ?? 200,
          headers: { ...headers, 'content-type': contentType, [requestIdHeader]: requestIdOf(request) },
          body: binary ? Buffer.from(body).toString('base64') : body,
          ...(binary && { isBase64Encoded: true }),
        });
        return;
      }
      finish(request, jsonResponse(reply.status ?? 200, successEnvelope(reply.data, reply.paging), requestIdOf(request)));
    },
    onError: async (request) => {
      let error = request.error;
      if (isRefusal(error)) await recordRefusal(request, operation, error);
      if (error instanceof EngineError) error = fromEngineError(error);
      if (error instanceof RevisionConflict) error = fromRevisionConflict(error);
      if (!(error instanceof ApiError)) {
        logger.error('unexpected failure', error as Error);
        error = errors.internal();
      }
      const { status, code, message, data } = error as ApiError;
      finish(request, jsonResponse(status, failureEnvelope(code, message, bareErrors && data !== null ? {} : data), requestIdOf(request)));
    },
  };
};

/** A file sent as the body: API Gateway hands over every body base64-encoded (the stack's binary media types are all types), the local runtime too. */
function uploadOf(event: APIGatewayProxyEvent): Upload {
  const bytes = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  const contentType = (event.headers?.['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return { contentType, bytes };
}

/** A public operation (no key) is served without this stack: naming one here is a mistake in the route table. */
const missingPermission = (options: { path?: string }): never => {
  throw new Error(`${options.path ?? 'an operation'} is public: it is not served through endpoint()`);
};

export interface EndpointOptions<Q extends $ZodType, B extends $ZodType> {
  /** The operation's id in the route table: what the audit log names. */
  operationId: string;
  /** The route's path: on `/dev/v1` an unknown query parameter is a 400; the legacy paths ignore them, as their clients expect. */
  path?: string;
  query: Q;
  /** Absent: the operation takes no body, and any body is ignored. */
  body?: B;
  /** The operation takes a file as its body, of these content types (decided by the operation): handed over as bytes in `call.upload`. */
  upload?: { contentTypes: readonly string[] };
  branch: BranchMode;
  /** The permission a key needs to call it (lib/vocabulary/permissions.ts). */
  permission: Requirement | 'public';
  /** Changes or sends out what the whole workspace shares: refused to a key limited to branches. */
  workspaceWide?: true;
  /** Only a person signed in may call it: refused to a key. */
  peopleOnly?: true;
  /** Errors carry `data` {} (null for 401) instead of details. */
  bareErrors?: boolean;
}

export function endpoint<Q extends $ZodType, B extends $ZodType = $ZodType<undefined>>(
  options: EndpointOptions<Q, B>,
  run: (call: Call<output<Q>, output<B>>) => Promise<Reply>,
) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallContext>()
    .use(httpHeaderNormalizer())
    .use(injectLambdaContext(logger, invocationLogging))
    .use(envelope(options.operationId, options.bareErrors))
    .use(authentication(options.permission === 'public' ? missingPermission(options) : options.permission, options.workspaceWide, options.peopleOnly))
    .use(branchResolution(options.branch, options.permission === 'public' ? missingPermission(options) : options.permission))
    .handler(async (event, context) => {
      const parameters = event.queryStringParameters ?? {};
      if (options.path?.startsWith(strictPathPrefix)) refuseUnknownQueryParameters(options.query, parameters);
      const query = parseInput(options.query, parameters, 'query');
      const body = options.body ? parseInput(options.body, jsonBody(event.body, event.isBase64Encoded), 'body') : (undefined as output<B>);
      const upload = options.upload && uploadOf(event);
      const reply = await run({
        query,
        body,
        path: event.pathParameters ?? {},
        principal: context.principal!,
        branch: context.branch ?? '',
        store: storeFromEnv().store,
        auditor: auditorOf(context.principal!, options.operationId, requestIdOf({ event, context } as Request)),
        ...(upload && { upload }),
      });
      return reply as unknown as APIGatewayProxyResult;
    });
}
