import { DROPPED_HEADERS } from './headers.ts';
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { logger } from '../logging/logger.ts';
import { blockedAddressMessage, guardedLookup, metadataHost, refusedRange, type LookupAll } from './address-policy.ts';
import { OutboundError } from './errors.ts';
import { hasQueryParam, redactUrl, scrubSecret, withoutQueryParam, withQueryParam } from './url.ts';
import { hostAllowed, hostOf } from './hosts.ts';

export interface OutboundCredential {
  /** Header or query parameter name, exactly as the provider spells it. */
  key: string;
  value: string;
  placement: 'header' | 'query';
  /** The hosts it may be sent to (./hosts.ts): a hop to any other is refused before it connects. */
  allowedHosts: readonly string[];
}

export type OutboundMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export interface OutboundRequest {
  url: string;
  method?: OutboundMethod;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  credential?: OutboundCredential;
  /** This call's limit for the whole exchange, instead of the client's `totalTimeoutMs` (an API-request step's own timeout). */
  timeoutMs?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  durationMs: number;
  /** Final URL, credential redacted. */
  url: string;
  redirects: number;
}

export interface OutboundOptions {
  /** From the start of a hop until its connection (and TLS handshake) is up, DNS included. Default 5000. */
  connectTimeoutMs?: number;
  /** The whole call: every redirect hop and reading the body. Default 15000. */
  totalTimeoutMs?: number;
  /** Silence allowed once the request is sent: until the answer starts, and between two parts of its body. Default 10000. */
  idleTimeoutMs?: number;
  /**
   * Slowest body allowed, averaged over each `idleTimeoutMs` window once the
   * answer has started (curl's low-speed limit): a host that trickles a byte
   * now and then is never silent, yet would hold the call to its total bound.
   * Default 0: no floor.
   */
  minBytesPerSecond?: number;
  /** Largest response body read; past it the call fails with too_large. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Allow loopback/private/CGNAT/... addresses (never link-local or metadata). Default: env OUTBOUND_ALLOW_PRIVATE_NETWORKS === 'true'. */
  allowPrivateNetworks?: boolean;
  /** One call per request. Default: logger.info. */
  log?: (message: string, fields: Record<string, unknown>) => void;
  /** Resolver override (tests); called like dns.lookup with `{ all: true }`. */
  lookup?: LookupAll;
}

export interface OutboundClient {
  send(request: OutboundRequest): Promise<OutboundResponse>;
}

const USER_AGENT = 'rules-service/1.0';
const METHODS = new Set<string>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that authorise the caller: like browsers do, not forwarded when a redirect leaves the origin. */
const ORIGIN_BOUND_HEADERS = new Set(['authorization', 'cookie']);
/** Headers that describe a body: dropped with the body when a redirect turns the request into a GET. */
const BODY_HEADERS = new Set(['content-type', 'content-encoding', 'content-language', 'content-location']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);
const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|UNABLE_TO_)|CERT|SELF_SIGNED|HOSTNAME_MISMATCH|^EPROTO$/;

interface Settings {
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  idleTimeoutMs: number;
  minBytesPerSecond: number;
  maxResponseBytes: number;
  maxRedirects: number;
  allowPrivateNetworks: boolean;
  log: (message: string, fields: Record<string, unknown>) => void;
  lookup: LookupAll;
  /** This client's connection pools: a socket is only ever opened under this client's address policy, so reusing it keeps to that policy. */
  agents: { http: http.Agent; https: https.Agent };
}

/** One request of the redirect chain, before the credential is put on it. */
interface Hop {
  url: URL;
  method: OutboundMethod;
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** False once a redirect has left the original origin; never true again. */
  withCredential: boolean;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  location?: string;
}

export function createOutboundClient(options: OutboundOptions = {}): OutboundClient {
  const settings: Settings = {
    connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    totalTimeoutMs: options.totalTimeoutMs ?? 15000,
    idleTimeoutMs: options.idleTimeoutMs ?? 10000,
    minBytesPerSecond: options.minBytesPerSecond ?? 0,
    maxResponseBytes: options.maxResponseBytes ?? 1024 * 1024,
    maxRedirects: options.maxRedirects ?? 5,
    allowPrivateNetworks: options.allowPrivateNetworks ?? process.env.OUTBOUND_ALLOW_PRIVATE_NETWORKS === 'true',
    log: options.log ?? ((message, fields) => logger.info(message, fields)),
    lookup: options.lookup ?? dnsLookup,
    // Kept-alive connections: a warm function calling a provider again skips the TCP and TLS handshakes.
    agents: {
      http: new http.Agent({ keepAlive: true, maxSockets: 50, timeout: 30_000 }),
      https: new https.Agent({ keepAlive: true, maxSockets: 50, timeout: 30_000 }),
    },
  };
  return { send: (request) => send(request.timeoutMs === undefined ? settings : { ...settings, totalTimeoutMs: request.timeoutMs }, request) };
}

/** Why a hop to `url` may not carry the credential, and what an admin can do about it. */
function hostNotAllowed(allowedHosts: readonly string[], url: URL, shown: string) {
  const target = `${hostOf(url)} (${shown})`;
  return allowedHosts.length
    ? `The credential may be sent only to ${allowedHosts.join(', ')}, not to ${target}: nothing was sent. Add the host to the credential's allowedHosts if it is meant to receive the key.`
    : `The credential may be sent to no host yet, so nothing was sent to ${target}: its allowedHosts is empty (it was made before hosts were required, and no integration or remote used it). Set its allowedHosts to the hosts meant to receive the key.`;
}

async function send(settings: Settings, request: OutboundRequest): Promise<OutboundResponse> {
  const started = performance.now();
  const deadline = Date.now() + settings.totalTimeoutMs;
  const { credential } = request;
  const method = request.method ?? 'GET';
  const secretParams = credential?.placement === 'query' ? [credential.key] : [];
  const scrub = (text: string) => scrubSecret(text, credential?.value);
  const show = (url: string | URL) => scrub(redactUrl(url, secretParams));
  let shown = show(request.url);
  let redirects = 0;
  try {
    let hop = firstHop(request, shown);
    for (;;) {
      if (credential && hop.withCredential && !hostAllowed(hop.url, credential.allowedHosts))
        throw new OutboundError('host_not_allowed', hostNotAllowed(credential.allowedHosts, hop.url, show(hop.url)), show(hop.url));
      const wire = withCredential(hop, credential);
      shown = show(wire.url);
      const answer = await exchange(settings, wire, shown, deadline);
      if (answer.location === undefined) {
        const response = { status: answer.status, headers: answer.headers, body: answer.body, durationMs: elapsed(started), url: shown, redirects };
        settings.log('outbound request', { method, url: shown, status: answer.status, durationMs: response.durationMs, redirects });
        return response;
      }
      if (++redirects > settings.maxRedirects)
        throw new OutboundError(
          'too_many_redirects',
          `The call to ${show(request.url)} was redirected more than ${settings.maxRedirects} times (the last redirect came from ${shown}); the provider may be redirecting in a loop, or the URL is out of date.`,
          shown,
        );
      hop = nextHop(hop, answer.status, answer.location, credential, shown, show);
    }
  } catch (error) {
    const failure =
      error instanceof OutboundError
        ? new OutboundError(error.failure, scrub(error.message), error.url, error.code)
        : new OutboundError('network', scrub(`The call to ${shown} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`), shown);
    const code = failure.code === undefined ? {} : { code: failure.code };
    settings.log('outbound request failed', {
      method,
      url: failure.url,
      failure: failure.failure,
      ...code,
      durationMs: elapsed(started),
      redirects,
      error: failure.message,
    });
    throw failure;
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/** Parses and checks the caller's request; nothing here touches the network. */
function firstHop(request: OutboundRequest, shown: string): Hop {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new OutboundError('invalid_url', `${shown} is not a valid URL; give a full http:// or https:// URL.`, shown);
  }
  const problem = urlProblem(url);
  if (problem) throw new OutboundError('invalid_url', `${shown} ${problem}.`, shown);
  url.hash = ''; // never sent, and not worth logging

  const method = request.method ?? 'GET';
  if (!METHODS.has(method))
    throw new OutboundError('invalid_request', `${JSON.stringify(method)} is not a supported method; use one of ${[...METHODS].join(', ')}.`, shown);

  const { credential } = request;
  if (credential) {
    const { key, value, placement } = credential;
    if (!key || !value) throw new OutboundError('invalid_request', 'The credential needs both a Key and a Value.', shown);
    if (value.trim() !== value)
      throw new OutboundError(
        'invalid_request',
        `The value of credential "${key}" begins or ends with whitespace; enter the key exactly as the provider issued it.`,
        shown,
      );
    if (placement === 'header') {
      if (!TOKEN.test(key) || DROPPED_HEADERS.has(key.toLowerCase()))
        throw new OutboundError('invalid_request', `"${key}" cannot be used as a header name; use the provider's header name exactly.`, shown);
      if (!FIELD_VALUE.test(value))
        throw new OutboundError(
          'invalid_request',
          `The value of credential "${key}" holds characters a header cannot carry (such as a line break); enter the key without extra characters.`,
          shown,
        );
    } else if (placement === 'query') {
      if (hasQueryParam(url, key))
        throw new OutboundError('invalid_url', `${shown} already has a query parameter "${key}"; remove it from the URL, the credential adds it.`, shown);
    } else {
      throw new OutboundError('invalid_request', `The credential placement must be "header" or "query".`, shown);
    }
  }

  const headers: Record<string, string> = Object.create(null); // the caller's names: "__proto__" is one like any other
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value))
      throw new OutboundError(
        'invalid_request',
        `The header "${TOKEN.test(name) ? name : '(invalid name)'}" is not a valid HTTP header (check for line breaks or invalid characters).`,
        shown,
      );
    if (DROPPED_HEADERS.has(name.toLowerCase())) continue;
    if (credential?.placement === 'header' && name.toLowerCase() === credential.key.toLowerCase())
      throw new OutboundError(
        'invalid_request',
        `The header "${name}" is also the credential's Key; remove it from the headers, the credential adds it.`,
        shown,
      );
    headers[name] = value;
  }

  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  return { url, method, headers, body, withCredential: credential !== undefined };
}

/** Why this URL may not be called (completing "<url> ..."), or undefined. */
function urlProblem(url: URL): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http:// or https:// URL';
  // Credentials in URLs end up in logs and Location headers; the credential belongs in the credential.
  if (url.username || url.password) return 'contains a user name or password; put the credential in the credential, not the URL';
  return undefined;
}

/** The hop as it goes on the wire: credential placed, User-Agent and Content-Length set. */
function withCredential(hop: Hop, credential: OutboundCredential | undefined): Hop {
  const headers = { ...hop.headers };
  let url = hop.url;
  if (credential && hop.withCredential) {
    if (credential.placement === 'header') headers[credential.key] = credential.value;
    else url = withQueryParam(url, credential.key, credential.value);
  }
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'user-agent')) headers['User-Agent'] = USER_AGENT;
  if (hop.body) headers['Content-Length'] = String(hop.body.length);
  return { ...hop, url, headers };
}

/**
 * The request a redirect asks for. Leaving the origin (scheme, host, port)
 * drops the credential for the rest of the chain, and a query-placed key is
 * removed from the target even if the provider echoed it into the Location.
 */
function nextHop(
  hop: Hop,
  status: number,
  location: string,
  credential: OutboundCredential | undefined,
  shown: string,
  show: (url: string | URL) => string,
): Hop {
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new OutboundError('invalid_url', `${shown} redirected to ${show(location)}, which is not a valid URL.`, shown);
  }
  const problem = urlProblem(url);
  if (problem) throw new OutboundError('invalid_url', `${shown} redirected to ${show(url)}, which ${problem}.`, shown);
  url.hash = '';
  if (credential?.placement === 'query') url = withoutQueryParam(url, credential.key);

  const sameOrigin = url.origin === hop.url.origin;
  // 303 always means "GET the result"; 301/302 turn POST into GET as browsers and curl do; 307/308 repeat the request.
  const toGet = (status === 303 && hop.method !== 'HEAD') || ((status === 301 || status === 302) && hop.method === 'POST');
  const headers = Object.fromEntries(
    Object.entries(hop.headers).filter(([name]) => {
      const lower = name.toLowerCase();
      return !(!sameOrigin && ORIGIN_BOUND_HEADERS.has(lower)) && !(toGet && BODY_HEADERS.has(lower));
    }),
  );
  return {
    url,
    method: toGet ? 'GET' : hop.method,
    headers,
    body: toGet ? undefined : hop.body,
    withCredential: hop.withCredential && sameOrigin,
  };
}

/** One HTTP exchange. Resolves with the status and body, or with the Location of a redirect (body unread). */
function exchange(settings: Settings, wire: Hop, shown: string, deadline: number): Promise<Answer> {
  const host = wire.url.hostname.replace(/^\[(.*)\]$/, '$1');
  const blocked = (subject: string, range: string) => new OutboundError('blocked_address', blockedAddressMessage(shown, subject, range), shown);
  const metadata = metadataHost(host);
  if (metadata) return Promise.reject(blocked(metadata.subject, metadata.range));
  // IP literals never reach `lookup`, so they are checked here (the URL parser already turned 2130706433 or 0x7f.1 into 127.0.0.1).
  if (isIP(host)) {
    const range = refusedRange(host, settings.allowPrivateNetworks);
    if (range !== undefined) return Promise.reject(blocked(`${host} is`, range));
  }
  const remaining = deadline - Date.now();
  if (remaining <= 0) return Promise.reject(totalTimeout(settings, shown));

  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error: OutboundError | undefined, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      clearTimeout(idleTimer);
      clearInterval(speedTimer);
      // A connection in an unknown state (a failure, a redirect whose body is never read) is not given back to the pool.
      if (error || answer?.location !== undefined) request.destroy();
      if (error) reject(error);
      else resolve(answer as Answer);
    };
    const fail = (error: OutboundError) => settle(error);

    const secure = wire.url.protocol === 'https:';
    const request = (secure ? https : http).request({
      hostname: host,
      port: wire.url.port || (secure ? 443 : 80),
      path: wire.url.pathname + wire.url.search,
      method: wire.method,
      headers: wire.headers,
      agent: secure ? settings.agents.https : settings.agents.http,
      lookup: guardedLookup(settings.lookup, settings.allowPrivateNetworks, (hostname, address, range) =>
        blocked(`${hostname} resolves to ${address},`, range),
      ),
    });

    const totalTimer = setTimeout(() => fail(totalTimeout(settings, shown)), remaining);
    const connectTimer = setTimeout(
      () =>
        fail(
          new OutboundError(
            'timeout',
            `Could not connect to ${shown} within ${settings.connectTimeoutMs} ms; check the host and port, and that the provider is reachable from this service.`,
            shown,
          ),
        ),
      settings.connectTimeoutMs,
    );
    request.on('socket', (socket) => {
      // A pooled connection is up already.
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    request.on('error', (error) => fail(error instanceof OutboundError ? error : fromNodeError(error, shown)));
    // A provider that took the request and then says nothing fails as soon as its silence passes the bound, not at the end of the whole call's.
    let idleTimer: NodeJS.Timeout | undefined;
    const stillTalking = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(
        () =>
          fail(
            new OutboundError(
              'timeout',
              `${shown} sent nothing for ${settings.idleTimeoutMs} ms while its answer was awaited; the provider is stalled or not answering.`,
              shown,
            ),
          ),
        settings.idleTimeoutMs,
      );
    };
    request.on('finish', stillTalking);
    let speedTimer: NodeJS.Timeout | undefined;

    request.on('response', (response) => {
      clearTimeout(connectTimer);
      stillTalking();
      const status = response.statusCode ?? 0;
      const headers = Object.fromEntries(Object.entries(response.headers).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined));
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location !== undefined) return settle(undefined, { status, headers, body: Buffer.alloc(0), location });

      const tooLarge = () =>
        new OutboundError(
          'too_large',
          `The response from ${shown} is larger than the limit of ${settings.maxResponseBytes} bytes; ask the provider for less data (paging, filters).`,
          shown,
        );
      if (Number(response.headers['content-length']) > settings.maxResponseBytes) return fail(tooLarge());
      const chunks: Buffer[] = [];
      let size = 0;
      if (settings.minBytesPerSecond > 0) {
        let sizeBefore = 0;
        const floor = (settings.minBytesPerSecond * settings.idleTimeoutMs) / 1000;
        speedTimer = setInterval(() => {
          if (size - sizeBefore < floor)
            fail(
              new OutboundError(
                'timeout',
                `${shown} sent its answer slower than ${settings.minBytesPerSecond} bytes per second for ${settings.idleTimeoutMs} ms; the provider is stalled.`,
                shown,
              ),
            );
          sizeBefore = size;
        }, settings.idleTimeoutMs);
      }
      response.on('data', (chunk: Buffer) => {
        stillTalking();
        size += chunk.length;
        if (size > settings.maxResponseBytes) fail(tooLarge());
        else chunks.push(chunk);
      });
      response.on('end', () => settle(undefined, { status, headers, body: Buffer.concat(chunks) }));
      response.on('error', (error) => fail(fromNodeError(error, shown)));
      response.on('close', () => {
        if (!response.complete) fail(new OutboundError('network', `The connection to ${shown} closed before the response was complete; try again.`, shown));
      });
    });

    request.end(wire.body);
  });
}

function totalTimeout(settings: Settings, shown: string): OutboundError {
  return new OutboundError(
    'timeout',
    `The call to ${shown} did not complete within ${settings.totalTimeoutMs} ms (redirects and reading the response included); the provider is slow or not answering.`,
    shown,
  );
}

/** Maps a Node socket/DNS/TLS/parser error to a failure kind with an actionable message. */
function fromNodeError(error: Error, shown: string): OutboundError {
  // Racing IPv4 and IPv6 (autoSelectFamily) fails with an AggregateError; its first attempt tells why.
  const first = error instanceof AggregateError && error.errors[0] instanceof Error ? error.errors[0] : error;
  const code = (error as NodeJS.ErrnoException).code ?? (first as NodeJS.ErrnoException).code;
  if (code && DNS_CODES.has(code))
    return new OutboundError(
      'dns',
      `The host name of ${shown} could not be resolved (${code}); check its spelling, and that it exists in public DNS.`,
      shown,
      code,
    );
  if (code === 'ECONNREFUSED')
    return new OutboundError(
      'refused',
      `The connection to ${shown} was refused (nothing listens on that host and port); check the port, and that the provider is up.`,
      shown,
      code,
    );
  if (code === 'ETIMEDOUT')
    return new OutboundError(
      'timeout',
      `Connecting to ${shown} timed out; check the host and port, and that the provider is reachable from this service.`,
      shown,
      code,
    );
  if (code && TLS_CODE.test(code))
    return new OutboundError(
      'tls',
      `The secure connection to ${shown} failed (${code}: ${first.message}); the provider's certificate is not trusted, has expired or names another host, or the TLS handshake failed.`,
      shown,
      code,
    );
  if (code === 'HPE_HEADER_OVERFLOW') return new OutboundError('too_large', `The response headers from ${shown} are too large.`, shown, code);
  return new OutboundError(
    'network',
    `The connection to ${shown} failed (${code ?? first.message}); try again, and check that the URL points at the provider.`,
    shown,
    code,
  );
}
