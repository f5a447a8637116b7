/**
 * A person at a browser, without the browser: follows an authorization
 * request to the local OpenID provider's sign-in page, fills its form with a
 * username and password, and follows the redirects back, keeping the
 * provider's cookies as a browser would, until the provider sends the
 * browser to `redirectUri`. Each step is a real HTTP request to the real
 * provider (lib/local/openid-provider.ts); nothing is signed here.
 */
import * as oauth from 'oauth4webapi';
import { authorizationRequest } from '../../lib/auth/authorization-request.ts';
import { signInScope } from '../../lib/deployment/names.ts';

/** Where the provider sent the browser back: the redirect URI with the code, or with an error. */
export async function browseSignIn(authorizationUrl: string, redirectUri: string, credentials: { username: string; password: string }): Promise<URL> {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  let url = new URL(authorizationUrl);
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 10; hop++) {
    if (url.href.startsWith(redirectUri)) return url;
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: cookieHeader(), ...(body && { 'content-type': 'application/x-www-form-urlencoded' }) },
      ...(body && { body }),
    });
    keep(response);
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const page = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
    if (!action || !page.includes('name="password"'))
      throw new Error(`the provider answered ${response.status} without a sign-in form: ${page.slice(page.indexOf('<main>'), page.indexOf('<main>') + 300)}`);
    const refusal = /role="alert">([^<]+)</.exec(page)?.[1];
    if (refusal) throw new Error(`the provider refused the sign-in: ${refusal}`);
    url = new URL(
      action.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
      url,
    );
    body = new URLSearchParams(credentials);
  }
  throw new Error('the sign-in went round more than 10 redirects');
}

/** What a sign-in gives the client: the ID token (what the API takes), the refresh token, and when the ID token expires. */
export interface SignedIn {
  idToken: string;
  refreshToken?: string;
  expiresIn?: number;
}

/**
 * Signs `credentials` in at `issuer` as the client `clientId` (public, PKCE),
 * coming back to `redirectUri`, and trades the code for tokens as a client
 * would (oauth4webapi).
 *
 * @example
 * const { idToken } = await signInAs(runtime.openId!, { username: 'ana', password: 'ana-writes-rules' });
 */
export async function signInAs(
  provider: { issuer: string; clientId: string },
  credentials: { username: string; password: string },
  redirectUri = 'http://127.0.0.1:53682/callback',
): Promise<SignedIn> {
  const issuer = new URL(provider.issuer);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { [oauth.allowInsecureRequests]: true }));
  const client: oauth.Client = { client_id: provider.clientId };
  const { url, pending } = await authorizationRequest(new URL(as.authorization_endpoint!), { clientId: client.client_id, redirectUri, scope: signInScope });
  const back = await browseSignIn(url.href, redirectUri, credentials);
  const params = oauth.validateAuthResponse(as, client, back, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, pending.verifier, {
    [oauth.allowInsecureRequests]: true,
  });
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: pending.nonce });
  return {
    idToken: tokens.id_token!,
    ...(tokens.refresh_token && { refreshToken: tokens.refresh_token }),
    ...(tokens.expires_in && { expiresIn: tokens.expires_in }),
  };
}
