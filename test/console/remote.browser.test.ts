/**
 * The Remote view in a real browser: the demo remote's settings, a pull of the
 * branch followed live to completed with what changed, and a pull from a
 * repository that does not exist followed to failed with the reason.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { expectAccessible, expectNoPageProblems, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

describe.skipIf(!!skipReason)('console remote (Chromium)', () => {
  const t = useConsoleBrowser();

  it('pulls the branch and follows the task to completed, with what changed', async () => {
    const page = await t.signedIn();
    await page.getByRole('link', { name: 'Remote' }).click();
    const url = page.getByLabel('Repository URL');
    await expect.poll(() => url.inputValue()).toBe(`${t.runtime.gitUrl}/demo.git`);
    await page.getByRole('button', { name: 'Pull main' }).click();
    await page.getByText('completed', { exact: true }).waitFor({ timeout: 30_000 });
    const summary = page.getByRole('table', { name: 'What changed on the branch' });
    const rules = await summary.getByRole('row', { name: /Rules/ }).locator('td').allTextContents();
    expect(rules.map(Number).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    const taskId = (await page.locator('.task code').first().textContent())!;
    const task = await api(t.runtime)<{ taskState: string }>(`/dev/v1/tasks/${taskId}`);
    expect(task.body.data.taskState).toBe('completed');
    await screenshot(page, 'remote-pull-completed');
    await expectAccessible(page, 'the remote view after a pull');
    expectNoPageProblems(page);
  });

  it('saves a remote and shows a failed pull with its reason', async () => {
    const page = await t.signedIn();
    await page.getByRole('link', { name: 'Remote' }).click();
    const url = page.getByLabel('Repository URL');
    await expect.poll(() => url.inputValue()).not.toBe('');
    const original = await url.inputValue();
    await url.fill(`${t.runtime.gitUrl}/missing.git`);
    await page.getByRole('button', { name: 'Save remote' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('button', { name: 'Pull main' }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'The pull failed' });
    await failed.waitFor({ timeout: 60_000 });
    expect((await failed.textContent())!.length).toBeGreaterThan('The pull failed'.length + 10);
    await screenshot(page, 'remote-pull-failed');
    await url.fill(original);
    await page.getByRole('button', { name: 'Save remote' }).click();
    await expect.poll(async () => (await api(t.runtime)<{ url: string }>('/dev/v1/remote')).body.data.url).toBe(original);
    expectNoPageProblems(page);
  }, 90_000);
});
