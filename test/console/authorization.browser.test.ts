/**
 * The Authorization view in a real browser: a credential made with
 * "New Authentication" (API Key, header, its allowed hosts) is listed with its
 * hosts and last characters and never its value, rotated, tested against the
 * loopback provider, bound to other hosts and revoked; an integration is made (its credential from the drop-down's
 * "Create Authentication"), tested on a path (a typed body sent with every digit), changed and deleted. Each step
 * is checked through the API too; axe-core checks the view, also on a phone.
 */
import { describe, expect, it } from 'vitest';
import { demoProviderKey } from '../../lib/local/demo-provider.ts';
import { api } from '../helpers/api.ts';
import { expectAccessible, expectNoPageProblems, screenshot, skipReason, useConsoleBrowser } from './browser.ts';
import type { Page } from 'playwright-core';

if (skipReason) console.warn(skipReason);

interface Credential {
  id: string;
  name: string;
  key: string;
  placement: string;
  allowedHosts: string[];
  valueHint: string;
  status: string;
  rotatedAt?: string;
  revokedAt?: string;
}

/** Every place a value could leak to: the page's markup, its text, and what its fields hold. */
async function expectNowhere(page: Page, secret: string) {
  expect(await page.content()).not.toContain(secret);
  expect(await page.locator('body').innerText()).not.toContain(secret);
  expect(await page.$$eval('input, textarea', (fields) => fields.map((f) => (f as HTMLInputElement).value))).not.toContain(secret);
}

async function openAuthorization(page: Page) {
  await page.getByRole('link', { name: 'Authorization' }).click();
  await page.getByRole('heading', { name: 'Authorization', level: 1 }).waitFor();
  await page.getByRole('table', { name: 'Credentials of the workspace' }).waitFor();
}

describe.skipIf(!!skipReason)('console authorization (Chromium)', () => {
  const t = useConsoleBrowser();

  it('creates an API-key credential, lists it without its value, rotates, tests and revokes it', async () => {
    const call = api(t.runtime);
    const page = await t.signedIn();
    await openAuthorization(page);
    const wrongValue = 'not-the-key-9876';
    const providerHost = new URL(t.runtime.providerUrl).host;

    await page.getByRole('button', { name: 'New Authentication' }).click();
    const form = page.getByRole('form', { name: 'New Authentication' });
    await expect.poll(() => form.getByLabel('Type').inputValue()).toBe('apiKey');
    await form.getByLabel('Name').fill('Risk provider (console)');
    await form.getByLabel('Key', { exact: true }).fill('X-Api-Key');
    await form.getByLabel('Value').fill(wrongValue);
    expect(await form.getByLabel('Value').getAttribute('type')).toBe('password');
    expect(await form.getByLabel('Header').isChecked()).toBe(true);
    expect(await form.textContent()).toContain('Header is preferred');
    // Required: the browser holds the form back until hosts are given.
    expect(await form.getByLabel('Allowed hosts').getAttribute('required')).not.toBeNull();
    await form.getByLabel('Allowed hosts').fill(`${providerHost}\n*.example.com, API.example.com:8443`);
    const [sent] = await Promise.all([
      page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/dev/v1/credentials'),
      form.getByRole('button', { name: 'Save authentication' }).click(),
    ]);
    expect(sent.postDataJSON().allowedHosts).toEqual([providerHost, '*.example.com', 'API.example.com:8443']);
    await page.getByRole('status').filter({ hasText: 'saved' }).waitFor();

    const row = page.getByRole('row', { name: /Risk provider \(console\)/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('9876');
    expect(await row.textContent()).toContain('X-Api-Key');
    expect(await row.textContent()).toContain('header');
    expect(await row.locator('td').nth(2).locator('code').allTextContents()).toEqual([providerHost, '*.example.com', 'api.example.com:8443']);
    await expectNowhere(page, wrongValue);
    const listed = await call<Credential[]>('/dev/v1/credentials', { query: { pageSize: 100 } });
    const made = listed.body.data.find((c) => c.name === 'Risk provider (console)')!;
    expect(made).toMatchObject({
      key: 'X-Api-Key',
      placement: 'header',
      status: 'active',
      allowedHosts: [providerHost, '*.example.com', 'api.example.com:8443'],
    });
    expect(made.valueHint).toMatch(/9876$/);
    await screenshot(page, 'authorization-created');
    await expectAccessible(page, 'the authorization view with a new credential');

    // The wrong value gets the provider's 401, explained.
    const providerUrl = `${t.runtime.providerUrl}/v1/risk-score?amount=3`;
    await row.getByRole('button', { name: 'Test Risk provider (console)' }).click();
    const test = page.getByRole('form', { name: 'Test Risk provider (console)' });
    await test.getByLabel('Provider URL').fill(providerUrl);
    await test.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(async () => (await test.getByRole('status').textContent()) ?? '').toContain('HTTP 401');
    expect(await test.getByRole('status').textContent()).toContain('the key is wrong or revoked');

    await row.getByRole('button', { name: 'Rotate Risk provider (console)' }).click();
    const rotate = page.getByRole('form', { name: 'Rotate Risk provider (console)' });
    await rotate.getByLabel('New value').fill(demoProviderKey);
    await rotate.getByRole('button', { name: 'Rotate' }).click();
    await page.getByRole('status').filter({ hasText: 'rotated' }).waitFor();
    await expectNowhere(page, demoProviderKey);
    const rotated = (await call<Credential>(`/dev/v1/credentials/${made.id}`)).body.data;
    expect(rotated.rotatedAt).toBeTruthy();
    expect(rotated.valueHint).toMatch(/-key$/);
    await expect.poll(async () => (await row.locator('td').nth(6).textContent()) ?? '').not.toBe('—');

    await row.getByRole('button', { name: 'Test Risk provider (console)' }).click();
    await test.getByLabel('Provider URL').fill(providerUrl);
    await test.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(async () => (await test.getByRole('status').textContent()) ?? '').toContain('HTTP 200');
    expect(await test.getByRole('status').textContent()).toContain('the provider accepted the request');
    await screenshot(page, 'authorization-tested');

    // Its hosts are edited in place: the provider's alone now, and the test to another host is refused before it is sent.
    await row.getByRole('button', { name: 'Hosts Risk provider (console)' }).click();
    const hosts = page.getByRole('form', { name: 'Allowed hosts of Risk provider (console)' });
    await expect.poll(() => hosts.getByLabel('Allowed hosts').inputValue()).toBe(`${providerHost}\n*.example.com\napi.example.com:8443`);
    await hosts.getByLabel('Allowed hosts').fill(providerHost);
    await hosts.getByRole('button', { name: 'Save hosts' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `may now be sent to ${providerHost}` })
      .waitFor();
    expect((await call<Credential>(`/dev/v1/credentials/${made.id}`)).body.data.allowedHosts).toEqual([providerHost]);
    await row.getByRole('button', { name: 'Test Risk provider (console)' }).click();
    await test.getByLabel('Provider URL').fill('http://127.0.0.1:9/v1/ping');
    await test.getByRole('button', { name: 'Send test' }).click();
    await test.getByRole('alert').waitFor();
    expect(await test.getByRole('alert').textContent()).toContain(`may be sent only to ${providerHost}, not to 127.0.0.1:9`);

    await row.getByRole('button', { name: 'Revoke Risk provider (console)' }).click();
    await page.getByRole('heading', { name: 'Revoke Risk provider (console)?' }).waitFor();
    expect(await call<Credential>(`/dev/v1/credentials/${made.id}`).then((r) => r.body.data.status)).toBe('active');
    await page.getByRole('button', { name: 'Yes, revoke Risk provider (console)' }).click();
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('revoked');
    const revoked = (await call<Credential>(`/dev/v1/credentials/${made.id}`)).body.data;
    expect(revoked.status).toBe('revoked');
    expect(revoked.revokedAt).toBeTruthy();
    expect(await row.getByRole('button').count()).toBe(0);
    await screenshot(page, 'authorization-revoked');
    expectNoPageProblems(page);
  }, 20_000);

  it('refuses a credential with the API message in place, and keeps the value out of the page', async () => {
    const page = await t.signedIn();
    await openAuthorization(page);
    await page.getByRole('button', { name: 'New Authentication' }).click();
    const form = page.getByRole('form', { name: 'New Authentication' });
    await form.getByLabel('Name').fill('Demo provider key (header)');
    await form.getByLabel('Key', { exact: true }).fill('X-Api-Key');
    await form.getByLabel('Value').fill('some-secret-value');
    await form.getByLabel('Allowed hosts').fill('api.example.com');
    await form.getByRole('button', { name: 'Save authentication' }).click();
    await form.getByRole('alert').waitFor();
    expect(await form.getByRole('alert').textContent()).toContain('credential_name_taken');
    expect(await form.getByLabel('Value').inputValue()).toBe('');
    await expectNowhere(page, 'some-secret-value');
    expectNoPageProblems(page);
  }, 20_000);

  it('creates an integration with a credential made from its drop-down, tests a path, changes and deletes it', async () => {
    const call = api(t.runtime);
    const page = await t.signedIn();
    await openAuthorization(page);
    await page.getByRole('button', { name: 'New integration' }).click();
    const editor = page.getByRole('group', { name: 'New integration' });
    await editor.getByLabel('Name').fill('Risk API (console)');
    await editor.getByLabel('Base URL').fill(t.runtime.providerUrl);
    await editor.getByLabel('Timeout (ms)').fill('4000');
    await editor.getByRole('button', { name: 'Add header' }).click();
    await editor.getByLabel('Header 1', { exact: true }).fill('X-Client');
    await editor.getByLabel('Header value 1').fill('console');
    await editor.getByLabel('Authentication').selectOption({ label: 'Create Authentication…' });
    const form = editor.getByRole('form', { name: 'New Authentication' });
    await form.getByLabel('Name').fill('Risk key for the integration');
    await form.getByLabel('Key', { exact: true }).fill('X-Api-Key');
    await form.getByLabel('Value').fill(demoProviderKey);
    await form.getByLabel('Allowed hosts').fill(new URL(t.runtime.providerUrl).host);
    await form.getByRole('button', { name: 'Save authentication' }).click();
    await form.waitFor({ state: 'detached' });
    const credentials = await call<Credential[]>('/dev/v1/credentials', { query: { pageSize: 100 } });
    const made = credentials.body.data.find((c) => c.name === 'Risk key for the integration')!;
    await expect.poll(() => editor.getByLabel('Authentication').inputValue()).toBe(made.id);
    await editor.getByRole('button', { name: 'Save integration' }).click();

    const row = page.getByRole('row', { name: /Risk API \(console\)/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Risk key for the integration');
    const integrations = await call<{ id: string; name: string; baseUrl: string; headers: Record<string, string>; credentialId?: string; timeoutMs: number }[]>(
      '/dev/v1/integrations',
      {
        query: { pageSize: 100 },
      },
    );
    const integration = integrations.body.data.find((i) => i.name === 'Risk API (console)')!;
    expect(integration).toMatchObject({ baseUrl: t.runtime.providerUrl, headers: { 'X-Client': 'console' }, credentialId: made.id, timeoutMs: 4000 });
    await expectNowhere(page, demoProviderKey);

    await row.getByRole('button', { name: 'Test Risk API (console)' }).click();
    const test = page.getByRole('form', { name: 'Test Risk API (console)' });
    await test.getByLabel('Path').fill('/v1/risk-score?amount=1500');
    await test.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(async () => (await test.getByRole('status').textContent()) ?? '').toContain('HTTP 200');
    expect(await test.locator('pre').textContent()).toContain('"score"');
    await screenshot(page, 'authorization-integration-tested');

    // A typed body goes with every digit typed, as the provider reads it.
    await test.getByLabel('Method').selectOption('POST');
    await test.getByLabel('Path').fill('/v1/risk-score');
    await test.getByLabel('Body (JSON)').fill('{"amount": 12345678901234567.89}');
    const answered = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/test'));
    await test.getByRole('button', { name: 'Send test' }).click();
    expect((await answered).request().postData()).toContain('"body":{"amount":12345678901234567.89}');
    await expect.poll(async () => (await test.locator('pre').textContent()) ?? '').toContain('amount of 5000 or more');

    await row.getByRole('button', { name: 'Edit Risk API (console)' }).click();
    const edit = page.getByRole('group', { name: 'Edit Risk API (console)' });
    await edit.getByLabel('Timeout (ms)').fill('3000');
    await edit.getByRole('button', { name: 'Save integration' }).click();
    await page.getByRole('status').filter({ hasText: 'saved' }).waitFor();
    await expect.poll(async () => (await call<{ timeoutMs: number }>(`/dev/v1/integrations/${integration.id}`)).body.data.timeoutMs).toBe(3000);

    await row.getByRole('button', { name: 'Delete Risk API (console)' }).click();
    await page.getByRole('button', { name: 'Yes, delete Risk API (console)' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await call(`/dev/v1/integrations/${integration.id}`)).status).toBe(404);
    expectNoPageProblems(page);
  }, 20_000);

  it('moves the focus into a panel in the task that opens it, so keys typed at once land in the panel', async () => {
    const page = await t.signedIn();
    await openAuthorization(page);
    // One task to click and let the page render; the next looks where the focus is (an effect after paint would not have moved it yet).
    const focused = await page.evaluate(async () => {
      const open = [...document.querySelectorAll('button')].find((b) => b.textContent === 'New integration')!;
      open.click();
      await new Promise((resolve) => setTimeout(resolve, 0));
      const active = document.activeElement as HTMLInputElement | null;
      return active && document.querySelector(`label[for="${active.id}"]`)?.textContent;
    });
    expect(focused).toBe('Name');
    expectNoPageProblems(page);
  });

  it('is keyboard usable, accessible and readable on a phone width', async () => {
    const page = await t.signedIn({ width: 390, height: 844 });
    await openAuthorization(page);
    const button = page.getByRole('button', { name: 'New Authentication' });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? '')).toContain('Name');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'authorization-phone');
    await expectAccessible(page, 'the authorization view on a phone with the New Authentication form');
    expectNoPageProblems(page);
  }, 20_000);
});
