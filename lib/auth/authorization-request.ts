/**
 * The start of a person's sign-in, as every client of the service makes it
 * (the console's token worker, the CLI, the tests' stand-in browser): an
 * authorization request of OpenID Connect's code flow with PKCE, state and
 * nonce (oauth4webapi), and what its return is checked against. It runs in a
 * browser and in Node alike, and is imported by no function.
 */
import * as oauth from 'oauth4webapi';

/** What the request's return is checked against: the PKCE verifier, the state and the ID token's nonce. */
export interface PendingSignIn {
  verifier: string;
  state: string;
  nonce: string;
}

export interface AuthorizationRequestOptions {
  clientId: string;
  redirectUri: string;
  scope: string;
  /** Further parameters, such as `login_hint` and `prompt`. */
  extra?: Record<string, string>;
}

/**
 * The URL to send the browser to, at the issuer's authorization endpoint, and
 * what its return must carry.
 *
 * @example
 * const { url, pending } = await authorizationRequest(new URL(as.authorization_endpoint!), { clientId, redirectUri, scope: signInScope });
 */
export async function authorizationRequest(endpoint: URL, options: AuthorizationRequestOptions): Promise<{ url: URL; pending: PendingSignIn }> {
  const pending = { verifier: oauth.generateRandomCodeVerifier(), state: oauth.generateRandomState(), nonce: oauth.generateRandomNonce() };
  const url = new URL(endpoint);
  for (const [name, value] of Object.entries({
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: options.scope,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    ...options.extra,
  }))
    url.searchParams.set(name, value);
  return { url, pending };
}
