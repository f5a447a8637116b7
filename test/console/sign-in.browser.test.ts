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
import { expectAccessible, expectNoPageProblems, skipReason, useConsoleBrowser } from './browser.ts';

// ID tokens live 6 s here, so that the page refreshes one within a test.
const t = useConsoleBrowser({ openIdProvider: { idTokenTtlSeconds: 6 } });
const ana = demoPeople.find((p) => p.username === 'ana')!;

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
});
