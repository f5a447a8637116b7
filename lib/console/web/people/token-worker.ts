/**
 * Where a person's tokens live: a dedicated worker, the one place in the
 * page that holds them. The page's own scripts never see a token: they ask
 * the worker to start a sign-in (it answers the issuer's URL), to finish it
 * (it trades the code and answers who signed in), to make an API call (it
 * adds `Authorization: Bearer` and answers the response) and to sign out (it
 * revokes the refresh token and answers the issuer's sign-out URL). The
 * tokens are kept in the worker's memory only: never in storage, a cookie or
 * a URL, so a script injected into the page could use the session while the
 * page is open but could not carry a token away. A reload ends the worker,
 * and the page signs in again through the issuer, whose own session cookie
 * spares the person their password.
 *
 * The flow is the authorization code flow with PKCE, state and nonce, by
 * oauth4webapi (maintained, no dependencies, by jose's author): the public
 * client has no secret. The ID token is refreshed with the refresh token a
 * minute before it expires, and when the API answers 401 token_expired.
 */
import * as oauth from 'oauth4webapi';
import { authorizationRequest, type PendingSignIn } from '../../../auth/authorization-request.ts';
import type { SignInRequest, SignInAnswer, SignInConfig, SignedInPerson, SentRequest, ReceivedResponse } from './token-messages.ts';

/** The worker's side of its port (the project's type check knows the page's globals, not a worker's). */
const port = self as unknown as {
  onmessage: ((event: MessageEvent<SignInRequest>) => void) | null;
  postMessage(answer: SignInAnswer): void;
};

/**
 * Refresh this long before the ID token expires, so that a call does not
 * leave with a token that lapses on its way: a minute, or a quarter of the
 * token's life when that is shorter.
 */
const refreshAheadMs = (token: Tokens) => Math.min(60_000, (token.expiresAt - token.issuedAt) / 4);

interface Tokens {
  idToken: string;
  refreshToken?: string;
  /** When the ID token was issued and expires (epoch ms). */
  issuedAt: number;
  expiresAt: number;
}

let config: SignInConfig | undefined;
let issuerMetadata: Promise<oauth.AuthorizationServer> | undefined;
let tokens: Tokens | undefined;
let workspace = '';
let refreshing: Promise<void> | undefined;
/** Set when the person's session ended here (the issuer refused a refresh): their calls are answered 401 rather than sent unsigned. */
let sessionEnded = false;

/** An issuer on this machine (npm start's) speaks plain HTTP; any other must be HTTPS, as oauth4webapi insists. */
const httpOptions = () => {
  const { protocol, hostname } = new URL(config!.issuer);
  return protocol === 'http:' && (hostname === '127.0.0.1' || hostname === 'localhost') ? { [oauth.allowInsecureRequests]: true } : {};
};

const clientOf = (): oauth.Client => ({ client_id: config!.clientId });

function metadata(): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(config!.issuer);
  issuerMetadata ??= oauth
    .discoveryRequest(issuer, httpOptions())
    .then((response) => oauth.processDiscoveryResponse(issuer, response))
    .catch((error: unknown) => {
      issuerMetadata = undefined;
      throw error;
    });
  return issuerMetadata;
}

/** When a token response's ID token expires: its `exp`, read from the validated claims. */
function keep(response: oauth.TokenEndpointResponse, previous?: Tokens): SignedInPerson {
  const claims = oauth.getValidatedIdTokenClaims(response);
  if (!response.id_token || !claims) throw new Error('the issuer answered no ID token');
  tokens = {
    idToken: response.id_token,
    refreshToken: response.refresh_token ?? previous?.refreshToken,
    issuedAt: claims.iat * 1000,
    expiresAt: claims.exp * 1000,
  };
  return {
    subject: claims.sub,
    ...(typeof claims.name === 'string' && { name: claims.name }),
    ...(typeof claims.email === 'string' && { email: claims.email }),
    expiresAt: tokens.expiresAt,
  };
}

async function start(): Promise<{ url: string; pending: PendingSignIn }> {
  const as = await metadata();
  const { url, pending } = await authorizationRequest(new URL(as.authorization_endpoint!), {
    clientId: config!.clientId,
    redirectUri: config!.redirectUri,
    scope: config!.scope,
  });
  return { url: url.href, pending };
}

async function finish(callbackUrl: string, pending: PendingSignIn, inWorkspace: string): Promise<SignedInPerson> {
  const as = await metadata();
  const params = oauth.validateAuthResponse(as, clientOf(), new URL(callbackUrl), pending.state);
  const response = await oauth.authorizationCodeGrantRequest(as, clientOf(), oauth.None(), params, config!.redirectUri, pending.verifier, httpOptions());
  const person = keep(await oauth.processAuthorizationCodeResponse(as, clientOf(), response, { expectedNonce: pending.nonce, requireIdToken: true }));
  workspace = inWorkspace;
  sessionEnded = false;
  return person;
}

/** A new ID token from the refresh token; without one (or refused), the person is signed out. */
function refresh(): Promise<void> {
  refreshing ??= (async () => {
    try {
      const current = tokens;
      if (!current?.refreshToken) throw new Error('no refresh token');
      const as = await metadata();
      const response = await oauth.refreshTokenGrantRequest(as, clientOf(), oauth.None(), current.refreshToken, httpOptions());
      keep(await oauth.processRefreshTokenResponse(as, clientOf(), response), current);
    } catch {
      tokens = undefined;
      sessionEnded = true;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

async function send(request: SentRequest): Promise<Response> {
  if (tokens && tokens.expiresAt - Date.now() < refreshAheadMs(tokens)) await refresh();
  if (!tokens && sessionEnded)
    return new Response(JSON.stringify({ code: 'signed_out', message: 'Your session at the sign-in ended: sign in again.', data: null }), { status: 401 });
  // Before the tokens are back (a reload signing in again), the page's public calls (what each operation needs, who signs people in) go unsigned.
  const headers = new Headers(request.headers);
  headers.delete('service-api-key');
  if (tokens) {
    headers.set('authorization', `Bearer ${tokens.idToken}`);
    headers.set('service-workspace', workspace);
  }
  return fetch(request.url, { method: request.method, headers, ...(request.body !== undefined && { body: request.body }) });
}

/** A call to the API as the person: once more after a refresh when their token expired on the way. */
async function call(request: SentRequest): Promise<ReceivedResponse> {
  // Only the page's own origin: the worker sends the person's token nowhere else.
  if (new URL(request.url).origin !== self.location.origin) return { status: 400, statusText: 'Bad Request', headers: [], body: '' };
  let response = await send(request);
  if (response.status === 401 && tokens) {
    const answer = (await response
      .clone()
      .json()
      .catch(() => ({}))) as { code?: string };
    if (answer.code === 'token_expired') {
      await refresh();
      response = await send(request);
    }
  }
  return { status: response.status, statusText: response.statusText, headers: [...response.headers], body: await response.text() };
}

/** Revokes the refresh token where the issuer lets clients, forgets both tokens, and answers where to sign out at the issuer. */
async function signOut(postSignOutUrl: string): Promise<{ url?: string }> {
  const current = tokens;
  tokens = undefined;
  if (!config) return {};
  const as = await metadata().catch(() => undefined);
  if (current?.refreshToken && as?.revocation_endpoint)
    await oauth
      .revocationRequest(as, clientOf(), oauth.None(), current.refreshToken, httpOptions())
      .then((response) => oauth.processRevocationResponse(response))
      .catch(() => undefined);
  // No id_token_hint: the URL passes through the page, which holds no token; the client id names who signs out.
  if (as?.end_session_endpoint) {
    const url = new URL(as.end_session_endpoint);
    url.searchParams.set('client_id', config.clientId);
    url.searchParams.set('post_logout_redirect_uri', postSignOutUrl);
    return { url: url.href };
  }
  if (config.signOutUrl) {
    const url = new URL(config.signOutUrl);
    url.searchParams.set('client_id', config.clientId);
    url.searchParams.set('logout_uri', postSignOutUrl);
    return { url: url.href };
  }
  return {};
}

async function answer(request: SignInRequest): Promise<unknown> {
  switch (request.type) {
    case 'configure':
      if (config?.issuer !== request.config.issuer) issuerMetadata = undefined;
      config = request.config;
      return { signedIn: tokens !== undefined };
    case 'start':
      return start();
    case 'finish':
      return finish(request.callbackUrl, request.pending, request.workspace);
    case 'call':
      return call(request.request);
    case 'signOut':
      return signOut(request.postSignOutUrl);
  }
}

port.onmessage = ({ data }) =>
  void answer(data).then(
    (result) => port.postMessage({ id: data.id, result }),
    (error: unknown) => port.postMessage({ id: data.id, error: error instanceof Error ? error.message : String(error) }),
  );
