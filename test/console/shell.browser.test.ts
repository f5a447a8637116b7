/**
 * The console's shell in a real browser: the start banner's one-time link
 * signs in (once), a key is checked and kept for the tab only, the branch
 * switcher lists the workspace's branches, the rule list filters, sorts and
 * pages through the API, and a draft is created. axe-core checks each view.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { expectAccessible, expectNoPageProblems, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

describe.skipIf(!!skipReason)('console shell (Chromium)', () => {
  const t = useConsoleBrowser();

  it('signs in by the one-time link, which then no longer works, and keeps the key out of the URL and of lasting storage', async () => {
    const link = t.runtime.consoleSignInLink();
    const page = await t.page();
    await page.goto(link);
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    expect(page.url()).not.toContain(t.runtime.apiKey);
    expect(page.url()).not.toContain(link.split('/').pop()!);
    const stored = await page.evaluate(() => ({
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
      cookies: document.cookie,
    }));
    expect(stored.local).not.toContain(t.runtime.apiKey);
    expect(stored.cookies).toBe('');
    expect(stored.session).toContain(t.runtime.apiKey);
    await screenshot(page, 'shell-rules-list');
    await expectAccessible(page, 'the rule list');

    const again = await t.page();
    await again.goto(link);
    await again.getByRole('alert').waitFor();
    expect(await again.getByRole('alert').textContent()).toContain('has been used or has expired');
    await screenshot(again, 'shell-sign-in-used-link');
    await expectAccessible(again, 'the sign-in page');
    expectNoPageProblems(page);
  });

  it('refuses a wrong key with the API message, then signs in with the right one', async () => {
    const page = await t.page();
    await page.goto(`${t.runtime.url}/console/`);
    await page.getByLabel('Service API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/HTTP 401/);
    await page.getByLabel('Service API key').fill(t.runtime.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Rules' }).waitFor();
    expectNoPageProblems(page);
  });

  it('lists, filters, sorts and pages the rules through the API, and switches branch', async () => {
    const page = await t.signedIn();
    const rows = page.locator('tbody tr');
    await rows.first().waitFor();
    const total = Number((await page.getByText(/in all/).textContent())!.match(/(\d+) in all/)![1]);
    expect(total).toBeGreaterThan(5);
    await page.getByLabel('Kind').selectOption('decisionTable');
    await expect.poll(async () => (await rows.allTextContents()).every((text) => text.includes('Decision table'))).toBe(true);
    await page.getByLabel('Kind').selectOption('');
    await page.getByLabel('Name contains').fill('loan');
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByLabel('Name contains').fill('');
    await page.getByLabel('Order').selectOption('desc');
    await expect.poll(async () => (await rows.first().textContent()) ?? '').not.toContain('Age check');

    const branch = page.getByLabel('Branch');
    await expect.poll(async () => (await branch.locator('option').allTextContents()).join(',')).toContain('staging');
    await branch.selectOption('staging');
    await rows.first().waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('rules-console.session'))).toContain('"branch":"staging"');
    await screenshot(page, 'shell-staging');
    expectNoPageProblems(page);
  });

  it('is readable on a phone width', async () => {
    const page = await t.signedIn({ width: 390, height: 844 });
    await page.locator('tbody tr').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'shell-phone');
    await expectAccessible(page, 'the rule list on a phone');
  });

  it('creates a draft and opens it', async () => {
    const page = await t.signedIn();
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByLabel('Id').fill('console-made');
    await page.getByLabel('Name', { exact: true }).fill('Made in the console');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/#\/rules\/console-made$/);
    const made = await api(t.runtime)<{ name: string; status: string }>('/dev/v1/rule/console-made');
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ name: 'Made in the console', status: 'draft' });
  });
});
