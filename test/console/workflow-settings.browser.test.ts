/**
 * The workflow editor's whole-workflow parts in a real browser: the declared
 * inputs (added, moved, deleted by their accessible names), recording and
 * the run's deadline, saved and read back through the API, problems shown at
 * their path; a step renamed with the steps that go to it and the FEEL that
 * reads it following, an id refused in place; a step's kind changed after
 * the shared question; a run queued and its task followed to its end, step
 * by step, the following stopped once it ended; axe-core on each, also on a
 * phone.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { expectAccessible, expectNoPageProblems, openWorkflow, saveDraft, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

interface Step {
  id: string;
  kind: string;
  next?: string;
  cases?: { when: string; next: string }[];
  otherwise?: string;
  set?: Record<string, string>;
}

interface Workflow {
  checksum: string;
  definition: { inputs: { name: string; type: string }[]; start: string; steps: Step[]; settings?: { recordExecutions?: boolean }; timeoutMs: number };
}

const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));

describe.skipIf(!!skipReason)('console workflow settings, ids, kinds and queued runs (Chromium)', () => {
  const t = useConsoleBrowser();

  it('edits the inputs, recording and timeout, saves them, and shows a problem at its input', async () => {
    const call = api(t.runtime);
    const page = await t.signedIn();
    await openWorkflow(page, 'loan-application');
    const settings = page.getByRole('region', { name: 'Workflow settings' });

    await settings.getByRole('button', { name: 'Add input' }).click();
    // The new row's name takes the focus, to be typed at once.
    const nameId = await settings.getByLabel('Name of input 2').getAttribute('id');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(nameId);
    await page.keyboard.type('region');
    await settings.getByLabel('Type of input 2').selectOption('string');
    await settings.getByRole('button', { name: 'Add input' }).click();
    await settings.getByLabel('Name of input 3').fill('income');
    await settings.getByLabel('Type of input 3').selectOption('number');
    await settings.getByRole('button', { name: 'Add input' }).click();
    await settings.getByLabel('Name of input 4').fill('spare');

    // Moved by keyboard: the focus stays on the moved row's arrow.
    await settings.getByRole('button', { name: 'Move input income up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedLabel(page)).toBe('Move input income up');
    expect(await settings.getByLabel('Name of input 2').inputValue()).toBe('income');
    await settings.getByRole('button', { name: 'Delete input spare' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Add input');

    await settings.getByLabel('Record executions').check();
    await settings.getByLabel('Run timeout (ms)').fill('30000');
    await saveDraft(page);
    const saved = (await call<Workflow>('/dev/v1/workflow/loan-application')).body.data.definition;
    expect(saved.inputs).toEqual([
      { name: 'applicant', type: 'context' },
      { name: 'income', type: 'number' },
      { name: 'region', type: 'string' },
    ]);
    expect(saved.settings).toEqual({ recordExecutions: true });
    expect(saved.timeoutMs).toBe(30_000);

    // An input named twice and an impossible deadline: each refused at its field, by its path.
    await settings.getByLabel('Name of input 3').fill('income');
    await settings.getByLabel('Run timeout (ms)').fill('0');
    await page.getByRole('button', { name: 'Save draft' }).click();
    const timeout = settings.getByLabel('Run timeout (ms)');
    await expect.poll(() => timeout.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').first().textContent()).toContain('definition.timeoutMs');
    await timeout.fill('30000');
    await page.getByRole('button', { name: 'Save draft' }).click();
    const twice = settings.getByLabel('Name of input 3');
    await expect.poll(() => twice.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').first().textContent()).toContain('definition.inputs[2].name');
    expect(await page.locator(`#${(await twice.getAttribute('aria-describedby'))!.split(' ').pop()}`).textContent()).toContain('declared twice');
    await screenshot(page, 'workflow-settings-problem');
    await expectAccessible(page, 'the workflow settings with a problem');
    expectNoPageProblems(page);
  }, 20_000);

  it('keeps what is typed while the read after a save is on its way, and saves it again at once', async () => {
    const call = api(t.runtime);
    const created = await call('/dev/v1/workflow', {
      method: 'POST',
      body: JSON.stringify({
        id: 'typed-after-save',
        name: 'Typed after save',
        type: 'workflow',
        definition: { start: 'done', steps: [{ id: 'done', kind: 'end', output: {} }] },
      }),
    });
    expect(created.status).toBe(201);
    const page = await t.signedIn();
    await openWorkflow(page, 'typed-after-save');
    const timeout = page.getByRole('region', { name: 'Workflow settings' }).getByLabel('Run timeout (ms)');
    // The reads that follow the first save are held until the page has been typed in and saved again.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let saves = 0;
    await page.route('**/dev/v1/workflow/typed-after-save', async (route) => {
      if (route.request().method() === 'PATCH') saves++;
      else if (saves > 0) await held;
      await route.continue();
    });
    await timeout.fill('40000');
    await saveDraft(page);
    await timeout.fill('45000');
    // Saved again before the first save's read came back: with the checksum the first save answered, not a conflict.
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect.poll(() => saves).toBe(2);
    release();
    await expect.poll(async () => (await call<Workflow>('/dev/v1/workflow/typed-after-save')).body.data.definition.timeoutMs).toBe(45_000);
    await expect.poll(() => page.getByRole('button', { name: 'Save draft' }).isDisabled()).toBe(true);
    expect(await timeout.inputValue()).toBe('45000');
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.unroute('**/dev/v1/workflow/typed-after-save');
    expectNoPageProblems(page);
  }, 20_000);

  it('renames steps with the steps that go to them and the FEEL that reads them following, and refuses an id in place', async () => {
    const call = api(t.runtime);
    const page = await t.signedIn();
    await openWorkflow(page, 'loan-application');
    const editor = page.locator('#step-editor');
    const id = editor.getByLabel('Id', { exact: true });

    // The start, read by FEEL in the branch: renamed, then the condition that reads it.
    await page.getByRole('heading', { name: /Step eligibility/ }).waitFor();
    await id.fill('screening');
    await id.press('Enter');
    await page.getByRole('heading', { name: /Step screening/ }).waitFor();

    await page.getByRole('button', { name: /^eligible branch/ }).click();
    await page.getByRole('heading', { name: /Step eligible/ }).waitFor();
    // Refused in place: another step's id, then none; the draft keeps the old one.
    await id.fill('limit');
    await expect.poll(() => id.getAttribute('aria-invalid')).toBe('true');
    expect(await editor.textContent()).toContain('another step has this id');
    await id.fill('');
    await id.blur();
    expect(await editor.textContent()).toContain('a step needs an id');
    expect(await page.getByRole('heading', { name: /Step eligible/ }).count()).toBe(1);
    await screenshot(page, 'workflow-step-id-refused');
    await id.fill('check');
    await id.blur();
    await page.getByRole('heading', { name: /Step check/ }).waitFor();
    // The condition read the renamed step: it follows.
    // A FEEL field is a code editor (feel/feel-field.tsx): its text is its content.
    expect(await editor.getByLabel('Case 1 condition (FEEL)').textContent()).toBe('screening.eligible');

    // Read as `limit.limit` by the approved end: the step follows, the member stays.
    await page.getByRole('button', { name: /^limit rule/ }).click();
    await id.fill('credit');
    await id.press('Enter');
    await page.getByRole('heading', { name: /Step credit/ }).waitFor();

    await page.getByRole('button', { name: /^declined end/ }).click();
    await id.fill('refused');
    await id.press('Enter');
    await page.getByRole('heading', { name: /Step refused/ }).waitFor();
    await saveDraft(page);

    const saved = (await call<Workflow>('/dev/v1/workflow/loan-application')).body.data.definition;
    expect(saved.start).toBe('screening');
    expect(saved.steps.map((s) => s.id)).toEqual(['screening', 'check', 'credit', 'approved', 'refused']);
    expect(saved.steps[0]).toMatchObject({ next: 'check' });
    expect(saved.steps[1]).toMatchObject({ cases: [{ when: 'screening.eligible', next: 'credit' }], otherwise: 'refused' });
    expect(saved.steps[3]).toMatchObject({ output: { eligible: 'true', limit: 'credit.limit' } });
    expect(await page.locator('svg.step-graph .edge').count()).toBe(4);
    await screenshot(page, 'workflow-steps-renamed');
    expectNoPageProblems(page);
  }, 20_000);

  it("changes a step's kind after asking, keeping its id and next step", async () => {
    const call = api(t.runtime);
    const page = await t.signedIn();
    await openWorkflow(page, 'checkout');
    await page.getByRole('button', { name: /^tax rule/ }).click();
    const editor = page.locator('#step-editor');
    const kind = editor.getByLabel('Kind', { exact: true });

    // Asked first; kept when the answer is no.
    await kind.selectOption('transform');
    const question = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Make step tax a transform step?' }) });
    await question.waitFor();
    expect(await question.textContent()).toContain('goes on to shipping');
    await expectAccessible(page, 'the question before a kind changes');
    await question.getByRole('button', { name: 'Keep it' }).click();
    await question.waitFor({ state: 'detached' });
    expect(await kind.inputValue()).toBe('rule');
    expect(await editor.getByLabel('Rule', { exact: true }).inputValue()).toBe('tax-rate');

    await kind.selectOption('transform');
    await screenshot(page, 'workflow-kind-question');
    await question.getByRole('button', { name: 'Make it a transform step' }).click();
    await question.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('id'))).toBe(await kind.getAttribute('id'));
    await page.getByRole('heading', { name: /Step tax \(transform\)/ }).waitFor();
    expect(await editor.getByLabel('Next step').inputValue()).toBe('shipping');
    await editor.getByRole('button', { name: 'Add name' }).click();
    await editor.getByLabel('Name 1', { exact: true }).fill('rate');
    await editor.getByLabel('Name FEEL 1').fill('0.2');
    await saveDraft(page);

    const saved = (await call<Workflow>('/dev/v1/workflow/checkout')).body.data.definition;
    expect(saved.steps[1]).toEqual({ id: 'tax', kind: 'transform', set: { rate: '0.2' }, next: 'shipping' });
    expect(saved.steps[0]).toMatchObject({ next: 'tax' });
    await screenshot(page, 'workflow-kind-changed');
    expectNoPageProblems(page);
  }, 20_000);

  it('queues a run of the published version and follows its task to the end, step by step', async () => {
    const call = api(t.runtime);
    const page = await t.signedIn();
    const asked: string[] = [];
    page.on('request', (request) => request.url().includes('/dev/v1/tasks/') && asked.push(request.url()));
    await openWorkflow(page, 'payment-review');
    const run = page.getByRole('region', { name: 'Run' });
    await run.getByLabel('Params (JSON)').fill(JSON.stringify({ payment: { amount: 1500 }, card: {}, ip: {}, customer: {} }));
    await run.getByLabel('The published version, queued (async)').check();
    await run.getByRole('button', { name: 'Run workflow' }).click();

    const queued = run.locator('.queued-task');
    // Asked at once, then every second: the run ends within the next asking or two.
    await expect.poll(async () => (await queued.textContent()) ?? '', { timeout: 5_000 }).toContain('completed');
    const taskId = /task ([0-9a-f-]{36})/.exec((await queued.textContent()) ?? '')?.[1];
    expect(taskId).toBeDefined();
    const steps = run.getByRole('table', { name: 'Steps of the run' });
    await steps.waitFor();
    const statusOf = async (step: string) => (await steps.locator(`tr[data-step="${step}"] .badge`).textContent())?.trim();
    expect(await statusOf('screen')).toBe('succeeded');
    expect(await statusOf('score')).toBe('succeeded');
    expect(await statusOf('approve')).toBe('succeeded');
    expect(await statusOf('decline')).toBe('skipped');
    expect(await steps.locator('tr[data-step="score"] td').nth(2).textContent()).toMatch(/\d+ ms/);
    expect(await run.locator('.run-result').textContent()).toContain('"decision": "approve"');
    expect(await page.locator('svg.step-graph .node.succeeded').count()).toBe(4);

    const task = (await call<{ taskState: string; workflowRun: { result: { status: string } } }>(`/dev/v1/tasks/${taskId}`)).body.data;
    expect(task).toMatchObject({ taskState: 'completed', workflowRun: { result: { status: 'succeeded' } } });
    // Once the task ended, the page stops asking.
    const askedAtEnd = asked.length;
    expect(askedAtEnd).toBeGreaterThan(0);
    expect(asked.every((url) => url.endsWith(`/dev/v1/tasks/${taskId}`))).toBe(true);
    await page.waitForTimeout(1_300);
    expect(asked.length).toBe(askedAtEnd);
    expect(await run.getByRole('button', { name: 'Run workflow' }).isEnabled()).toBe(true);

    await screenshot(page, 'workflow-run-queued');
    await expectAccessible(page, 'the workflow editor after a queued run');
    expectNoPageProblems(page);
  }, 20_000);

  it('keeps the settings, id and kind readable and accessible on a phone', async () => {
    const page = await t.signedIn({ width: 390, height: 844 });
    await openWorkflow(page, 'price-in-currency');
    await page.getByRole('region', { name: 'Workflow settings' }).scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'workflow-settings-phone');
    await expectAccessible(page, 'the workflow settings on a phone');
    expectNoPageProblems(page);
  }, 20_000);
});
