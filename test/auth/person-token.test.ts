/**
 * People's tokens, verified against an issuer served on loopback (its
 * discovery document and its keys, over real HTTP): a good token names the
 * person; a wrong audience or issuer, an expired or not-yet-valid token, an
 * unsigned one (`alg: none`), one signed with a shared secret (the issuer's
 * public key as one too), one signed by a key the issuer never published, and
 * garbage are each refused with their own 401 code. A key the issuer rotated
 * in is fetched when a token names it; one it withdrew is taken no more than
 * a minute later; keys that cannot be read are a 503.
 */
import { generateKeyPair } from 'jose';
import { Issuer, type KeyPair as Pair } from '../helpers/issuer.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { maxTokenLength, signInConfigFromEnv, tokenVerifier, verifiedTokens, type SignInConfig } from '../../lib/auth/person-token.ts';
import { ApiError } from '../../lib/vocabulary/errors.ts';

const issuer = new Issuer();
let config: SignInConfig;
const now = () => Math.floor(Date.now() / 1000);

const token = (claims: Record<string, unknown> = {}, options: { key?: Pair; kid?: string } = {}) =>
  issuer.token(config.audience, { sub: 'person-ana', email: 'ana@bank.example', name: 'Ana', groups: ['pricing-authors'], ...claims }, options);

/** The 401 (or other) code a verification answers. */
async function refusal(verify: (token: string) => Promise<unknown>, value: string) {
  try {
    await verify(value);
    return 'accepted';
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return `${error.status} ${error.code}`;
  }
}

beforeAll(async () => {
  await issuer.start();
  config = { issuer: issuer.url, audience: 'console-client', groupsClaim: 'groups' };
});
afterAll(() => issuer.close());

describe('a person token', () => {
  it('names the person: issuer and subject, the verified e-mail, the name and the groups', async () => {
    const verify = tokenVerifier(config);
    expect(await verify(await token())).toEqual({
      issuer: issuer.url,
      subject: 'person-ana',
      email: 'ana@bank.example',
      name: 'Ana',
      groups: ['pricing-authors'],
    });
    // An e-mail the issuer did not verify names no one; groups that are not strings are left out.
    expect(await verify(await token({ email_verified: false, groups: ['ok', 7, { x: 1 }] }))).toEqual({
      issuer: issuer.url,
      subject: 'person-ana',
      name: 'Ana',
      groups: ['ok'],
    });
  });

  it('is refused, with the code of the check that failed, when it is wrong in any way', async () => {
    const verify = tokenVerifier(config);
    const stranger = await generateKeyPair('ES256');
    const unsigned = issuer.unsignedToken(config.audience, { sub: 'x' });
    const shared = await issuer.sharedSecretToken(config.audience, { sub: 'x' }, 'a shared secret of thirty-two bytes!');
    // The issuer's public key as the shared secret: what a forger who read the JWKS would sign with, against a verifier taking HS256.
    const publicKeyAsSecret = await issuer.sharedSecretToken(config.audience, { sub: 'x' });
    const cases: [string, string][] = [
      [await token({ aud: 'another-client' }), '401 token_audience_invalid'],
      [await token({ iss: 'https://issuer.example' }), '401 token_issuer_invalid'],
      [await token({ exp: now() - 1 }), '401 token_expired'],
      [await token({ nbf: now() + 60 }), '401 token_not_yet_valid'],
      [unsigned, '401 token_algorithm_refused'],
      [shared, '401 token_algorithm_refused'],
      [publicKeyAsSecret, '401 token_algorithm_refused'],
      [await token({}, { key: stranger }), '401 token_signature_invalid'],
      [await token({}, { key: stranger, kid: 'k-unknown' }), '401 token_signature_invalid'],
      ['not a token', '401 token_malformed'],
      ['a'.repeat(maxTokenLength + 1), '401 token_malformed'],
      [await token({ sub: '' }), '401 token_malformed'],
    ];
    for (const [value, code] of cases) expect(await refusal(verify, value), code).toBe(code);
  });

  it("takes a key the issuer rotated in, reading the issuer's keys again only for a key it does not know", async () => {
    // No wait between two readings of the keys here (30 s by default, so that bogus key ids cannot make it hammer the issuer).
    const verify = tokenVerifier(config, { keysCooldownMs: 0 });
    await verify(await token());
    const fetches = issuer.keyFetches;
    await verify(await token());
    expect(issuer.keyFetches).toBe(fetches);
    const next = await generateKeyPair('ES256');
    await issuer.publish(next, 'k2');
    expect(await verify(await token({}, { key: next, kid: 'k2' }))).toMatchObject({ subject: 'person-ana' });
    expect(issuer.keyFetches).toBe(fetches + 1);
  });

  it('stops being taken within a minute of the issuer withdrawing its key, remembered or new', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      const verify = tokenVerifier(config);
      const withdrawn = await generateKeyPair('ES256');
      await issuer.publish(withdrawn, 'k-withdrawn');
      const signed = { key: withdrawn, kid: 'k-withdrawn' };
      const remembered = await token({}, signed);
      expect(await refusal(verify, remembered)).toBe('accepted');
      issuer.withdraw('k-withdrawn');
      expect(await refusal(verify, remembered)).toBe('accepted');
      vi.setSystemTime(Date.now() + verifiedTokens.ttlMs + 1);
      expect(await refusal(verify, remembered)).toBe('401 token_signature_invalid');
      expect(await refusal(verify, await token({}, signed))).toBe('401 token_signature_invalid');
      expect(await refusal(verify, await token())).toBe('accepted');
    } finally {
      vi.useRealTimers();
    }
  });

  it('is remembered by a warm function until it expires, and no longer', async () => {
    let fetched = 0;
    const fetcher: typeof fetch = (input, init) => {
      fetched++;
      return fetch(input, init);
    };
    const verify = tokenVerifier(config, { fetcher });
    const shortLived = await token({ exp: now() + 1 });
    await verify(shortLived);
    const person = await verify(shortLived);
    expect(person.subject).toBe('person-ana');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await refusal(verify, shortLived)).toBe('401 token_expired');
    // The discovery document was read once for all of it.
    expect(fetched).toBe(1);
  });

  it('is a 503 when the issuer cannot be reached, and is tried again on the next token', async () => {
    let reachable = false;
    const fetcher: typeof fetch = (input, init) => (reachable ? fetch(input, init) : Promise.reject(new TypeError('fetch failed')));
    const verify = tokenVerifier(config, { fetcher });
    expect(await refusal(verify, await token())).toBe('503 sign_in_unavailable');
    reachable = true;
    expect(await refusal(verify, await token())).toBe('accepted');
  });

  it('is refused by a discovery document that names another issuer', async () => {
    const verify = tokenVerifier(
      { ...config, issuer: `${issuer.url}/other` },
      { fetcher: (_input, init) => fetch(`${issuer.url}/.well-known/openid-configuration`, init) },
    );
    expect(await refusal(verify, await token())).toBe('503 sign_in_unavailable');
  });
});

describe('signInConfigFromEnv', () => {
  it('is the issuer and audience the stack sets, with `groups` unless another claim is named; none without both', () => {
    expect(signInConfigFromEnv({ OIDC_ISSUER: 'https://i.example', OIDC_AUDIENCE: 'c' })).toEqual({
      issuer: 'https://i.example',
      audience: 'c',
      groupsClaim: 'groups',
    });
    expect(signInConfigFromEnv({ OIDC_ISSUER: 'https://i.example', OIDC_AUDIENCE: 'c', OIDC_GROUPS_CLAIM: 'cognito:groups' })?.groupsClaim).toBe(
      'cognito:groups',
    );
    expect(signInConfigFromEnv({ OIDC_ISSUER: 'https://i.example' })).toBeUndefined();
  });
});
