/**
 * The editing cycle the rule and workflow pages share, in a real browser:
 * undo and redo from the keyboard (outside a text field) and from the action
 * bar's buttons, typing into one field undone as one step, the history gone
 * once saved; the question asked before a page with unsaved edits is left
 * (a link, the back button, the branch, and the browser's own before the
 * document goes); the saved notice gone at the next edit or another tab; a
 * rule's settings and declared inputs saved, shown again and marked by the
 * check as typed; and the test panel running the draft as typed, unsaved
 * edits included. What the page saved is checked through the API.
 */
import type { Dialog, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageProblems, openWorkflow, ruleHelpers, saveDraft, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

interface Rule {
  name: string;
  checksum: string;
  definition: {
    when: string;
    then: Record<string, unknown>;
    parameters?: { name: string; type: string }[];
    settings?: Record<string, unknown>;
  };
}

interface Workflow {
  definition: { timeoutMs: number; steps: { id: string }[] };
}

/** What a field shows: a text field's value, or a code editor's text. */
const textOf = (field: Locator) =>
  field.evaluate((element) => (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? element.value : (element.textContent ?? '')));

/** Takes the focus out of every field, as a click on the page's heading does: the page's own shortcuts then apply. */
const leaveFields = (on: Page) => on.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

/** The next dialog the page opens: its kind and words, answered as told. */
function nextDialog(on: Page, answer: 'accept' | 'dismiss') {
  return new Promise<{ type: string; message: string }>((resolve) =>
    on.once('dialog', (dialog: Dialog) => {
      resolve({ type: dialog.type(), message: dialog.message() });
      void (answer === 'accept' ? dialog.accept() : dialog.dismiss());
    }),
  );
}

describe.skipIf(!!skipReason)('console editing cycle (Chromium)', { timeout: 60_000 }, () => {
  const t = useConsoleBrowser();
  let page: Page;

  beforeAll(async () => {
    page = await t.signedIn();
  });

  const { call: callApi, createRule, openRule, tab, saved } = ruleHelpers(t);
  const stored = async (id: string) => (await callApi<Rule>(`/dev/v1/rule/${id}`)).body.data;
  const button = (on: Page, name: string) => on.getByRole('button', { name, exact: true });
  const simpleFee = { when: 'amount > 10', then: { fee: 1 }, otherwise: { fee: 0 } };

  it('undoes and redoes a rule’s edits from the keyboard and the buttons, a word typed as one step, until the draft is saved', async () => {
    await createRule('cycle-undo', 'simpleRule', simpleFee);
    await openRule(page, 'cycle-undo');
    const name = page.getByLabel('Name', { exact: true });
    const when = page.getByLabel('When (a FEEL condition)');
    expect(await button(page, 'Undo').isDisabled()).toBe(true);
    expect(await button(page, 'Undo').getAttribute('aria-keyshortcuts')).toContain('Control+Z');
    expect(await button(page, 'Redo').getAttribute('aria-keyshortcuts')).toContain('Control+Shift+Z');

    // A word typed into the name is one step; the condition is another.
    await name.click();
    await name.press('End');
    await page.keyboard.type(' plus');
    await when.fill('amount > 20');
    await leaveFields(page);
    await page.keyboard.press('Control+z');
    expect(await textOf(when)).toBe('amount > 10');
    expect(await name.inputValue()).toBe('cycle-undo plus');
    await page.keyboard.press('Control+z');
    expect(await name.inputValue()).toBe('cycle-undo');
    await expect.poll(() => page.getByText('unsaved changes', { exact: true }).count()).toBe(0);
    expect(await button(page, 'Undo').isDisabled()).toBe(true);
    await page.keyboard.press('Control+Shift+z');
    expect(await name.inputValue()).toBe('cycle-undo plus');
    await page.keyboard.press('Control+y');
    expect(await textOf(when)).toBe('amount > 20');

    // The buttons do the same from wherever the focus is, a text field too.
    await when.focus();
    await button(page, 'Undo').click();
    expect(await textOf(when)).toBe('amount > 10');
    await button(page, 'Redo').click();
    expect(await textOf(when)).toBe('amount > 20');
    // Inside a text field, the keys are the browser's own (which may undo what was typed in any field): the page's history is not stepped back.
    await button(page, 'Undo').click();
    await page.getByLabel('Description', { exact: true }).focus();
    await page.keyboard.press('Control+z');
    expect(await name.inputValue()).toBe('cycle-undo plus');
    await when.fill('amount > 20');
    await screenshot(page, 'cycle-undo-rule');
    await expectAccessible(page, 'the rule page with Undo and Redo');

    // Saved: nothing to undo; what was saved is what the page showed.
    await saved(page);
    expect(await button(page, 'Undo').isDisabled()).toBe(true);
    expect((await stored('cycle-undo')).definition.when).toBe('amount > 20');
    expect((await stored('cycle-undo')).name).toBe('cycle-undo plus');
    expectNoPageProblems(page);
  });

  it('undoes a workflow’s edits, a step added included, from the keyboard and the buttons', async () => {
    const workflow = await t.signedIn();
    await openWorkflow(workflow, 'checkout');
    const steps = workflow.locator('svg.step-graph [role="button"]');
    const before = await steps.count();
    const timeout = workflow.getByRole('region', { name: 'Workflow settings' }).getByLabel('Run timeout (ms)');
    const timeoutBefore = await timeout.inputValue();
    await timeout.fill('4321');
    const addStep = workflow.getByRole('form', { name: 'Add a step' });
    await addStep.getByLabel('New step id').fill('extra');
    await addStep.getByLabel('Kind').selectOption('end');
    await addStep.getByRole('button', { name: /^Add step/ }).click();
    await expect.poll(() => steps.count()).toBe(before + 1);

    await leaveFields(workflow);
    await workflow.keyboard.press('Control+z');
    await expect.poll(() => steps.count()).toBe(before);
    expect(await timeout.inputValue()).toBe('4321');
    await button(workflow, 'Undo').click();
    expect(await timeout.inputValue()).toBe(timeoutBefore);
    await expect.poll(() => workflow.getByText('unsaved changes', { exact: true }).count()).toBe(0);
    await button(workflow, 'Redo').click();
    await leaveFields(workflow);
    await workflow.keyboard.press('Control+Shift+z');
    await expect.poll(() => steps.count()).toBe(before + 1);
    expect(await timeout.inputValue()).toBe('4321');
    await screenshot(workflow, 'cycle-undo-workflow');
    // The step goes again (it ends the workflow before its other steps, which the save would refuse), the timeout is saved.
    await button(workflow, 'Undo').click();
    await expect.poll(() => steps.count()).toBe(before);
    await saveDraft(workflow);
    expect(await button(workflow, 'Undo').isDisabled()).toBe(true);
    const saved = (await callApi<Workflow>('/dev/v1/workflow/checkout')).body.data.definition;
    expect(saved.timeoutMs).toBe(4321);
    expect(saved.steps).toHaveLength(before);
    expectNoPageProblems(workflow);
  });

  it('asks before a page with unsaved edits is left, in the console and by the browser, and stays when told', async () => {
    await createRule('cycle-leave', 'simpleRule', simpleFee);
    // Reached from the list, so that the back button goes back to it within the console.
    await openRule(page, 'cycle-leave');
    await page.evaluate(() => (location.hash = '#/rules'));
    await page.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
    await page.evaluate(() => (location.hash = '#/rules/cycle-leave'));
    await page.getByRole('tablist', { name: 'Rule sections' }).waitFor();
    const description = page.getByLabel('Description', { exact: true });
    await description.fill('not saved yet');

    // A link of the console: asked; staying keeps the page and its edits.
    const nav = page.getByRole('navigation', { name: 'Sections' });
    const stay = nextDialog(page, 'dismiss');
    await nav.getByRole('link', { name: 'Workflows' }).click();
    expect(await stay).toEqual({ type: 'confirm', message: expect.stringContaining('Your unsaved changes will be lost') });
    expect(page.url()).toMatch(/#\/rules\/cycle-leave$/);
    expect(await description.inputValue()).toBe('not saved yet');

    // The branch: asked too, and the switcher shows the branch the page stayed on.
    const branch = page.getByLabel('Branch');
    const shown = await branch.inputValue();
    const other = await branch
      .locator('option')
      .evaluateAll((options, current) => options.map((o) => (o as HTMLOptionElement).value).find((v) => v !== current), shown);
    expect(other, 'the demo workspace has a branch besides the one shown').toBeDefined();
    const stayOnBranch = nextDialog(page, 'dismiss');
    await branch.selectOption(other!);
    expect((await stayOnBranch).type).toBe('confirm');
    expect(await branch.inputValue()).toBe(shown);
    expect(await description.inputValue()).toBe('not saved yet');

    // The back button: asked; staying puts the address back.
    const stayBack = nextDialog(page, 'dismiss');
    await page.goBack();
    expect((await stayBack).type).toBe('confirm');
    await expect.poll(() => page.url()).toMatch(/#\/rules\/cycle-leave$/);
    expect(await description.inputValue()).toBe('not saved yet');

    // Leaving when told: the list, and the edits gone.
    const leave = nextDialog(page, 'accept');
    await nav.getByRole('link', { name: 'Workflows' }).click();
    await leave;
    await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor();
    expect((await stored('cycle-leave')).definition.when).toBe('amount > 10');

    // Leaving the document (a reload, the tab closed): the browser's own question, on both pages; none once nothing is unsaved.
    for (const [open, field] of [
      [(on: Page) => openRule(on, 'cycle-leave'), (on: Page) => on.getByLabel('Description', { exact: true })],
      [(on: Page) => openWorkflow(on, 'checkout'), (on: Page) => on.getByRole('region', { name: 'Workflow settings' }).getByLabel('Run timeout (ms)')],
    ] as const) {
      const tabPage = await t.signedIn();
      await open(tabPage);
      // Typed as a person does (the browser asks only on a page a person has used), and shown as unsaved.
      await field(tabPage).click();
      await field(tabPage).fill('999');
      await tabPage.getByText('unsaved changes', { exact: true }).waitFor();
      const asked = nextDialog(tabPage, 'dismiss');
      await tabPage.close({ runBeforeUnload: true });
      expect((await asked).type).toBe('beforeunload');
      expect(tabPage.isClosed()).toBe(false);
      await button(tabPage, 'Undo').click();
      await expect.poll(() => tabPage.getByText('unsaved changes', { exact: true }).count()).toBe(0);
      const closed = new Promise<void>((resolve) => tabPage.once('close', () => resolve()));
      await tabPage.close({ runBeforeUnload: true });
      await closed;
    }
    expectNoPageProblems(page);
  });

  it('says Saved until the next edit or another tab, and not after', async () => {
    await createRule('cycle-notice', 'simpleRule', simpleFee);
    await openRule(page, 'cycle-notice');
    const notice = page.getByRole('status').filter({ hasText: 'Saved.' });
    const description = page.getByLabel('Description', { exact: true });
    await description.fill('first');
    await saved(page);
    await description.fill('first, then more');
    await expect.poll(() => notice.count()).toBe(0);
    await saved(page);
    await tab(page, 'Test');
    await tab(page, 'Definition');
    expect(await notice.count()).toBe(0);
    expectNoPageProblems(page);
  });

  it('saves a rule’s declared inputs and settings, shows them again, and marks them as typed', async () => {
    await createRule('cycle-settings', 'simpleRule', simpleFee);
    await openRule(page, 'cycle-settings');
    const settings = page.getByRole('region', { name: 'Settings and inputs' });
    const when = page.getByLabel('When (a FEEL condition)');

    await settings.getByLabel('Declare the inputs').check();
    await settings.getByRole('button', { name: 'Add input' }).click();
    await settings.getByLabel('Name of input 1').fill('total');
    await settings.getByLabel('Type of input 1').selectOption('number');
    // Declared, the condition's name that is no input is marked as typed, before any save.
    await expect.poll(() => when.getAttribute('aria-invalid')).toBe('true');
    await settings.getByLabel('Name of input 1').fill('amount');
    await expect.poll(() => when.getAttribute('aria-invalid')).toBeNull();

    await settings.getByLabel('Record executions').check();
    await settings.getByLabel('Time zone of the schedule').fill('Europe/Paris');
    await settings.getByLabel('Replay before publishing').check();
    const window = settings.getByLabel('Window');
    await window.fill('P99D');
    await expect.poll(() => window.getAttribute('aria-invalid')).toBe('true');
    await window.fill('P3D');
    await expect.poll(() => window.getAttribute('aria-invalid')).toBeNull();
    await screenshot(page, 'cycle-rule-settings');
    await expectAccessible(page, 'the rule settings and inputs');
    await saved(page);

    const definition = (await stored('cycle-settings')).definition;
    expect(definition.parameters).toEqual([{ name: 'amount', type: 'number' }]);
    expect(definition.settings).toEqual({ recordExecutions: true, timezone: 'Europe/Paris', replayGate: { maxChangedRatio: 0.05, window: 'P3D' } });

    await openRule(page, 'cycle-settings');
    expect(await settings.getByLabel('Name of input 1').inputValue()).toBe('amount');
    expect(await settings.getByLabel('Record executions').isChecked()).toBe(true);
    expect(await settings.getByLabel('Time zone of the schedule').inputValue()).toBe('Europe/Paris');
    expect(await settings.getByLabel('Window').inputValue()).toBe('P3D');

    // The executions' hint leads to them.
    await tab(page, 'Schedule and executions');
    await page.getByRole('button', { name: "Open the rule's settings" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Settings and inputs');
    expectNoPageProblems(page);
  });

  it('tests the draft as typed, unsaved edits included, and a published version as published', async () => {
    await createRule('cycle-test', 'simpleRule', simpleFee);
    expect((await callApi('/dev/v1/rule/cycle-test/publish', 'POST', {})).status).toBe(201);
    await openRule(page, 'cycle-test');
    await page.getByLabel('Value of Then output fee').fill('5');
    await tab(page, 'Test');
    const panel = page.getByRole('tabpanel', { name: 'Test' });
    await panel.getByText('Testing unsaved edits').waitFor();
    await page.getByLabel('Params (JSON)').fill('{"amount": 20}');
    await button(page, 'Run test').click();
    await panel.getByRole('status').filter({ hasText: 'Tested the draft as typed (unsaved edits)' }).waitFor();
    expect(JSON.parse((await page.locator('.test-result pre').first().textContent()) ?? 'null')).toEqual({ fee: 5 });
    await screenshot(page, 'cycle-test-unsaved');
    // Nothing was saved.
    expect((await stored('cycle-test')).definition.then).toEqual({ fee: 1 });

    await page.getByLabel('Run against').selectOption('v1');
    await button(page, 'Run test').click();
    await panel.getByRole('status').filter({ hasText: 'Tested v1' }).waitFor();
    expect(JSON.parse((await page.locator('.test-result pre').first().textContent()) ?? 'null')).toEqual({ fee: 1 });

    // A draft typed with a problem: the test does not run, and says where.
    await tab(page, 'Definition');
    await page.getByLabel('When (a FEEL condition)').fill('amount >');
    await tab(page, 'Test');
    await page.getByLabel('Run against').selectOption('');
    await button(page, 'Run test').click();
    await expect.poll(() => panel.getByRole('alert').textContent()).toContain('definition.when');
    expectNoPageProblems(page);
  });
});
