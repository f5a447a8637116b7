/** An OpenID Connect issuer on loopback for tests: its discovery document and keys over real HTTP, and ID tokens signed with its keys. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll } from 'vitest';
import { useRuntime } from './runtime.ts';

export type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

/** What a token is signed with: the key (the issuer's current one unless said), the `kid` it names (`k1`) and the algorithm (ES256). */
export interface Signing {
  key?: KeyPair;
  kid?: string;
  alg?: string;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** `published` are the keys its JWKS serves now; counts the key fetches. */
export class Issuer {
  server!: Server;
  url = '';
  published: JWK[] = [];
  keyFetches = 0;
  /** The key tokens are signed with unless said, published as `k1` by `start`. */
  current!: KeyPair;

  async start() {
    this.server = createServer((request, response) => {
      if (request.url === '/.well-known/openid-configuration')
        return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer: this.url, jwks_uri: `${this.url}/jwks` }));
      if (request.url === '/jwks') {
        this.keyFetches++;
        return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.published }));
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.current = await generateKeyPair('ES256');
    await this.publish(this.current, 'k1');
    return this;
  }

  async publish(pair: KeyPair, kid: string, alg = 'ES256') {
    this.published.push({ ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' });
  }

  /** Stops publishing the key `kid`, as an issuer does some time after it rotated to another. */
  withdraw(kid: string) {
    this.published = this.published.filter((key) => key.kid !== kid);
  }

  /** The claims of an ID token of this issuer for `audience`, valid for 5 minutes, with `claims` over the defaults. */
  claims(audience: string, claims: Record<string, unknown> = {}) {
    const now = Math.floor(Date.now() / 1000);
    return { iss: this.url, aud: audience, iat: now, exp: now + 300, email_verified: true, ...claims };
  }

  /** An ID token of this issuer for `audience`, valid for 5 minutes, with `claims` over the defaults. */
  token(audience: string, claims: Record<string, unknown> = {}, { key, kid = 'k1', alg = 'ES256' }: Signing = {}) {
    return new SignJWT(this.claims(audience, claims)).setProtectedHeader({ alg, kid }).sign((key ?? this.current).privateKey);
  }

  /** The same claims unsigned (`alg: none`), which no verifier may take. */
  unsignedToken(audience: string, claims: Record<string, unknown> = {}) {
    return `${base64url({ alg: 'none' })}.${base64url(this.claims(audience, claims))}.`;
  }

  /** The same claims signed with HS256 and a shared secret (`kid` k1): by default this issuer's public key, as a forger who read the JWKS would. */
  async sharedSecretToken(audience: string, claims: Record<string, unknown> = {}, secret?: string) {
    const shared = new TextEncoder().encode(secret ?? JSON.stringify(this.published[0]));
    return new SignJWT(this.claims(audience, claims)).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).sign(shared);
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A file's local runtime with people signing in: an issuer started on
 * loopback, named to the functions as the stack names its own (cdk/sign-in.ts:
 * issuer, the console's client as audience, the groups claim), and every call
 * reading keys and the mapping as they are now (no directory cache). Call it
 * at the top of the file, before the runtime starts.
 */
export async function useRuntimeWithIssuer(audience = 'console-client') {
  const issuer = await new Issuer().start();
  Object.assign(process.env, { OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: audience, OIDC_GROUPS_CLAIM: 'groups', DIRECTORY_CACHE_TTL_MS: '0' });
  const t = useRuntime();
  afterAll(() => issuer.close());
  return { issuer, audience, t };
}
