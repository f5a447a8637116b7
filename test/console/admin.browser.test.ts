/**
 * The admin area and the permission-aware controls in a real browser: a key
 * made in the console is shown once (and works), its role changed, the last
 * admin key kept (409 last_admin shown as the API words it), the key revoked;
 * the audit log lists those operations newest first, filters by operation,
 * pages on with "Load older records" and verifies its chain; and a reader
 * key's session finds New, Save, Publish and Run disabled, each with why, and
 * no Keys or Audit in the navigation. Each step is checked through the API
 * too; axe-core checks every view.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api } from '../helpers/api.ts';
import { expectAccessible, expectNoPageProblems, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

interface Key {
  keyId: string;
  label: string;
  role: string;
  branches?: string[];
  state: string;
  key?: string;
}

interface AuditRecord {
  seq: number;
  operation: string;
  target: { type: string; id?: string };
}

async function openSection(page: Page, link: string, heading: string) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: link }).click();
  await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
}

/** The control is disabled, and one of the notes it is described by (a refused permit's, another reason it waits) gives `reason`. */
async function expectRefused(page: Page, control: Locator, reason: string) {
  expect(await control.isDisabled()).toBe(true);
  const notes = (await control.getAttribute('aria-describedby'))?.split(' ') ?? [];
  expect(await Promise.all(notes.map((id) => page.locator(`[id="${id}"]`).textContent()))).toContain(reason);
}

describe.skipIf(!!skipReason)('console admin area (Chromium)', () => {
  const t = useConsoleBrowser();
  /** The key the first test makes in the console, whose operations the second finds in the audit log. */
  let made: Key | undefined;

  it('makes a key and shows its secret once, changes its role, keeps the last admin key, and revokes the key', async () => {
    const call = api(t.runtime);
    const page = await t.signedIn();
    await openSection(page, 'Keys', 'API keys');
    await page.getByRole('table', { name: 'API keys of the workspace, oldest first' }).waitFor();
    await expectAccessible(page, 'the keys');

    await page.getByRole('button', { name: 'New key' }).click();
    const form = page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Label').fill('Console CI');
    await form.getByLabel('Owner').fill('ci-pipeline');
    await form.getByLabel('Role').selectOption('editor');
    await form.getByLabel('staging', { exact: true }).check();
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/dev/v1/keys'),
      form.getByRole('button', { name: 'Make key' }).click(),
    ]);
    made = ((await answer.json()) as { data: Key }).data;
    const secret = made.key!;
    expect(made).toMatchObject({ label: 'Console CI', role: 'editor', branches: ['staging'] });

    const shown = page.getByRole('region', { name: 'Copy the key "Console CI" now: it is shown only this once' });
    await expect.poll(async () => (await shown.textContent()) ?? '').toContain(secret);
    expect(await shown.textContent()).toContain('neither the console nor the API can show it again');
    // Shown, and kept nowhere: not in the address, not in the tab's storage.
    expect(page.url()).not.toContain(secret);
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }))).not.toContain(secret);
    await screenshot(page, 'admin-key-shown-once');
    await expectAccessible(page, 'the key shown once');
    // It is the key: it opens the workspace as an editor limited to staging.
    expect((await call<{ role: string; branches: string[] }>('/dev/v1/me', { key: secret })).body.data).toMatchObject({
      role: 'editor',
      branches: ['staging'],
    });
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await expect.poll(() => shown.count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    const row = page.getByRole('row', { name: /Console CI/ });
    await expect.poll(async () => (await row.locator('td').allTextContents()).slice(0, 5)).toEqual(['ci-pipeline', 'editor', 'staging', 'never', 'active']);

    // Its role changed: only the role is sent.
    await row.getByRole('button', { name: 'Edit Console CI' }).click();
    const edit = page.getByRole('form', { name: 'Edit Console CI' });
    expect(await edit.getByLabel('Role').inputValue()).toBe('editor');
    await edit.getByLabel('Role').selectOption('reader');
    const [sent] = await Promise.all([
      page.waitForRequest((request) => request.method() === 'PATCH' && new URL(request.url()).pathname === `/dev/v1/keys/${made!.keyId}`),
      edit.getByRole('button', { name: 'Save key' }).click(),
    ]);
    expect(sent.postDataJSON()).toEqual({ role: 'reader' });
    await page.getByRole('status').filter({ hasText: 'Key "Console CI" saved' }).waitFor();
    await expect.poll(async () => await row.locator('td').nth(1).textContent()).toBe('reader');
    expect((await call<Key>(`/dev/v1/keys/${made.keyId}`)).body.data).toMatchObject({ role: 'reader', branches: ['staging'], state: 'active' });

    // The demo key is the workspace's only admin key: the API keeps it, and the page says why in its words.
    const own = page.getByRole('row', { name: /the key you are signed in with/ });
    await own.getByRole('button', { name: /^Revoke / }).click();
    const refusal = page.getByRole('alert').filter({ hasText: /^Revoke demo\?/ });
    await refusal.getByRole('button', { name: 'Yes, revoke demo' }).click();
    await expect.poll(async () => (await refusal.textContent()) ?? '').toContain("is the workspace's last usable admin key");
    expect(await refusal.textContent()).toContain('HTTP 409 · last_admin');
    await screenshot(page, 'admin-last-admin');
    await refusal.getByRole('button', { name: 'Keep it' }).click();

    await row.getByRole('button', { name: 'Revoke Console CI' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Revoke Console CI\?/ })
      .getByRole('button', { name: 'Yes, revoke Console CI' })
      .click();
    await page.getByRole('status').filter({ hasText: 'Key "Console CI" revoked.' }).waitFor();
    await expect.poll(async () => await row.locator('.badge').textContent()).toBe('revoked');
    expect(await row.getByRole('button').count()).toBe(0);
    expect((await call<Key>(`/dev/v1/keys/${made.keyId}`)).body.data.state).toBe('revoked');
    expectNoPageProblems(page);
  });

  it('lists the key operations newest first, filters by operation, loads older records and verifies the chain', async () => {
    expect(made, 'the key made by the test before').toBeDefined();
    const call = api(t.runtime);
    // Enough records for more than one page of ten: a key made over the API and relabelled.
    const other = (await call<Key>('/dev/v1/keys', { method: 'POST', body: JSON.stringify({ label: 'Paged', owner: 'pager', role: 'reader' }) })).body.data;
    for (let round = 1; round <= 10; round++)
      expect((await call(`/dev/v1/keys/${other.keyId}`, { method: 'PATCH', body: JSON.stringify({ label: `Paged ${round}` }) })).status).toBe(200);

    const page = await t.signedIn();
    await openSection(page, 'Audit', 'Audit log');
    const table = page.getByRole('table', { name: 'Audit records, newest first' });
    await table.waitFor();
    const rowsOf = async () =>
      // The record's number is the first text of its row's header cell; its time follows.
      (
        await table
          .locator('tbody tr')
          .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell, at) => (at === 0 ? cell.firstChild : cell)?.textContent ?? '')))
      ).map((cells) => ({
        seq: Number(/^#(\d+)$/.exec(cells[0]!)![1]),
        operation: cells[2]!,
        target: cells[3]!,
      }));
    // The console's operations on its key, newest first, after the API's on the other.
    const ofMade = (await rowsOf()).filter((row) => row.target.includes(made!.keyId));
    expect(ofMade.map((row) => row.operation)).toEqual(['revokeKey', 'updateKey', 'createKey']);
    await screenshot(page, 'admin-audit');
    await expectAccessible(page, 'the audit log');

    const filters = page.getByRole('search', { name: 'Filter the audit log' });
    await filters.getByLabel('Operation').fill('updateKey');
    await filters.getByLabel('Per page').selectOption('10');
    await filters.getByRole('button', { name: 'Show records' }).click();
    await expect.poll(async () => (await rowsOf()).length).toBe(10);
    const firstPage = await rowsOf();
    expect(new Set(firstPage.map((row) => row.operation))).toEqual(new Set(['updateKey']));
    await page.getByRole('button', { name: 'Load older records' }).click();
    await expect.poll(async () => (await rowsOf()).length).toBe(11);
    const all = await rowsOf();
    expect(new Set(all.map((row) => row.operation))).toEqual(new Set(['updateKey']));
    // Newest first across the pages, none twice; the last is the console's change of role.
    expect(all.map((row) => row.seq)).toEqual([...all.map((row) => row.seq)].sort((a, b) => b - a));
    expect(new Set(all.map((row) => row.seq)).size).toBe(11);
    expect(all.at(-1)!.target).toContain(made!.keyId);
    await page.getByText('No older records match.').waitFor();
    const listed = await call<{ records: AuditRecord[] }>('/dev/v1/audit', { query: { operation: 'updateKey', limit: 100 } });
    expect(listed.body.data.records.map((record) => record.seq)).toEqual(all.map((row) => row.seq));

    await page.getByRole('button', { name: 'Verify chain' }).click();
    const verified = page.getByRole('status').filter({ hasText: 'The chain is intact' });
    await verified.waitFor();
    const verify = await call<{ checked: number; intact: boolean }>('/dev/v1/audit/verify');
    expect(verify.body.data.intact).toBe(true);
    expect(await verified.textContent()).toContain(`${verify.body.data.checked} records checked`);
    await screenshot(page, 'admin-audit-verified');
    await expectAccessible(page, 'the audit log, filtered and verified');
    expectNoPageProblems(page);
  });

  it('keeps the keys and the audit log readable on a phone width', async () => {
    const page = await t.signedIn({ width: 390, height: 844 });
    for (const [hash, table] of [
      ['#/keys', 'API keys of the workspace, oldest first'],
      ['#/audit', 'Audit records, newest first'],
    ] as const) {
      await page.evaluate((to) => (location.hash = to), hash);
      await page.getByRole('table', { name: table }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, hash).toBeLessThanOrEqual(0);
      await expectAccessible(page, `${hash} on a phone`);
    }
    await screenshot(page, 'admin-audit-phone');
  });

  it("shows a reader key's session what its role forbids, disabled with why, and no admin area", async () => {
    const call = api(t.runtime);
    const reader = (await call<Key>('/dev/v1/keys', { method: 'POST', body: JSON.stringify({ label: 'Reader (console)', owner: 'auditor', role: 'reader' }) }))
      .body.data;
    const page = await t.page();
    await page.goto(`${t.runtime.url}/console/`);
    await page.getByLabel('Service API key').fill(reader.key!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Rules', exact: true, level: 1 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents()).toEqual([
      'Rules',
      'Workflows',
      'Authorization',
      'Remote',
    ]);
    await expectRefused(
      page,
      page.getByRole('button', { name: 'New rule' }),
      'Your key (role reader) cannot create a rule or workflow: that needs the permission write.',
    );
    await page.locator('tbody tr').first().waitFor();
    await screenshot(page, 'admin-reader-rules');
    await expectAccessible(page, "a reader's rule list");

    await page.evaluate(() => (location.hash = '#/rules/loan-eligibility'));
    await page.getByRole('tablist', { name: 'Rule sections' }).waitFor();
    await expectRefused(
      page,
      page.getByRole('button', { name: 'Save', exact: true }),
      'Your key (role reader) cannot edit the draft of a rule or workflow: that needs the permission write.',
    );
    await expectRefused(
      page,
      page.getByRole('button', { name: 'Delete', exact: true }),
      'Your key (role reader) cannot delete a rule or workflow, with its versions: that needs the permission write.',
    );
    await page.getByRole('tab', { name: 'Publish and versions' }).click();
    await expectRefused(
      page,
      page.getByRole('button', { name: 'Publish draft' }),
      'Your key (role reader) cannot publish the draft as the next version: that needs the permission publish.',
    );
    await page.getByRole('tab', { name: 'Test', exact: true }).click();
    await expectRefused(
      page,
      page.getByRole('button', { name: 'Run test' }),
      'Your key (role reader) cannot try a rule or workflow on params: that needs the permission write.',
    );
    await screenshot(page, 'admin-reader-rule');
    await expectAccessible(page, "a reader's rule page");

    // Credentials: New Authentication disabled, a credential's actions left out.
    await openSection(page, 'Authorization', 'Authorization');
    await page.getByRole('table', { name: 'Credentials of the workspace' }).waitFor();
    await expectRefused(
      page,
      page.getByRole('button', { name: 'New Authentication' }),
      'Your key (role reader) cannot create an API-key credential for outbound calls: that needs the permission manage.',
    );
    expect(await page.getByRole('button', { name: /^(Rotate|Revoke|Edit|Delete) / }).count()).toBe(0);
    await expectAccessible(page, "a reader's authorization view");

    // The admin area, reached by its address, says why instead.
    await page.evaluate(() => (location.hash = '#/keys'));
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    expect(await page.locator('main').textContent()).toContain(
      "Your key (role reader) cannot read the workspace's API keys: that needs the permission manage.",
    );
    expect(await page.getByRole('table').count()).toBe(0);
    expectNoPageProblems(page);
  });
});
