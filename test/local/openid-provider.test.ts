/**
 * The local OpenID provider (npm start's): the demo people sign in on its
 * page with their passwords, and the API takes the ID tokens it issues as
 * those people, in the demo workspace, with the roles its mapping gives their
 * groups; a wrong password gets no code.
 */
import { describe, expect, it } from 'vitest';
import { demoPeople } from '../../lib/local/demo-people.ts';
import { expectUnpaged } from '../helpers/envelope.ts';
import { json } from '../helpers/credentials.ts';
import { simpleRule } from '../helpers/entities.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { signInAs } from '../helpers/sign-in.ts';

const t = useRuntime({ openIdProvider: true });
const [ana, ben, ada] = demoPeople as [(typeof demoPeople)[number], (typeof demoPeople)[number], (typeof demoPeople)[number]];

const asPerson = (idToken: string) => ({ key: null, headers: { authorization: `Bearer ${idToken}`, 'service-workspace': 'demo' } });

describe('the local OpenID provider', () => {
  it('signs a demo person in with their password, and the API takes their ID token as them', async () => {
    const { idToken, refreshToken } = await signInAs(t.runtime.openId!, ana);
    expect(refreshToken).toBeTruthy();
    const me = expectUnpaged<{ owner: string; role: string; person: { issuer: string; email: string } }>(await t.api('/dev/v1/me', asPerson(idToken)));
    expect(me).toMatchObject({ owner: ana.email, role: 'editor', person: { issuer: t.runtime.openId!.issuer, email: ana.email } });
  });

  it('has the audit log name the person as the issuer does: kind, issuer, subject, e-mail and name then', async () => {
    const { idToken } = await signInAs(t.runtime.openId!, ana);
    const post = json('POST', simpleRule('ana-first', 'Ana first'));
    const person = asPerson(idToken);
    const created = await t.api('/dev/v1/rule', { ...post, ...person, headers: { ...post.headers, ...person.headers }, branch: 'main' });
    expect(created.status).toBe(201);
    const { records } = expectUnpaged<{ records: { actor: unknown }[] }>(
      await t.api('/dev/v1/audit', { query: { operation: 'createEntity', targetId: 'ana-first' } }),
    );
    expect(records[0]!.actor).toEqual({
      kind: 'person',
      keyId: expect.stringMatching(/^person_/),
      owner: ana.email,
      role: 'editor',
      person: { issuer: t.runtime.openId!.issuer, subject: ana.username, email: ana.email, name: ana.name },
    });
  });

  it('gives each demo person the role the demo mapping gives their group', async () => {
    for (const [person, role] of [
      [ben, 'publisher'],
      [ada, 'admin'],
    ] as const) {
      const { idToken } = await signInAs(t.runtime.openId!, person);
      expect(expectUnpaged<{ role: string }>(await t.api('/dev/v1/me', asPerson(idToken))).role).toBe(role);
    }
  });

  it("fills the sign-in page's username in with the client's login_hint", async () => {
    const authorization = new URL('/auth', t.runtime.openId!.issuer);
    for (const [name, value] of Object.entries({
      client_id: t.runtime.openId!.clientId,
      redirect_uri: 'http://127.0.0.1:53682/callback',
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      login_hint: 'ben"<',
    }))
      authorization.searchParams.set(name, value);
    const started = await fetch(authorization, { redirect: 'manual' });
    const cookie = started.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const page = await (await fetch(new URL(started.headers.get('location')!, authorization), { headers: { cookie } })).text();
    expect(page).toContain('name="username" value="ben&#34;&#60;"');
    expect(page).toMatch(/name="password"[^>]* autofocus>/);
  });

  it('gives no code for a wrong password, and says so on its page', async () => {
    await expect(signInAs(t.runtime.openId!, { username: ana.username, password: 'wrong' })).rejects.toThrow(/username or password is not right/);
  });
});
