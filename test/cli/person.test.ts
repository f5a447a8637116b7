/**
 * The CLI as a person, through the local runtime and its real OpenID
 * provider: `rules sign-in` opens the sign-in page in "the browser" (a
 * stand-in run as $BROWSER that types the demo person's password on the
 * provider's page, test/helpers/demo-browser.ts) and takes the code back on
 * its loopback redirect; `rules whoami` and `rules call` act as the person,
 * refreshing the short-lived ID token; `rules sign-out` revokes the refresh
 * token. A callback with another state or issuer is refused, the session file
 * is its user's alone, and no token is ever printed.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as oauth from 'oauth4webapi';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main, runCli } from '../../lib/cli/main.ts';
import { CallRefused } from '../../lib/cli/person.ts';
import { sessionFile, type PersonSession } from '../../lib/cli/session.ts';
import { simpleRule } from '../helpers/entities.ts';
import { captureOutput } from '../helpers/output-capture.ts';
import { useRuntime } from '../helpers/runtime.ts';

const output = captureOutput();
// ID tokens of 2 s, so that a refresh is seen.
const t = useRuntime({ openIdProvider: { idTokenTtlSeconds: 2 } });

const root = fileURLToPath(new URL('../..', import.meta.url));
const browser = `'${join(root, 'node_modules/.bin/tsx')}' '${join(root, 'test/helpers/demo-browser.ts')}'`;
const folder = mkdtempSync(join(tmpdir(), 'rules-person-'));
const anaFile = join(folder, 'ana', 'session.json');
/** What the CLI printed: its answers and its notes on standard error. */
const printed: string[] = [];
/** Every token the sessions held, to look for in what was printed. */
const tokens = new Set<string>();

const rules = async (env: NodeJS.ProcessEnv, ...args: string[]) => {
  const answer = await runCli(args, env, { say: (line) => void printed.push(line), signInTimeoutMs: 60_000 });
  printed.push(answer);
  return answer;
};
const asAna = (...args: string[]) => rules({ RULES_SESSION_FILE: anaFile, BROWSER: browser }, ...args);
const signIn = (env: NodeJS.ProcessEnv, person: string) => rules(env, 'sign-in', '--api', t.runtime.url, '--workspace', 'demo', '--login-hint', person);

function session(file = anaFile): PersonSession {
  const kept = JSON.parse(readFileSync(file, 'utf8')) as PersonSession;
  tokens.add(kept.idToken);
  if (kept.refreshToken) tokens.add(kept.refreshToken);
  return kept;
}

/** Waits until the session's ID token has expired at the API (which allows no leeway). */
const untilExpired = async (kept: PersonSession) => new Promise((resolve) => setTimeout(resolve, Date.parse(kept.expiresAt) - Date.now() + 1100));

/** A refresh at the issuer, made by the test itself with oauth4webapi. */
async function refreshAtIssuer(refreshToken: string) {
  const issuer = new URL(t.runtime.openId!.issuer);
  const insecure = { [oauth.allowInsecureRequests]: true };
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
  const client = { client_id: t.runtime.openId!.clientId };
  const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, insecure);
  return oauth.processRefreshTokenResponse(as, client, response);
}

afterAll(() => {
  // The last word: no token the sessions ever held was printed, by the CLI or by anything in this process.
  const everything = [...printed, ...output].join('\n');
  expect(tokens.size).toBeGreaterThan(4);
  for (const token of tokens) {
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(token.split('.')[2] ?? token);
  }
});

describe('rules sign-in', () => {
  it('signs a person in through their browser, and keeps the session in a file only they can read', async () => {
    const answer = await signIn({ RULES_SESSION_FILE: anaFile, BROWSER: browser }, 'ana');
    expect(answer).toContain(`session kept in ${anaFile}`);
    expect(answer).toContain('ana@demo.example');
    expect(answer).toContain('in workspace demo: editor on every branch');
    // The address it sent the browser to, printed too: the authorization code flow with PKCE, state and nonce.
    const address = new URL(/http:\S+\/auth\?\S+/.exec(printed.join('\n'))![0]);
    expect(address.origin).toBe(t.runtime.openId!.issuer);
    expect(Object.fromEntries(address.searchParams)).toMatchObject({
      client_id: 'rules-console',
      redirect_uri: 'http://localhost:53682/callback',
      response_type: 'code',
      code_challenge_method: 'S256',
      login_hint: 'ana',
      prompt: 'login',
      state: expect.any(String),
      nonce: expect.any(String),
      code_challenge: expect.any(String),
    });
    expect(statSync(anaFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(folder, 'ana')).mode & 0o777).toBe(0o700);
    expect(session()).toMatchObject({
      api: t.runtime.url,
      workspace: 'demo',
      issuer: t.runtime.openId!.issuer,
      clientId: 'rules-console',
      idToken: expect.stringMatching(/^eyJ/),
      refreshToken: expect.any(String),
    });
  });

  it("refuses a callback whose state or issuer is not the sign-in's, and keeps nothing", async () => {
    const file = join(folder, 'forged.json');
    for (const [forged, refusal] of [
      ['state=guessed', /state this sign-in did not send/],
      [`iss=http://127.0.0.1:9`, /another issuer/],
    ] as const) {
      await expect(signIn({ RULES_SESSION_FILE: file, BROWSER: `${browser} --forge ${forged}` }, 'ben')).rejects.toThrow(refusal);
      expect(existsSync(file)).toBe(false);
    }
  });

  it('gives up when the browser never comes back, and frees its port', async () => {
    const file = join(folder, 'never.json');
    await expect(
      runCli(
        ['sign-in', '--api', t.runtime.url, '--workspace', 'demo'],
        { RULES_SESSION_FILE: file, BROWSER: 'true' },
        { say: () => undefined, signInTimeoutMs: 300 },
      ),
    ).rejects.toThrow(/no sign-in came back within/);
    expect(existsSync(file)).toBe(false);
  });

  it('sends tokens over https only, or http on this machine', async () => {
    await expect(asAna('sign-in', '--api', 'http://rules.example.com', '--workspace', 'demo')).rejects.toThrow(/must be https/);
    await expect(asAna('sign-in', '--workspace', 'demo')).rejects.toThrow(/sign-in needs --api URL and --workspace/);
  });

  it('keeps the session in $RULES_SESSION_FILE, else in the configuration folder', () => {
    expect(sessionFile({ RULES_SESSION_FILE: '/tmp/s.json', HOME: '/home/ana' })).toBe('/tmp/s.json');
    expect(sessionFile({ HOME: '/home/ana' })).toBe('/home/ana/.config/rules/session.json');
    expect(sessionFile({ HOME: '/home/ana', XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/rules/session.json');
  });
});

describe('rules whoami and rules call', () => {
  it('calls the API as the person, who the audit log names', async () => {
    expect(await asAna('whoami')).toMatch(/^ana@demo\.example, as http:\/\/127\.0\.0\.1:\d+ says \(subject ana\)\nin workspace demo: editor on every branch$/);
    const rules = JSON.parse(await asAna('call', 'GET', '/dev/v1/rule?pageSize=2', '--branch', 'staging'));
    // Staging's four rules, two a page.
    expect(rules).toMatchObject({ code: '', pageSize: 2, totalCount: 4 });
    expect(rules.data).toHaveLength(2);
    const body = join(folder, 'rule.json');
    writeFileSync(body, JSON.stringify(simpleRule('ana-fee', 'Ana fee')));
    const created = JSON.parse(await asAna('call', 'post', '/dev/v1/rule', '--branch', 'staging', '--body', `@${body}`));
    expect(created.data).toMatchObject({ id: 'ana-fee', checksum: expect.any(String) });
    const audit = await t.api<{ records: { actor: { owner: string; person?: { email: string } } }[] }>('/dev/v1/audit', {
      query: { operation: 'createEntity', targetId: 'ana-fee' },
    });
    expect(audit.body.data.records[0]!.actor).toMatchObject({ owner: 'ana@demo.example', person: { email: 'ana@demo.example' } });
  });

  it("answers the API's refusal: rules call prints its body and exits 1", async () => {
    await expect(asAna('call', 'POST', '/dev/v1/rule/ana-fee/publish', '--branch', 'staging', '--body', '{}')).rejects.toThrow(CallRefused);
    const stdout: string[] = [];
    const stderr: string[] = [];
    vi.mocked(console.log).mockImplementation((line: string) => void stdout.push(line));
    vi.mocked(console.error).mockImplementation((line: string) => void stderr.push(line));
    vi.stubEnv('RULES_SESSION_FILE', anaFile);
    try {
      await main(['call', 'POST', '/dev/v1/rule/ana-fee/publish', '--branch', 'staging', '--body', '{}']);
      expect(process.exitCode).toBe(1);
    } finally {
      vi.unstubAllEnvs();
      process.exitCode = undefined;
    }
    expect(JSON.parse(stdout.join('\n'))).toMatchObject({ code: 'forbidden', data: { permission: 'publish', role: 'editor' } });
    expect(stderr).toEqual([expect.stringMatching(/^rules: the API answered 403 forbidden: /)]);
    printed.push(...stdout, ...stderr);
    await expect(asAna('call', 'FETCH', '/dev/v1/rule')).rejects.toThrow(/call needs METHOD/);
    await expect(asAna('call', 'GET', 'dev/v1/rule')).rejects.toThrow(/PATH starting with \//);
  });

  it('refreshes an ID token that has expired, with the refresh token the issuer gave (and keeps the one it gives back)', async () => {
    const before = session();
    await untilExpired(before);
    expect(await asAna('whoami')).toContain('ana@demo.example');
    const after = session();
    expect(after.idToken).not.toBe(before.idToken);
    expect(Date.parse(after.expiresAt)).toBeGreaterThan(Date.parse(before.expiresAt));
    expect(after.refreshToken).toBeTruthy();
    expect(statSync(anaFile).mode & 0o777).toBe(0o600);
  });

  it('refreshes once when the API answers 401 token_expired, even where its clock and the session disagree', async () => {
    const kept = session();
    await untilExpired(kept);
    // The session believes its token good for an hour; the API says it has expired.
    writeFileSync(anaFile, JSON.stringify({ ...kept, expiresAt: new Date(Date.now() + 3600_000).toISOString() }), { mode: 0o600 });
    expect(JSON.parse(await asAna('call', 'GET', '/dev/v1/me')).data).toMatchObject({ owner: 'ana@demo.example' });
    expect(session().idToken).not.toBe(kept.idToken);
  });

  it('says to sign in when there is no session', async () => {
    await expect(rules({ RULES_SESSION_FILE: join(folder, 'nobody.json') }, 'whoami')).rejects.toThrow(/not signed in .*rules sign-in/);
  });
});

describe('rules sign-out', () => {
  it('revokes the refresh token at the issuer and deletes the session', async () => {
    // A refresh token that works a moment before the sign-out (the issuer rotates it: the session keeps the new one).
    const kept = session();
    const renewed = await refreshAtIssuer(kept.refreshToken!);
    writeFileSync(anaFile, JSON.stringify({ ...kept, refreshToken: renewed.refresh_token ?? kept.refreshToken }), { mode: 0o600 });
    const last = session().refreshToken!;
    expect(await asAna('sign-out')).toBe(`Signed out: the refresh token is revoked at the issuer, and the session in ${anaFile} is deleted`);
    expect(existsSync(anaFile)).toBe(false);
    await expect(refreshAtIssuer(last)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(asAna('whoami')).rejects.toThrow(/not signed in/);
    expect(await asAna('sign-out')).toBe(`Not signed in (no session in ${anaFile})`);
  });
});
