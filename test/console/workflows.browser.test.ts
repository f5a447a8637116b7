/**
 * The workflow editor in a real browser (a credential made and chosen from the step's side):
 * payment-review's steps as a graph; its API-request step sent to the
 * loopback provider's URL with a credential made from the step's own
 * authentication drop-down ("Create Authentication"), selected, saved, and
 * the step tested against the provider (its answer, then a 401 explained
 * with a wrong key); a run of the draft and of the published version with
 * each step's status, and the execution listed; problems shown in place by
 * their paths, a 409 when the draft changed meanwhile, a publish; axe-core
 * on the view, also on a phone. What the page did is checked through the API.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoProviderKey } from '../../lib/local/demo-provider.ts';
import { api } from '../helpers/api.ts';
import { expectAccessible, expectNoPageProblems, openWorkflow, saveDraft, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

interface Workflow {
  checksum: string;
  status: string;
  definition: { start: string; steps: { id: string; kind: string; credentialId?: string; request?: { url?: string; integrationId?: string } }[] };
}

const context = JSON.stringify({ payment: { amount: 1500 }, screen: { risk: { flags: { countryMismatch: true }, score: 20 } } });
const params = JSON.stringify({ payment: { amount: 1500 }, card: {}, ip: {}, customer: {} });

/** Makes a credential, bound to `host`, from the step's drop-down and waits until the drop-down has selected it. */
async function createFromDropDown(page: Page, name: string, value: string, host: string) {
  const editor = page.locator('#step-editor');
  await editor.getByLabel('Authentication').selectOption({ label: 'Create Authentication…' });
  const form = editor.getByRole('form', { name: 'New Authentication' });
  await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.placeholder)).toBe('Risk provider key');
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Key', { exact: true }).fill('X-Api-Key');
  await form.getByLabel('Value').fill(value);
  await form.getByLabel('Allowed hosts').fill(host);
  await form.getByRole('button', { name: 'Save authentication' }).click();
  await form.waitFor({ state: 'detached' });
  await expect.poll(async () => (await editor.getByLabel('Authentication').locator('option:checked').textContent()) ?? '').toContain(name);
}

describe.skipIf(!!skipReason)('console workflows (Chromium)', () => {
  const t = useConsoleBrowser();

  it('shows the graph, makes a credential from the step drop-down, saves and tests the step against the provider', async () => {
    const call = api(t.runtime);
    const stored = (await call<Workflow>('/dev/v1/workflow/payment-review')).body.data;
    const page = await t.signedIn();
    await openWorkflow(page, 'payment-review');

    const nodes = page.locator('svg.step-graph [role="button"]');
    expect(await nodes.evaluateAll((all) => all.map((n) => n.getAttribute('data-step')))).toEqual(
      expect.arrayContaining(stored.definition.steps.map((s) => s.id)),
    );
    expect(await nodes.count()).toBe(stored.definition.steps.length);
    expect(await page.locator('svg.step-graph .edge').count()).toBe(5);
    expect(await page.locator('svg.step-graph .edge-label text').allTextContents()).toEqual(expect.arrayContaining(['otherwise']));
    await page.getByText('Steps as a list').click();
    expect(await page.getByRole('list', { name: 'Steps of the workflow' }).locator(':scope > li').count()).toBe(stored.definition.steps.length);

    // Selected by keyboard, as any node can be.
    await page.getByRole('button', { name: /^score API · POST/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /Step score/ }).waitFor();
    expect(await page.getByRole('button', { name: /^score API · POST/ }).getAttribute('aria-pressed')).toBe('true');
    const editor = page.locator('#step-editor');
    expect(await editor.textContent()).toContain('from the integration');

    await editor.getByLabel('A full URL').check();
    const url = `${t.runtime.providerUrl}/v1/risk-score`;
    await expect.poll(() => editor.getByLabel('URL', { exact: true }).inputValue()).toBe(url);
    await createFromDropDown(page, 'Risk key (from the step)', demoProviderKey, new URL(url).host);
    expect(await page.content()).not.toContain(demoProviderKey);
    await saveDraft(page);

    const credentials = (await call<{ id: string; name: string; key: string; placement: string }[]>('/dev/v1/credentials', { query: { pageSize: 100 } })).body
      .data;
    const made = credentials.find((c) => c.name === 'Risk key (from the step)')!;
    expect(made).toMatchObject({ key: 'X-Api-Key', placement: 'header' });
    const saved = (await call<Workflow>('/dev/v1/workflow/payment-review')).body.data;
    expect(saved.status).toBe('draft');
    expect(saved.definition.steps[1]).toMatchObject({ id: 'score', credentialId: made.id, request: { url } });
    expect(saved.definition.steps[1]!.request!.integrationId).toBeUndefined();

    await editor.getByLabel('Context (JSON)').fill(context);
    await editor.getByRole('button', { name: 'Test step score' }).click();
    const result = editor.locator('.step-result');
    await expect.poll(async () => (await result.textContent()) ?? '').toContain('succeeded');
    expect(await result.textContent()).toContain('"decision"');
    expect(await result.textContent()).toContain('a run would go on to decide');
    await screenshot(page, 'workflow-step-tested');
    await expectAccessible(page, 'the workflow editor after a step test');

    // A wrong key: the provider's 401, explained.
    await createFromDropDown(page, 'Wrong risk key', 'not-the-provider-key', new URL(url).host);
    await saveDraft(page);
    await editor.getByRole('button', { name: 'Test step score' }).click();
    await expect.poll(async () => (await result.textContent()) ?? '').toContain('failed');
    expect(await result.textContent()).toContain('401: the key is wrong or revoked');
    await screenshot(page, 'workflow-step-401');
    expectNoPageProblems(page);
  }, 20_000);

  it('runs the draft and the published version, showing each step, and lists the execution', async () => {
    const call = api(t.runtime);
    const page = await t.signedIn();
    await openWorkflow(page, 'payment-review');
    const run = page.getByRole('region', { name: 'Run' });
    await run.getByLabel('Params (JSON)').fill(params);

    await run.getByLabel('The published version (execute)').check();
    await run.getByRole('button', { name: 'Run workflow' }).click();
    const steps = run.getByRole('table', { name: 'Steps of the run' });
    await steps.waitFor();
    const statusOf = async (id: string) => (await steps.locator(`tr[data-step="${id}"] .badge`).textContent())?.trim();
    expect(await statusOf('screen')).toBe('succeeded');
    expect(await statusOf('score')).toBe('succeeded');
    expect(await statusOf('approve')).toBe('succeeded');
    expect(await statusOf('decline')).toBe('skipped');
    expect(await run.locator('.run-result').textContent()).toContain('"decision": "approve"');
    expect(await steps.locator('tr[data-step="score"] td').nth(2).textContent()).toMatch(/\d+ ms/);
    expect(await page.locator('svg.step-graph .node.succeeded').count()).toBe(4);

    const executions = page.getByRole('region', { name: 'Executions' });
    await expect.poll(() => executions.locator('tbody > tr').count()).toBeGreaterThan(0);
    const listed = (await call<{ outcome: string; version: string }[]>('/dev/v1/workflow/payment-review/executions')).body.data;
    expect(listed[0]).toMatchObject({ outcome: 'succeeded', version: 'v1' });
    await screenshot(page, 'workflow-run-published');

    // The draft sends the score step with the wrong key saved by the test before: the run fails there, named.
    await run.getByLabel('The saved draft (test, not recorded)').check();
    await run.getByRole('button', { name: 'Run workflow' }).click();
    await expect.poll(async () => (await run.locator('.run-result').textContent()) ?? '').toContain('(draft)');
    expect(await statusOf('score')).toBe('failed');
    expect(await run.locator('.run-result .failure').textContent()).toContain('score');
    expect(await page.locator('svg.step-graph .node.failed').getAttribute('data-step')).toBe('score');
    await screenshot(page, 'workflow-run-draft-failed');
    expectNoPageProblems(page);
  }, 20_000);

  it('shows a save problem at its field, a 409 when the draft changed meanwhile, and publishes', async () => {
    const call = api(t.runtime);
    const page = await t.signedIn();
    await openWorkflow(page, 'price-in-currency');
    const stored = (await call<Workflow>('/dev/v1/workflow/price-in-currency')).body.data;
    const target = stored.definition.steps.findIndex((s) => s.kind === 'apiRequest');
    const step = stored.definition.steps[target]!;
    await page.getByRole('button', { name: new RegExp(`^${step.id} API · `) }).click();
    const editor = page.locator('#step-editor');
    await editor.getByLabel('A full URL').check();
    await editor.getByLabel('URL', { exact: true }).fill('ftp://example.com/x');
    await page.getByRole('button', { name: 'Save draft' }).click();
    const field = editor.getByLabel('URL', { exact: true });
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const problem = await page.locator(`#${await field.getAttribute('aria-describedby').then((ids) => ids!.split(' ').pop())}`).textContent();
    expect(problem).toContain('http:// or https://');
    expect(await page.getByRole('alert').first().textContent()).toContain(`definition.steps[${target}].request.url`);
    expect(await page.locator(`svg.step-graph [data-step="${step.id}"]`).getAttribute('class')).toContain('has-problem');
    await screenshot(page, 'workflow-problem-in-place');

    // Someone else saves meanwhile: this save is refused, and said so.
    const patched = await call('/dev/v1/workflow/price-in-currency', {
      method: 'PATCH',
      body: JSON.stringify({ checksum: stored.checksum, description: 'changed elsewhere' }),
    });
    expect(patched.status).toBe(200);
    await field.fill(`${t.runtime.providerUrl}/v1/risk-score`);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Someone else changed this workflow since you opened it').waitFor();
    expect(await page.getByRole('alert').first().textContent()).toContain('checksum_mismatch');
    await page.getByRole('button', { name: /Reload the workflow/ }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Save draft' }).isDisabled()).toBe(true);
    expect((await call<Workflow>('/dev/v1/workflow/price-in-currency')).body.data.definition.steps[target]!.request!.url).toBeUndefined();

    // What was reloaded (the change made elsewhere) is published from here.
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('status').filter({ hasText: 'Published as v2.' }).waitFor();
    const published = (await call<Workflow & { version: string }>('/dev/v1/workflow/price-in-currency')).body.data;
    expect(published).toMatchObject({ status: 'published', version: 'v2' });
    expectNoPageProblems(page);
  }, 20_000);

  it('marks a problem as it is typed, before any save, on its field and its node, and clears it once fixed', async () => {
    const page = await t.signedIn();
    await openWorkflow(page, 'checkout');
    await page.getByRole('button', { name: /^done end/ }).click();
    const editor = page.locator('#step-editor');
    const output = editor.getByLabel('Output FEEL 1', { exact: true });
    const node = page.locator('svg.step-graph [data-step="done"]');
    const problemOf = async () => {
      const ids = await output.getAttribute('aria-describedby');
      return ids ? page.locator(`[id="${ids.split(' ').pop()}"]`).textContent() : null;
    };

    await output.fill('discount.discount +');
    await expect.poll(problemOf).toContain('the expression is incomplete');
    expect(await output.getAttribute('aria-invalid')).toBe('true');
    expect(await node.getAttribute('class')).toContain('has-problem');
    await output.fill('refund.discount');
    await expect.poll(problemOf).toContain('reads "refund", which is neither a workflow input nor a step id');
    await screenshot(page, 'workflow-problem-as-typed');
    await output.fill('discount.discount');
    await expect.poll(() => output.getAttribute('aria-invalid')).toBeNull();
    expect(await node.getAttribute('class')).not.toContain('has-problem');
    // Nothing was saved: the page only checked.
    expect(await page.getByRole('alert').count()).toBe(0);
    expectNoPageProblems(page);
  }, 20_000);

  it('is accessible and readable on a phone width', async () => {
    const page = await t.signedIn({ width: 390, height: 844 });
    await openWorkflow(page, 'payment-review');
    await page.getByRole('button', { name: /^decide branch/ }).click();
    await page.getByRole('heading', { name: /Step decide/ }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'workflow-phone');
    await expectAccessible(page, 'the workflow editor on a phone, a branch selected');
    expectNoPageProblems(page);
  }, 20_000);
});
