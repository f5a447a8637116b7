/**
 * The local runtime's OpenID provider: a real, certified OpenID Connect
 * implementation (`oidc-provider`, by the author of `jose`) on loopback,
 * standing in for the stack's Cognito user pool or the company's issuer. It
 * signs in the demo people with a password on its own sign-in page, and
 * issues the console's client (public: authorization code with PKCE, no
 * secret) ID tokens naming each person's verified e-mail and groups, with
 * refresh tokens, revocation and sign-out at the issuer (RP-initiated
 * logout), as Cognito, Okta or Entra ID would. The CLI signs in through the
 * same client with a loopback redirect (RFC 8252).
 *
 * Everything is kept in memory and signed with a key made at each start: a
 * restart signs everyone out.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Adapter, type AdapterPayload, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { cliSignInRedirects, signInClientId, signInScope } from '../deployment/names.ts';
import { demoPeople, localGroupsClaim, type DemoPerson } from './demo-people.ts';

export interface OpenIdProviderOptions {
  port?: number;
  /** Where the console lives (`http://127.0.0.1:3000/console/`): the client's redirect and post-logout URIs. */
  consoleUrls: readonly string[];
  people?: readonly DemoPerson[];
  /** How long an ID token lasts: 15 minutes, as the stack's user pool issues them; tests shorten it to see a refresh. */
  idTokenTtlSeconds?: number;
}

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{font:16px system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem}label,input,button{display:block;width:100%;box-sizing:border-box}input{margin:.25rem 0 1rem;padding:.5rem;font:inherit}button{padding:.6rem;font:inherit;cursor:pointer}.error{color:#a40000}.hint{color:#555;font-size:.9rem}</style>
</head><body><main>${body}</main></body></html>`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The provider's own pages: no script at all, forms posting to itself only. */
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:* http://localhost:*; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** The form, its username filled in with the client's `login_hint` (or what was typed before a refusal). */
const signInForm = (uid: string, clientName: string, username: string, error?: string) =>
  page(
    'Sign in',
    `<h1>Sign in</h1><p class="hint">to ${escapeHtml(clientName)}, with the local OpenID provider (npm start's banner lists the demo people)</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="username">Username</label><input id="username" name="username" value="${escapeHtml(username)}" autocomplete="username" required${username ? '' : ' autofocus'}>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required${username ? ' autofocus' : ''}>
<button type="submit">Sign in</button></form>`,
  );

const maxFormBytes = 4096;

/**
 * Where the provider keeps its sessions, codes and tokens: in this process's
 * memory, each until it expires, as a local stand-in must (the package's own
 * memory store warns on every start that it is not for production).
 */
function memoryAdapter() {
  const items = new Map<string, { payload: AdapterPayload; until: number }>();
  const live = (key: string) => {
    const item = items.get(key);
    if (item && item.until <= Date.now()) items.delete(key);
    return item && item.until > Date.now() ? item.payload : undefined;
  };
  const where = (prefix: string, test: (payload: AdapterPayload) => boolean) =>
    [...items.keys()]
      .filter((name) => name.startsWith(prefix))
      .map(live)
      .find((payload) => payload && test(payload));
  return (model: string): Adapter => {
    const key = (id: string) => `${model}:${id}`;
    return {
      async upsert(id, payload, expiresIn) {
        items.set(key(id), { payload, until: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
      },
      find: async (id) => live(key(id)),
      findByUid: async (uid) => where(key(''), (payload) => payload.uid === uid),
      findByUserCode: async (userCode) => where(key(''), (payload) => payload.userCode === userCode),
      async consume(id) {
        const payload = live(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        items.delete(key(id));
      },
      async revokeByGrantId(grantId) {
        for (const [name, { payload }] of items) if (payload.grantId === grantId) items.delete(name);
      },
    };
  };
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of request as AsyncIterable<Buffer>) {
    body += chunk.toString('utf8');
    if (body.length > maxFormBytes) throw new Error('the form is too large');
  }
  return new URLSearchParams(body);
}

/** Compares a password with a person's in constant time (over their digests, so lengths do not show). */
const samePassword = (given: string, expected: string) =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());

/**
 * Starts the provider on loopback. Its issuer is `http://127.0.0.1:<port>`.
 *
 * @example
 * const op = await startOpenIdProvider({ consoleUrls: ['http://127.0.0.1:3000/console/'] });
 * op.issuer; // 'http://127.0.0.1:3003'
 */
export async function startOpenIdProvider(options: OpenIdProviderOptions) {
  const people = options.people ?? demoPeople;
  let serve: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => void response.writeHead(503).end();
  const server = createServer((request, response) => serve(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signingKey = await generateKeyPair('ES256', { extractable: true });
  const scopes = signInScope.split(' ');

  const configuration: Configuration = {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: signInClientId,
        client_name: 'Rules console',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        id_token_signed_response_alg: 'ES256',
        redirect_uris: [...options.consoleUrls, ...cliSignInRedirects],
        post_logout_redirect_uris: [...options.consoleUrls],
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(signingKey.privateKey)), kid: randomBytes(6).toString('hex'), alg: 'ES256', use: 'sig' }] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', localGroupsClaim] },
    scopes,
    // The ID token names the person's e-mail and groups, as Cognito's does: the API reads them from it (lib/auth/person-token.ts).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.body = page(
            'Sign out',
            `<h1>Sign out</h1><p>Sign out of the local OpenID provider too?</p>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>`,
          );
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.body = page('Signed out', '<h1>Signed out</h1><p>You are signed out of the local OpenID provider.</p>');
        },
      },
    },
    ttl: {
      IdToken: options.idTokenTtlSeconds ?? 15 * 60,
      AccessToken: options.idTokenTtlSeconds ?? 15 * 60,
      RefreshToken: 8 * 3600,
      Session: 8 * 3600,
      Interaction: 10 * 60,
      Grant: 8 * 3600,
    },
    // A refresh token for the console's client, as Cognito issues one with the code flow, without asking for offline_access.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // The client is the service's own: no consent screen, the scopes it asks for are granted.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope(scopes.join(' '));
      await grant.save();
      return grant;
    },
    findAccount: (_ctx, sub) => {
      const person = people.find((p) => p.username === sub);
      return person
        ? {
            accountId: sub,
            claims: () => ({ sub, email: person.email, email_verified: true, name: person.name, [localGroupsClaim]: person.groups }),
          }
        : undefined;
    },
    // The console calls the token and revocation endpoints from its origin only.
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris!.some((uri) => new URL(uri).origin === origin),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page('Sign-in failed', `<h1>Sign-in failed</h1><p>${escapeHtml(String(out.error))}: ${escapeHtml(String(out.error_description ?? ''))}</p>`);
    },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  /** The sign-in page and its form: the provider's one interaction, since the client's scopes are granted without asking. */
  async function interaction(request: IncomingMessage, response: ServerResponse, uid: string, action: string | undefined) {
    const details = await provider.interactionDetails(request, response);
    if (details.uid !== uid || details.prompt.name !== 'login')
      return void response.writeHead(400, pageHeaders).end(page('Sign in', '<p>This sign-in has ended: start again.</p>'));
    const clientName = (await provider.Client.find(String(details.params.client_id)))?.clientName ?? String(details.params.client_id);
    const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
    if (request.method === 'GET' && !action) return void response.writeHead(200, pageHeaders).end(signInForm(uid, clientName, hint));
    if (request.method !== 'POST' || action !== 'login') return void response.writeHead(405, { allow: 'GET' }).end();
    const form = await formOf(request);
    const person = people.find((p) => p.username === form.get('username'));
    // The same answer for an unknown name and a wrong password, so that the page tells no one who has an account.
    if (!person || !samePassword(form.get('password') ?? '', person.password))
      return void response.writeHead(401, pageHeaders).end(signInForm(uid, clientName, form.get('username') ?? hint, 'The username or password is not right.'));
    await provider.interactionFinished(request, response, { login: { accountId: person.username } }, { mergeWithLastSubmission: false });
  }

  serve = (request, response) => {
    const path = new URL(request.url ?? '/', issuer).pathname;
    const match = /^\/interaction\/([\w-]+)(?:\/(\w+))?$/.exec(path);
    if (!match) return void callback(request, response);
    interaction(request, response, match[1]!, match[2]).catch(() => {
      if (!response.headersSent)
        response.writeHead(400, pageHeaders).end(page('Sign in', '<p>This sign-in has ended or was not started here: start again.</p>'));
    });
  };

  return {
    issuer,
    clientId: signInClientId,
    groupsClaim: localGroupsClaim,
    people,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type LocalOpenIdProvider = Awaited<ReturnType<typeof startOpenIdProvider>>;
