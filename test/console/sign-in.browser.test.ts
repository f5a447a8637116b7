/**
 * People sign in to the console in a real Chromium, at the local OpenID
 * provider (npm start's): the authorization code flow with PKCE, the
 * provider's own sign-in page, the API called with the person's token,
 * a refresh when the token expires, a reload that signs in again through the
 * provider's session without the password, and a sign-out at the provider
 * too. The page's scripts never see a token: none is in its storage or
 * cookies, and none passes through the page's own requests.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoPeople } from '../../lib/local/demo-people.ts';
import { api } from '../helpers/api.ts';
import { expectAccessible, expectNoPageProblems, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

// ID tokens live 6 s here, so that the page refreshes one within a test.
const t = useConsoleBrowser({ openIdProvider: { idTokenTtlSeconds: 6 } });
const ana = demoPeople.find((p) => p.username === 'ana')!;
const ben = demoPeople.find((p) => p.username === 'ben')!;

/** Every token the provider's token endpoint gave, and how many of its answers were refreshes, as the browser saw them (the worker's requests included). */
function watchTokens(page: Page) {
  const seen = { tokens: [] as string[], refreshes: 0 };
  page.on('requestfinished', async (request) => {
    if (!request.url().endsWith('/token')) return;
    if (request.postData()?.includes('grant_type=refresh_token')) seen.refreshes++;
    const body = (await (await request.response())?.json().catch(() => ({}))) as Record<string, unknown>;
    for (const name of ['id_token', 'refresh_token', 'access_token']) if (typeof body[name] === 'string') seen.tokens.push(body[name]);
  });
  return seen;
}

/** What the page's scripts could read: its storage and cookies. */
const readable = (page: Page) =>
  page.evaluate(() => JSON.stringify({ session: { ...sessionStorage }, local: { ...localStorage }, cookies: document.cookie, url: location.href }));

async function signInAs(page: Page, person: { username: string; password: string }, workspace = 'demo') {
  await page.goto(`${t.runtime.url}/console/`);
  await page.getByLabel('Workspace').fill(workspace);
  await page.getByRole('button', { name: 'Sign in with your company account' }).click();
  await page.waitForURL((url) => url.href.startsWith(t.runtime.openId!.issuer));
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe.skipIf(skipReason)('signing in as a person', () => {
  it('signs in at the provider and calls the API as the person, with no token where page scripts can read it', async () => {
    const page = await t.page();
    const seen = watchTokens(page);
    const missing: string[] = [];
    page.on('response', (response) => void (response.status() === 404 && missing.push(response.url())));
    const started = Date.now();
    await signInAs(page, ana);
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    await expect.poll(() => page.getByRole('banner').textContent()).toContain('Ana Author');
    // The list of rules is an API call made with the person's token.
    await page.getByRole('link', { name: 'Shipping cost' }).first().waitFor();
    console.info(`console sign-in, from the console's page to the rules listed: ${Date.now() - started} ms`);
    expect(seen.tokens.length).toBeGreaterThan(0);
    const text = await readable(page);
    for (const token of seen.tokens) expect(text).not.toContain(token);
    expect(text).not.toMatch(/[?&]code=/);
    // Nothing the page or the provider's pages load is missing.
    expect(missing).toEqual([]);
    await expectAccessible(page, 'the console signed in as a person');
    expectNoPageProblems(page);
  });

  it('refreshes the token when it expires, and the person stays signed in', async () => {
    const page = await t.page();
    const seen = watchTokens(page);
    await signInAs(page, ana);
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    await page.waitForTimeout(7_000);
    await page.getByRole('link', { name: 'Workflows' }).click();
    await expect.poll(() => seen.refreshes).toBeGreaterThan(0);
    await page
      .getByRole('heading', { name: /Workflows/ })
      .first()
      .waitFor();
    expect(await page.getByRole('button', { name: 'Sign in with your company account' }).count()).toBe(0);
    expectNoPageProblems(page);
  });

  it('after a reload, signs in again through the provider’s session without asking for the password', async () => {
    const page = await t.page();
    await signInAs(page, ana);
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    await page.reload();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    await expect.poll(() => page.getByRole('banner').textContent()).toContain('Ana Author');
    expectNoPageProblems(page);
  });

  it('signs out at the provider too: the next sign-in asks for the password again', async () => {
    const page = await t.page();
    await signInAs(page, ana);
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.href.startsWith(t.runtime.openId!.issuer));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in with your company account' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with your company account' }).click();
    await page.waitForURL((url) => url.href.startsWith(t.runtime.openId!.issuer));
    await page.getByLabel('Password').waitFor();
  });

  it('says why when the workspace gives the person no role', async () => {
    const page = await t.page();
    await signInAs(page, ana, 'no-such-workspace');
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/workspace/i);
    expect(await page.getByRole('navigation', { name: 'Sections' }).count()).toBe(0);
  });

  it('lets one person propose a change and another approve and publish it, and the audit log names both', async () => {
    const demo = <D>(path: string, method = 'GET', body?: unknown) =>
      api(t.runtime)<D>(path, { method, branch: 'staging', ...(body !== undefined && { body: JSON.stringify(body) }) });
    expect((await demo('/dev/v1/branches/staging/protection', 'PUT', { requiredApprovals: 1 })).status).toBe(200);
    const rule = { id: 'people-fee', name: 'People fee', type: 'simpleRule', definition: { when: 'amount > 10', then: { fee: 2 }, otherwise: { fee: 0 } } };
    expect((await demo('/dev/v1/rule', 'POST', rule)).status).toBe(201);

    // Ana (an editor) edits the draft on the protected branch and proposes it.
    const anaPage = await t.page();
    await signInAs(anaPage, ana);
    await anaPage.getByRole('navigation', { name: 'Sections' }).waitFor();
    await anaPage.getByLabel('Branch').selectOption('staging');
    await anaPage.getByText('protected · 1 approval', { exact: true }).waitFor();
    await anaPage.evaluate(() => (location.hash = '#/rules/people-fee'));
    await anaPage.getByLabel('Description', { exact: true }).fill('The fee, now from 10');
    await anaPage.getByRole('button', { name: 'Save', exact: true }).click();
    await anaPage.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await anaPage.getByRole('tab', { name: 'Propose and versions' }).click();
    await anaPage.getByRole('button', { name: 'Propose', exact: true }).click();
    const form = anaPage.getByRole('form', { name: 'Propose the saved draft' });
    await form.getByLabel('Description').fill('Describe the fee');
    await form.getByRole('button', { name: 'Propose change' }).click();
    await anaPage.getByRole('heading', { name: 'Change request for people-fee', level: 1 }).waitFor();
    const requestPath = new URL(anaPage.url()).hash;

    // Ben (a publisher) approves it and publishes it.
    const benPage = await t.page();
    await signInAs(benPage, ben);
    await benPage.getByRole('navigation', { name: 'Sections' }).waitFor();
    await benPage.getByLabel('Branch').selectOption('staging');
    await benPage.getByText('protected · 1 approval', { exact: true }).waitFor();
    await benPage.evaluate((to) => (location.hash = to), requestPath);
    const review = benPage.getByRole('region', { name: 'Review' });
    await review.getByRole('button', { name: 'Approve', exact: true }).click();
    const approval = benPage.getByRole('form', { name: 'Approve this change' });
    await approval.getByLabel('Comment').fill('Reads well');
    await approval.getByRole('button', { name: 'Send approval' }).click();
    await benPage.getByRole('status').filter({ hasText: 'Approved.' }).waitFor();
    const publish = review.getByRole('button', { name: 'Publish', exact: true });
    await expect.poll(() => publish.isDisabled()).toBe(false);
    await publish.click();
    await benPage.getByRole('status').filter({ hasText: 'Published as v1.' }).waitFor();
    await screenshot(benPage, 'sign-in-two-people-published');

    // The audit log, read as the demo key, names both people with who the issuer says they are.
    const { records } = (
      await demo<{ records: { operation: string; actor: { kind?: string; owner: string; person?: { name?: string } } }[] }>('/dev/v1/audit?targetId=people-fee')
    ).body.data;
    const by = (operation: string) => records.find((record) => record.operation === operation)?.actor;
    expect(by('proposeChange')).toMatchObject({ kind: 'person', owner: ana.email, person: { name: ana.name } });
    expect(by('approveChange')).toMatchObject({ kind: 'person', owner: ben.email, person: { name: ben.name } });
    expect(by('publishEntity')).toMatchObject({ kind: 'person', owner: ben.email });
    for (const page of [anaPage, benPage]) expectNoPageProblems(page);
  });
});
