/**
 * The one way an API-request step's call is made (its contract is
 * lib/integrations/api-call.ts), and what an integration's test runs: resolve
 * the integration or the URL and the credential, build the URL and headers,
 * send through the outbound client, read the answer as JSON. Every failure
 * is an ApiCallFailure whose message names what failed and holds no secret:
 * the URLs in it come from the outbound client, redacted.
 */
import { openCredentialWarm, outboundCacheTtlMs, type CredentialDeps } from '../credentials/service.ts';
import { createTtlCache } from '../store/ttl-cache.ts';
import { ApiError } from '../vocabulary/errors.ts';
import { OutboundError, type OutboundClient, type OutboundCredential, type OutboundFailure, type OutboundResponse } from '../outbound/index.ts';
import { scrubSecret, secretScrubber, withQueryParam } from '../outbound/url.ts';
import type { IntegrationStore, StoredIntegration } from '../store/types.ts';
import { ApiCallFailure, type ApiRequest, type ApiResponse, type CallApi } from './api-call.ts';
import { parseJson } from '../decimal/json.ts';

export type CallFailureKind = OutboundFailure | 'integration_not_found' | 'credential_not_found' | 'credential_revoked' | 'not_json';

/** The part of a request at fault when it cannot be sent as given. */
export type RequestField = 'path' | 'url' | 'query' | 'headers';

/** Failures that trying again may mend: the provider may be back, or quicker, or its name resolve. */
const retryable: ReadonlySet<CallFailureKind> = new Set(['timeout', 'refused', 'network', 'dns']);

/** An ApiCallFailure that says which failure it was and, when the request cannot be sent as given, which of its parts is at fault. */
export class CallFailure extends ApiCallFailure {
  constructor(
    readonly failure: CallFailureKind,
    message: string,
    readonly field?: RequestField,
  ) {
    super(message, retryable.has(failure));
  }
}

export interface ApiCallerDeps extends CredentialDeps {
  store: CredentialDeps['store'] & IntegrationStore;
  send: OutboundClient['send'];
}

/** Where a request goes once its integration, if any, is resolved. */
interface Target {
  url: URL;
  headers: Record<string, string>;
  credentialId?: string;
  timeoutMs: number;
}

/**
 * The base URL with `path` under it, joined as text and then parsed, so that
 * the URL parser's own reading of dot segments (`..`, `%2e%2e`) decides
 * whether the path stays under the base; one that leaves it is refused.
 */
export function joinPath(baseUrl: string, path: string): URL {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const escapes = () =>
    new CallFailure(
      'invalid_url',
      `the path "${path}" leaves the integration's base URL ${base.href}: give a path under it, without "." or ".." segments`,
      'path',
    );
  if (!path.startsWith('/')) throw new CallFailure('invalid_url', `the path "${path}" must start with "/"`, 'path');
  let url: URL;
  try {
    url = new URL(`${baseUrl.replace(/\/+$/, '')}${path}`);
  } catch {
    throw escapes();
  }
  if (url.origin !== base.origin || (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))) throw escapes();
  return url;
}

/** The integration's headers under the step's own: a step header replaces one of the same name in any case. */
function mergeHeaders(shared: Record<string, string>, own: Record<string, string>): Record<string, string> {
  const ownNames = new Set(Object.keys(own).map((name) => name.toLowerCase()));
  return { ...Object.fromEntries(Object.entries(shared).filter(([name]) => !ownNames.has(name.toLowerCase()))), ...own };
}

/** Integrations a warm function keeps, as it keeps opened credentials (`openCredentialWarm`): a busy workflow's steps do not read theirs on every call. */
const knownIntegrations = createTtlCache<StoredIntegration>(outboundCacheTtlMs);
const knownKey = (workspaceId: string, id: string) => `${workspaceId}\u0000${id}`;

/** What a change made in this process calls, so that it is seen here at once. */
export const forgetIntegration = (workspaceId: string, id: string) => knownIntegrations.forget(knownKey(workspaceId, id));

async function resolveTarget(deps: ApiCallerDeps, workspaceId: string, request: ApiRequest, known?: StoredIntegration): Promise<Target> {
  if (request.integrationId !== undefined) {
    const { integrationId } = request;
    const integration =
      known ?? (await knownIntegrations.get(knownKey(workspaceId, integrationId), () => deps.store.getIntegration(workspaceId, integrationId)));
    if (!integration) throw new CallFailure('integration_not_found', `the integration "${request.integrationId}" does not exist in this workspace`);
    return {
      url: joinPath(integration.baseUrl, request.path ?? '/'),
      headers: mergeHeaders(integration.headers, request.headers),
      credentialId: integration.credentialId,
      timeoutMs: Math.min(integration.timeoutMs, request.timeoutMs),
    };
  }
  // Not echoed: a URL that does not parse cannot be redacted reliably.
  if (request.url === undefined || !URL.canParse(request.url))
    throw new CallFailure('invalid_url', 'the request has no valid URL: give a full http:// or https:// URL, or an integration and a path', 'url');
  return { url: new URL(request.url), headers: { ...request.headers }, credentialId: request.credentialId, timeoutMs: request.timeoutMs };
}

async function credentialFor(deps: ApiCallerDeps, workspaceId: string, id: string): Promise<OutboundCredential> {
  try {
    return await openCredentialWarm(deps, workspaceId, id);
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'credential_not_found' || error.code === 'credential_revoked'))
      throw new CallFailure(error.code, error.message);
    throw error;
  }
}

const hasHeader = (headers: Record<string, string>, name: string) => Object.keys(headers).some((given) => given.toLowerCase() === name);

/** What a JSON call sends unless the request says otherwise. */
function jsonHeaders(headers: Record<string, string>, withBody: boolean): Record<string, string> {
  return {
    ...(!hasHeader(headers, 'accept') && { Accept: 'application/json' }),
    ...(withBody && !hasHeader(headers, 'content-type') && { 'Content-Type': 'application/json' }),
    ...headers,
  };
}

/**
 * The secret to scrub from what the provider answered, which may echo the
 * key: one shorter than this turns up in ordinary data by chance, and
 * scrubbing it would mangle the answer.
 */
const echoedSecret = (secret: string | undefined) => (secret !== undefined && secret.length >= 8 ? secret : undefined);

/** Every string in a parsed JSON value (names too) with the secret replaced, in place and without recursion. */
function scrubJson(value: unknown, secret: string): unknown {
  const scrub = secretScrubber(secret);
  const root = { value };
  const pending: Record<string, unknown>[] = [root];
  while (pending.length) {
    const holder = pending.pop()!;
    for (const [name, item] of Object.entries(holder)) {
      const clean = scrub(name);
      if (clean !== name) delete holder[name];
      holder[clean] = typeof item === 'string' ? scrub(item) : item;
      if (item !== null && typeof item === 'object') pending.push(item as Record<string, unknown>);
    }
  }
  return root.value;
}

const isSuccess = (status: number) => status >= 200 && status < 300;

/**
 * The answer's body as JSON: null when empty. A body that is not JSON fails
 * the call when the status is a success (the step would use it); with any
 * other status it reads as null, so that the status still tells what happened.
 */
function readBody(response: OutboundResponse, secret: string | undefined): unknown {
  const text = response.body.toString('utf8');
  if (!text.trim()) return null;
  let body: unknown;
  try {
    body = parseJson(text);
  } catch {
    if (!isSuccess(response.status)) return null;
    const type = scrubSecret(String(response.headers['content-type'] ?? 'none'), secret).slice(0, 100);
    throw new CallFailure(
      'not_json',
      `the provider answered with a body that is not JSON (content-type ${type}; HTTP ${response.status} from ${response.url})`,
    );
  }
  const echoed = echoedSecret(secret);
  return echoed ? scrubJson(body, echoed) : body;
}

/** Headers about the connection, not the answer (RFC 9110 7.6.1): nothing a step should read or a run keep. */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/** Header names lower-cased, repeated headers joined with ", ", the secret scrubbed from values; hop-by-hop headers left out. */
function readHeaders(response: OutboundResponse, secret: string | undefined): Record<string, string> {
  const scrub = secretScrubber(echoedSecret(secret));
  return Object.fromEntries(
    Object.entries(response.headers).flatMap(([name, value]) =>
      hopByHop.has(name.toLowerCase()) ? [] : [[name.toLowerCase(), scrub(Array.isArray(value) ? value.join(', ') : value)]],
    ),
  );
}

/** One request, resolved, sent and read, with how long the exchange took. `known`: its integration, already read. */
export async function callApi(
  deps: ApiCallerDeps,
  workspaceId: string,
  request: ApiRequest,
  known?: StoredIntegration,
): Promise<ApiResponse & { durationMs: number }> {
  const target = await resolveTarget(deps, workspaceId, request, known);
  const credential = target.credentialId === undefined ? undefined : await credentialFor(deps, workspaceId, target.credentialId);
  let url = target.url;
  for (const [name, value] of Object.entries(request.query)) {
    if (credential?.placement === 'query' && name === credential.key)
      throw new CallFailure(
        'invalid_request',
        `the query parameter "${name}" is also the credential's Key: remove it from the query, the credential adds it`,
        'query',
      );
    url = withQueryParam(url, name, value);
  }
  const urlField = request.integrationId === undefined ? 'url' : 'path';
  let response: OutboundResponse;
  try {
    response = await deps.send({
      url: url.href,
      method: request.method,
      headers: jsonHeaders(target.headers, request.body !== undefined),
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      credential,
      timeoutMs: target.timeoutMs,
    });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    const field =
      error.failure === 'invalid_request'
        ? 'headers'
        : error.failure === 'invalid_url' || error.failure === 'blocked_address' || error.failure === 'host_not_allowed'
          ? urlField
          : undefined;
    throw new CallFailure(error.failure, error.message, field);
  }
  return {
    status: response.status,
    headers: readHeaders(response, credential?.value),
    body: readBody(response, credential?.value),
    durationMs: response.durationMs,
  };
}

/**
 * What the workflow runner is given to make its API-request steps' calls
 * in one workspace.
 *
 * @example
 * const callApi = createApiCaller({ store, keyring: keyringFromEnv(), send: createOutboundClient().send }, workspaceId);
 * const answer = await callApi({ stepId: 'score', method: 'POST', integrationId: 'intg_demo_risk', path: '/v1/risk-score', query: {}, headers: {}, body: { amount: 120 }, timeoutMs: 5000 });
 */
export function createApiCaller(deps: ApiCallerDeps, workspaceId: string): CallApi {
  return async (request) => {
    const { durationMs: _durationMs, ...response } = await callApi(deps, workspaceId, request);
    return response;
  };
}
