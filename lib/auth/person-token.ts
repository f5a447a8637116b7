/**
 * A person's token, as `Authorization: Bearer <token>` carries it: an OpenID
 * Connect ID token of the issuer the stack names (`OIDC_ISSUER`), issued to
 * the console (`OIDC_AUDIENCE`, its client id). The ID token, not an access
 * token: it is a signed JWT at every issuer (Google Workspace's access tokens
 * are opaque, Cognito's name no audience and no e-mail), and it names the
 * person's verified e-mail and groups (`OIDC_GROUPS_CLAIM`).
 *
 * Verified with `jose` against the issuer's published keys: its discovery
 * document gives their URL, read once per warm function; the keys are kept
 * for a minute at most, and read again sooner when a token names a key not
 * among them (the issuer rotated its keys), at most every 30 s. Issuer,
 * audience, expiry and not-before are checked, with no leeway, and only
 * asymmetric signatures are taken (never `none`, never a shared secret). Each
 * failed check is its own 401 code.
 *
 * `jose` is loaded with the first token (a function called only with keys
 * never loads it: it adds some 30 ms to a start).
 *
 * A warm function remembers the tokens it verified, by their SHA-256 (never
 * the token itself), for at most a minute and never past the token's expiry:
 * a person's calls in a row cost a hash, not a signature check, and a key the
 * issuer withdraws stops being trusted within that minute.
 */
import { createHash } from 'node:crypto';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { errors } from '../vocabulary/errors.ts';

export interface SignInConfig {
  /** The `iss` tokens must carry, exactly. */
  issuer: string;
  /** The `aud` tokens must name: the console's client id. */
  audience: string;
  /** The claim listing the person's groups. */
  groupsClaim: string;
  /** The issuer's sign-out page when its discovery document names none (Cognito's `/logout`). */
  signOutUrl?: string;
}

/** The issuer the functions are told of (cdk/sign-in.ts, the local runtime), if any. */
export function signInConfigFromEnv(env: NodeJS.ProcessEnv = process.env): SignInConfig | undefined {
  const { OIDC_ISSUER: issuer, OIDC_AUDIENCE: audience, OIDC_GROUPS_CLAIM: groupsClaim, OIDC_SIGN_OUT_URL: signOutUrl } = env;
  return issuer && audience ? { issuer, audience, groupsClaim: groupsClaim || 'groups', ...(signOutUrl && { signOutUrl }) } : undefined;
}

/** A person as a verified token names them: the issuer and subject are who they are; the e-mail only when the issuer verified it. */
export interface Person {
  issuer: string;
  subject: string;
  email?: string;
  name?: string;
  groups: string[];
}

/** The signature algorithms taken: asymmetric only, as issuers publish them. */
export const signatureAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** The longest token read: well above any issuer's ID token, and checked before any decoding. */
export const maxTokenLength = 16_384;
/** How long a warm function trusts a token it verified, at most (never past its expiry), and how many it remembers. */
export const verifiedTokens = { ttlMs: 60_000, max: 1_000 } as const;
/** How long to wait for the issuer's discovery document or keys. */
const fetchTimeoutMs = 3_000;

/** The URL of the issuer's keys, from its discovery document, which must name the same issuer. */
async function jwksUriOf(issuer: string, fetcher: typeof fetch): Promise<URL> {
  const response = await fetcher(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(fetchTimeoutMs) });
  if (!response.ok) throw new Error(`the issuer's discovery document answered ${response.status}`);
  const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  if (document.issuer !== issuer) throw new Error('the discovery document names another issuer');
  if (typeof document.jwks_uri !== 'string') throw new Error('the discovery document names no jwks_uri');
  return new URL(document.jwks_uri);
}

/** The person a payload names, with groups as a list of strings (anything else there names none). */
function personOf(payload: JWTPayload, config: SignInConfig): Person {
  if (typeof payload.sub !== 'string' || !payload.sub) throw errors.tokenInvalid('token_malformed', 'it names no subject (sub)');
  const groups = payload[config.groupsClaim];
  const email = payload.email_verified === true && typeof payload.email === 'string' ? payload.email.toLowerCase() : undefined;
  return {
    issuer: config.issuer,
    subject: payload.sub,
    ...(email && { email }),
    ...(typeof payload.name === 'string' && { name: payload.name }),
    groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [],
  };
}

type Jose = typeof import('jose');
let joseModule: Promise<Jose> | undefined;
const loadJose = () => (joseModule ??= import('jose'));

/** Which 401 a failed verification is: the check that failed. */
function refusalOf(error: unknown, { errors: jose }: Jose) {
  if (error instanceof jose.JWTExpired) return errors.tokenInvalid('token_expired', 'it has expired: sign in again, or refresh it');
  if (error instanceof jose.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return errors.tokenInvalid('token_issuer_invalid', 'it was issued by another issuer than this service signs people in with');
    if (error.claim === 'aud') return errors.tokenInvalid('token_audience_invalid', 'it was issued to another client than this service');
    if (error.claim === 'nbf' || error.claim === 'iat') return errors.tokenInvalid('token_not_yet_valid', 'it is not valid yet');
    return errors.tokenInvalid('token_malformed', `its ${error.claim} claim is not valid`);
  }
  if (error instanceof jose.JOSEAlgNotAllowed || error instanceof jose.JOSENotSupported)
    return errors.tokenInvalid('token_algorithm_refused', 'its signature algorithm is not taken (only asymmetric ones are)');
  if (error instanceof jose.JWKSNoMatchingKey || error instanceof jose.JWSSignatureVerificationFailed || error instanceof jose.JWKSMultipleMatchingKeys)
    return errors.tokenInvalid('token_signature_invalid', "its signature is not one of the issuer's keys");
  if (error instanceof jose.JWSInvalid || error instanceof jose.JWTInvalid) return errors.tokenInvalid('token_malformed', 'it is not a signed JWT');
  return undefined;
}

export interface VerifierOptions {
  /** The issuer's keys, instead of those its discovery document names (tests). */
  keys?: JWTVerifyGetKey;
  fetcher?: typeof fetch;
  /** The least time between two readings of the issuer's keys: 30 s, so that tokens naming made-up keys cannot make it hammer the issuer. */
  keysCooldownMs?: number;
}

/**
 * A verifier of people's tokens for one issuer: answers the person, or
 * throws the 401 of the check that failed (503 sign_in_unavailable when the
 * issuer's keys cannot be read).
 *
 * @example
 * const verify = tokenVerifier(signInConfigFromEnv()!);
 * await verify(bearerToken); // { issuer, subject: '0f1e…', email: 'ana@bank.example', groups: ['pricing-authors'] }
 */
export function tokenVerifier(config: SignInConfig, options: VerifierOptions = {}) {
  const fetcher = options.fetcher ?? fetch;
  let keys: Promise<JWTVerifyGetKey> | undefined = options.keys && Promise.resolve(options.keys);
  const keysOf = () =>
    (keys ??= Promise.all([jwksUriOf(config.issuer, fetcher), loadJose()]).then(([uri, { createRemoteJWKSet }]) =>
      createRemoteJWKSet(uri, {
        timeoutDuration: fetchTimeoutMs,
        cooldownDuration: options.keysCooldownMs ?? 30_000,
        // Kept no longer than a verified token is remembered: a key the issuer withdraws stops being trusted within that minute.
        cacheMaxAge: verifiedTokens.ttlMs,
      }),
    ));
  const verified = new Map<string, { person: Person; until: number }>();
  return async (token: string): Promise<Person> => {
    if (token.length > maxTokenLength) throw errors.tokenInvalid('token_malformed', `it is longer than ${maxTokenLength} characters`);
    const digest = createHash('sha256').update(token).digest('base64url');
    const known = verified.get(digest);
    if (known && known.until > Date.now()) return known.person;
    verified.delete(digest);
    let getKey: JWTVerifyGetKey;
    const jose = await loadJose();
    try {
      getKey = await keysOf();
    } catch {
      keys = undefined;
      throw errors.signInUnavailable();
    }
    try {
      const { payload } = await jose.jwtVerify(token, getKey, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: signatureAlgorithms,
        clockTolerance: 0,
      });
      const person = personOf(payload, config);
      // Oldest first out: a Map iterates in insertion order.
      if (verified.size >= verifiedTokens.max) verified.delete(verified.keys().next().value!);
      verified.set(digest, { person, until: Math.min(Date.now() + verifiedTokens.ttlMs, (payload.exp ?? 0) * 1000) });
      return person;
    } catch (error) {
      const refusal = refusalOf(error, jose);
      if (refusal) throw refusal;
      if (error instanceof jose.errors.JWKSTimeout || error instanceof TypeError) throw errors.signInUnavailable();
      throw error;
    }
  };
}
