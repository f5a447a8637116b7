/**
 * A person signs in to the CLI with their company's identity: OpenID
 * Connect's authorization code flow with PKCE, state and nonce, coming back
 * to a loopback redirect (RFC 8252: the browser is sent to
 * http://127.0.0.1:<port>/callback, where the CLI listens for that one
 * request). The protocol is `oauth4webapi`'s (maintained, no dependencies,
 * by the author of jose): discovery, the authorization response's state and
 * issuer, the code's exchange with the ID token's claims and nonce, refresh
 * and revocation. The device authorization grant would need no browser on
 * this machine, but Cognito, the stack's default issuer, does not offer it.
 */
import { createServer, type ServerResponse } from 'node:http';
import * as oauth from 'oauth4webapi';
import { authorizationRequest } from '../auth/authorization-request.ts';

/** What the API says about its sign-in (GET /dev/v1/sign-in). */
export interface SignInConfig {
  issuer: string;
  clientId: string;
  scope: string;
  cliRedirectUris: string[];
}

/** Every request to the API or the issuer gives up after this long. */
export const requestTimeoutMs = 30_000;

const isLoopback = (url: URL) => url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';

/** A URL tokens may be sent to: https, or http on this machine only (the local runtime and its provider). */
export function checkedUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${what} "${text}" is not a URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url)))
    throw new Error(`${what} must be https (http only on this machine): ${text}`);
  return url;
}

/** oauth4webapi's options for a request to `url`: plain http allowed for loopback only (checkedUrl refused any other). */
const requestOptions = (url: URL) => ({ [oauth.allowInsecureRequests]: url.protocol === 'http:', signal: AbortSignal.timeout(requestTimeoutMs) });

/** The issuer's metadata, from its discovery document (checked to name the issuer asked for). */
export async function discover(issuer: string): Promise<oauth.AuthorizationServer> {
  const url = checkedUrl(issuer, 'the issuer');
  return oauth.processDiscoveryResponse(url, await oauth.discoveryRequest(url, requestOptions(url)));
}

/** The tokens a sign-in or a refresh gave, with the ID token's validated claims. */
export interface Tokens {
  idToken: string;
  refreshToken?: string;
  claims: oauth.IDToken;
}

function tokensOf(response: oauth.TokenEndpointResponse): Tokens {
  const claims = oauth.getValidatedIdTokenClaims(response);
  if (!response.id_token || !claims) throw new Error('the issuer answered without an ID token');
  return { idToken: response.id_token, ...(response.refresh_token && { refreshToken: response.refresh_token }), claims };
}

export interface SignInOptions {
  config: SignInConfig;
  loginHint?: string;
  /** Shows the person the URL to open. */
  say: (line: string) => void;
  /** Opens the URL in a browser. */
  open: (url: string) => void;
  /** How long to wait for the browser to come back. */
  timeoutMs: number;
}

/**
 * The loopback redirect the API lists for the CLI: on 127.0.0.1 where it
 * lists one (RFC 8252 §8.3: `localhost` may resolve elsewhere), else on
 * `localhost` (Cognito takes http for localhost only), which the CLI serves
 * on 127.0.0.1 too.
 */
function loopbackRedirect(config: SignInConfig): URL {
  const listed = config.cliRedirectUris.map((u) => new URL(u)).filter((u) => u.protocol === 'http:' && u.port);
  const uri = listed.find((u) => u.hostname === '127.0.0.1') ?? listed.find((u) => u.hostname === 'localhost');
  if (!uri) throw new Error(`the API lists no loopback redirect for the CLI (it lists ${config.cliRedirectUris.join(', ') || 'none'})`);
  return uri;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The browser's answer: a page with no script and nothing to load, that sends no referrer (its address held the code). */
function answer(response: ServerResponse, status: number, title: string, text: string) {
  response
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'",
      'referrer-policy': 'no-referrer',
    })
    .end(`<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${escapeHtml(text)}</p></html>`);
}

/** Why a callback was refused, said for people: oauth4webapi's messages name the parameter. */
function refusal(error: unknown): Error {
  if (error instanceof oauth.AuthorizationResponseError)
    return new Error(`the issuer refused the sign-in: ${error.error}${error.error_description ? `: ${error.error_description}` : ''}`);
  const message = error instanceof Error ? error.message : String(error);
  if (/"state"/.test(message)) return new Error(`refused a callback whose state this sign-in did not send (a forged or stale callback): ${message}`);
  if (/"iss"/.test(message)) return new Error(`refused a callback from another issuer than this sign-in's: ${message}`);
  if (/"nonce"/.test(message)) return new Error(`refused an ID token made for another sign-in: ${message}`);
  return new Error(`the sign-in failed: ${message}`);
}

/**
 * Signs a person in: listens on the loopback redirect, sends the browser to
 * the issuer, and takes the first request to the callback path. A callback
 * whose state or issuer is not this sign-in's is refused, and ends the
 * sign-in: nothing is kept. Answers the tokens, once their ID token's issuer,
 * audience, expiry and nonce are checked.
 */
export async function signIn(options: SignInOptions): Promise<Tokens> {
  const { config } = options;
  const as = await discover(config.issuer);
  const client: oauth.Client = { client_id: config.clientId };
  const redirect = loopbackRedirect(config);
  const redirectUri = redirect.href;
  const { url: authorization, pending } = await authorizationRequest(checkedUrl(as.authorization_endpoint ?? '', "the issuer's authorization endpoint"), {
    clientId: config.clientId,
    redirectUri,
    scope: config.scope,
    // Named, the person is asked for their password even when the browser is signed in as someone else already.
    ...(options.loginHint && { extra: { login_hint: options.loginHint, prompt: 'login' } }),
  });
  const { verifier, state, nonce } = pending;

  let settle: { resolve: (tokens: Tokens) => void; reject: (error: Error) => void };
  const done = new Promise<Tokens>((resolve, reject) => (settle = { resolve, reject }));
  let taken = false;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', redirect.origin);
    if (request.method !== 'GET' || url.pathname !== redirect.pathname || taken) return void response.writeHead(404).end();
    taken = true;
    exchange(url).then(
      (tokens) => {
        answer(response, 200, 'Signed in', 'You are signed in to the rules CLI. You can close this tab.');
        settle.resolve(tokens);
      },
      (error: unknown) => {
        const reason = refusal(error);
        answer(response, 400, 'Sign-in failed', `${reason.message}. Start again with rules sign-in.`);
        settle.reject(reason);
      },
    );
  });
  const exchange = async (callback: URL) => {
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const url = checkedUrl(as.token_endpoint ?? '', "the issuer's token endpoint");
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, requestOptions(url));
    return tokensOf(await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce, requireIdToken: true }));
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${redirect.port} on 127.0.0.1, where the sign-in comes back, is in use (another sign-in?): try again when it is free`)
          : error,
      ),
    );
    server.listen(Number(redirect.port), '127.0.0.1', () => resolve());
  });
  const timer = setTimeout(
    () => settle.reject(new Error(`no sign-in came back within ${Math.round(options.timeoutMs / 1000)} s: run rules sign-in again`)),
    options.timeoutMs,
  );
  try {
    options.say(`Sign in at the address below (your browser opens it if it can); waiting for it to come back to ${redirectUri}\n  ${authorization.href}`);
    options.open(authorization.href);
    return await done;
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** New tokens for a refresh token (which the issuer may replace: the answer's, if any, is the one to keep). */
export async function refresh(issuer: string, clientId: string, refreshToken: string): Promise<Tokens> {
  const as = await discover(issuer);
  const client: oauth.Client = { client_id: clientId };
  const url = checkedUrl(as.token_endpoint ?? '', "the issuer's token endpoint");
  const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, requestOptions(url));
  return tokensOf(await oauth.processRefreshTokenResponse(as, client, response));
}

/** Revokes a refresh token at the issuer; false when the issuer has no revocation endpoint. */
export async function revoke(issuer: string, clientId: string, refreshToken: string): Promise<boolean> {
  const as = await discover(issuer);
  if (!as.revocation_endpoint) return false;
  const url = checkedUrl(as.revocation_endpoint, "the issuer's revocation endpoint");
  const response = await oauth.revocationRequest(as, { client_id: clientId }, oauth.None(), refreshToken, {
    ...requestOptions(url),
    additionalParameters: { token_type_hint: 'refresh_token' },
  });
  await oauth.processRevocationResponse(response);
  return true;
}
