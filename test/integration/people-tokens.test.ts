/**
 * A person's bad tokens as writes, through the local HTTP runtime: an edit of
 * a draft with a token that fails a check (audience, issuer, expiry,
 * not-before, `alg: none`, a key the issuer never published, a shared secret,
 * a payload changed after signing, garbage) is refused with that check's own
 * 401; without the workspace, or beside a key, a 400; for a workspace that
 * gives the person nothing, a 403.
 * And nothing else is done: the whole table is as it was, item for item (a
 * 403 adds only its record to that workspace's audit log), so no draft
 * changed, no write was audited and no task was made.
 *
 * The keys the issuer publishes change under a warm function: a key rotated
 * in is taken once the function reads the keys again, which a token naming a
 * key it does not know makes it do, at most every 30 s; a key withdrawn is
 * trusted for a minute at most, by new tokens (the keys read are kept a
 * minute) and remembered ones (a verified token is remembered a minute). The
 * clock is moved forward for these, not waited for.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDocumentClient } from '../../lib/store/dynamo/client.ts';
import { json } from '../helpers/credentials.ts';
import { createWorkspaceWithKey, simpleRule } from '../helpers/entities.ts';
import { expectFailure, expectUnpaged } from '../helpers/envelope.ts';
import { Issuer, type Signing } from '../helpers/issuer.ts';
import { useRuntime } from '../helpers/runtime.ts';

const issuer = new Issuer();
const audience = 'console-client';
await issuer.start();
// What the stack tells every function (cdk/sign-in.ts); read when the first bearer token arrives.
Object.assign(process.env, { OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: audience, OIDC_GROUPS_CLAIM: 'groups', DIRECTORY_CACHE_TTL_MS: '0' });
const t = useRuntime({ seed: false });

const workspace = 'tokens-ws' as const;
const elsewhere = 'tokens-elsewhere' as const;
const ruleId = 'tokens-fee';
const ana = { sub: 'sub-ana', email: 'ana@bank.example', groups: ['pricing-authors'] };
const keys = {} as Record<typeof workspace | typeof elsewhere, string>;
let client: ReturnType<typeof createDocumentClient>;

beforeAll(async () => {
  for (const id of [workspace, elsewhere]) {
    keys[id] = (await createWorkspaceWithKey(t.runtime.store, { id })).key;
    expectUnpaged(await t.api('/dev/v1/rule', { ...json('POST', simpleRule(ruleId, 'Tokens fee')), key: keys[id] }), 201);
  }
  // Ana edits in the one workspace only.
  expectUnpaged(
    await t.api('/dev/v1/access', { ...json('PUT', { groups: [{ group: 'pricing-authors', role: 'editor' }], people: [] }), key: keys[workspace] }),
  );
  client = createDocumentClient({ tableName: t.runtime.tableName, endpoint: t.runtime.dynamoEndpoint });
});
afterAll(async () => {
  vi.useRealTimers();
  client?.destroy();
  await issuer.close();
});

/** Every item of the table, by its key, as text. */
async function tableItems() {
  const items = new Map<string, string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: t.runtime.tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of page.Items ?? []) items.set(`${item.PK} ${item.SK}`, JSON.stringify(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The keys of the items that came (+), went (-) or changed (~) between two readings of the table. */
async function changedSince(before: Map<string, string>) {
  const after = await tableItems();
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((key) => before.get(key) !== after.get(key))
    .map((key) => `${before.has(key) ? (after.has(key) ? '~' : '-') : '+'} ${key}`)
    .sort();
}

/** The draft's name and checksum now, read with the workspace's key. */
const draftIn = async (id: keyof typeof keys) => expectUnpaged(await t.api<{ name: string; checksum: string }>(`/dev/v1/rule/${ruleId}`, { key: keys[id] }));

/** Ana's ID token, with `claims` over hers, signed as said. */
const anaToken = (claims: Record<string, unknown> = {}, signing: Signing = {}) => issuer.token(audience, { ...ana, ...claims }, signing);

/** An edit of the draft (its checksum read just before) sent with `headers` and no key unless one is given. */
async function edit(headers: Record<string, string>, options: { key?: string; inWorkspace?: keyof typeof keys } = {}) {
  const { checksum } = await draftIn(options.inWorkspace ?? workspace);
  const name = `Renamed ${Math.random().toString(36).slice(2, 8)}`;
  const response = await t.api(`/dev/v1/rule/${ruleId}`, { ...json('PATCH', { checksum, name }), key: options.key ?? null, headers });
  return { response, name };
}

const bearer = (token: string, inWorkspace: string = workspace) => ({ authorization: `Bearer ${token}`, 'service-workspace': inWorkspace });

/** Edits with `token`: it must be taken, and the draft renamed. */
async function accepted(token: string) {
  const { response, name } = await edit(bearer(token));
  expectUnpaged(response);
  expect((await draftIn(workspace)).name).toBe(name);
}

/** Edits with `headers` (or a bearer `token`): it must be refused with `status` and `code`, and the table left exactly as it was. */
async function refused(headers: Record<string, string> | string, status: number, code: string, options: { key?: string } = {}) {
  const before = await tableItems();
  const { response } = await edit(typeof headers === 'string' ? bearer(headers) : headers, options);
  expectFailure(response, status, code);
  expect(await changedSince(before)).toEqual([]);
}

const now = () => Math.floor(Date.now() / 1000);

describe('a write with a bad token', () => {
  beforeAll(async () => {
    // The function has read the issuer's keys and takes Ana's tokens: what follows fails for the token alone.
    await accepted(await anaToken());
  });

  it.each<[string, () => Promise<string> | string, string]>([
    ['for another client (audience)', () => anaToken({ aud: 'another-client' }), 'token_audience_invalid'],
    ['of another issuer', () => anaToken({ iss: 'https://issuer.example' }), 'token_issuer_invalid'],
    ['expired a second ago', () => anaToken({ exp: now() - 1 }), 'token_expired'],
    ['not valid for another minute (nbf)', () => anaToken({ nbf: now() + 60 }), 'token_not_yet_valid'],
    ['unsigned (alg: none)', () => issuer.unsignedToken(audience, ana), 'token_algorithm_refused'],
    ['signed with a shared secret (HS256)', () => issuer.sharedSecretToken(audience, ana, 'a shared secret of thirty-two bytes!'), 'token_algorithm_refused'],
    ["signed with HS256 and the issuer's public key as the secret", () => issuer.sharedSecretToken(audience, ana), 'token_algorithm_refused'],
    [
      'signed by a key the issuer never published, under its key id',
      async () => anaToken({}, { key: await generateKeyPair('ES256') }),
      'token_signature_invalid',
    ],
    [
      'signed by a key the issuer never published, under a key id of its own',
      async () => anaToken({}, { key: await generateKeyPair('ES256'), kid: 'k-stranger' }),
      'token_signature_invalid',
    ],
    [
      "with its payload changed after signing (another person's subject)",
      async () => {
        const [header, , signature] = (await anaToken()).split('.');
        return `${header}.${Buffer.from(JSON.stringify(issuer.claims(audience, { ...ana, sub: 'sub-boss' }))).toString('base64url')}.${signature}`;
      },
      'token_signature_invalid',
    ],
    ['that is not a JWT', () => 'not-a-token', 'token_malformed'],
  ])('%s is a 401 and changes nothing', async (_, make, code) => {
    await refused(await make(), 401, code);
  });

  it('is a 400 without the workspace or beside a key (an admin key that could make the edit), a 401 under another scheme, and changes nothing', async () => {
    const token = await anaToken();
    await refused({ authorization: `Bearer ${token}` }, 400, 'invalid_request');
    await refused(bearer(token), 400, 'invalid_request', { key: keys[workspace] });
    await refused({ authorization: `Basic ${token}`, 'service-workspace': workspace }, 401, 'token_malformed');
  });

  it('for a workspace that gives the person nothing is a 403 whose record there is the one thing written', async () => {
    const before = await tableItems();
    const { response } = await edit(bearer(await anaToken(), elsewhere), { inWorkspace: elsewhere });
    expectFailure(response, 403, 'forbidden');
    expect(await changedSince(before)).toEqual([expect.stringMatching(new RegExp(`^\\+ AUDIT:${elsewhere} R:\\d{12}$`)), `~ AUDIT:${elsewhere} HEAD`]);
    const { records } = expectUnpaged(
      await t.api<{ records: { operation: string; outcome: string; actor: { owner: string } }[] }>('/dev/v1/audit', {
        key: keys[elsewhere],
        query: { targetId: ruleId },
      }),
    );
    expect(records[0]).toMatchObject({ operation: 'updateEntity', outcome: 'forbidden', actor: { owner: 'ana@bank.example' } });
  });
});

describe("the issuer's keys changing under a warm function", () => {
  /** Moves the clock on by `ms`: the function's clock, jose's and the issuer's alike (timers keep real time). */
  const later = (ms: number) => vi.setSystemTime(Date.now() + ms);
  beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true }));
  afterAll(() => void vi.useRealTimers());

  it('takes a key rotated in once it reads the keys again, and drops one withdrawn at once: new tokens when it reads them, remembered ones after their minute', async () => {
    // More than a minute on: nothing remembered, the keys read stale.
    later(61_000);
    const remembered = await anaToken();
    let fetches = issuer.keyFetches;
    await accepted(remembered);
    expect(issuer.keyFetches, 'the keys are read again: those read are more than a minute old').toBe(fetches + 1);

    // The issuer rotates at once (a key it fears was leaked): k2, of another algorithm, in; k1 out.
    const rotated = await generateKeyPair('RS256');
    await issuer.publish(rotated, 'k2', 'RS256');
    issuer.withdraw('k1');
    const signedWithK2 = { key: rotated, kid: 'k2', alg: 'RS256' };
    // The keys were read less than 30 s ago: a key id the function does not know is not fetched for yet.
    fetches = issuer.keyFetches;
    await refused(await anaToken({}, signedWithK2), 401, 'token_signature_invalid');
    expect(issuer.keyFetches).toBe(fetches);

    later(31_000);
    await accepted(await anaToken({}, signedWithK2));
    expect(issuer.keyFetches).toBe(fetches + 1);
    // Now it knows k1 is gone: a new token signed with it is refused; one it verified 31 s ago is still remembered, until its minute is up.
    await refused(await anaToken(), 401, 'token_signature_invalid');
    await accepted(remembered);
    later(30_000);
    await refused(remembered, 401, 'token_signature_invalid');
    await accepted(await anaToken({}, signedWithK2));
  });

  it('stops taking a key withdrawn with nothing new to fetch for within a minute, new tokens and remembered ones', async () => {
    later(61_000);
    const current = await generateKeyPair('ES256');
    await issuer.publish(current, 'k3');
    const signedWithK3 = { key: current, kid: 'k3' };
    const remembered = await anaToken({}, signedWithK3);
    await accepted(remembered);

    // The issuer withdraws k3 for k4, and no token names k4 yet: the function has no unknown key id to fetch for.
    const next = await generateKeyPair('ES256');
    await issuer.publish(next, 'k4');
    issuer.withdraw('k3');
    await accepted(remembered);
    later(61_000);
    await refused(remembered, 401, 'token_signature_invalid');
    await refused(await anaToken({}, signedWithK3), 401, 'token_signature_invalid');
    await accepted(await anaToken({}, { key: next, kid: 'k4' }));
  });
});
