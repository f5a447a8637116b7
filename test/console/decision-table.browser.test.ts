/**
 * The decision-table grid's values beyond its cells, in a real browser: an
 * output's allowed values added, reordered from the keyboard and saved with a
 * default, checked through the API and by testing the saved draft, where the
 * order decides a `priority` table's answer; a row's description saved; text
 * that is no literal and a default the API refuses, each shown on its field;
 * a phone width. axe-core checks the grid.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageProblems, ruleHelpers, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

interface Output {
  id: string;
  name: string;
  type: string;
  allowedValues?: unknown[];
  default?: unknown;
}

interface RuleBody {
  definition: {
    hitPolicy: string;
    outputs: Output[];
    rules: { id?: string; description?: string; when: string[]; then: unknown[] }[];
  };
}

/** Two rows that both match an amount of 100 or more: which one answers is up to the hit policy and the allowed values' order. */
const tiers = (extra: Partial<Output>) => ({
  inputs: [{ id: 'amount', expression: 'amount', type: 'number' }],
  outputs: [{ id: 'tier', name: 'tier', type: 'string', ...extra }],
  rules: [
    { when: ['>= 0'], then: ['"basic"'] },
    { when: ['>= 100'], then: ['"gold"'] },
  ],
});

describe.skipIf(!!skipReason)('console decision-table values (Chromium)', { timeout: 60_000 }, () => {
  const t = useConsoleBrowser();
  let page: Page;

  beforeAll(async () => {
    page = await t.signedIn();
  });

  const { call: callApi, createRule, openRule, tab, saved, fillCell } = ruleHelpers(t);
  /** An output column's details, where its allowed values and default are edited. */
  const openOutput = (on: Page, name = 'tier') => on.getByRole('button', { name: `Output column ${name}, string: details` }).click();
  const stored = async (id: string) => (await callApi<RuleBody>(`/dev/v1/rule/${id}`)).body.data.definition;
  const field = (on: Page, label: string) => on.getByLabel(label, { exact: true });
  const describedText = async (on: Page, label: string) => {
    const id = await field(on, label).getAttribute('aria-describedby');
    return id ? on.locator(`[id="${id}"]`).textContent() : null;
  };
  const focusedLabel = (on: Page) => on.evaluate(() => document.activeElement?.getAttribute('aria-label'));
  /** Runs the saved draft with these params from the Test tab and gives its output. */
  const tested = async (on: Page, params: unknown) => {
    await tab(on, 'Test');
    await field(on, 'Params (JSON)').fill(JSON.stringify(params));
    const result = on.locator('.test-result pre').first();
    const before = (await result.count()) ? await result.textContent() : undefined;
    await on.getByRole('button', { name: 'Run test' }).click();
    await expect
      .poll(
        async () =>
          (await result.count()) &&
          (await on.getByRole('status').filter({ hasText: 'Tested the saved draft' }).count()) &&
          (await result.textContent()) !== before,
      )
      .toBeTruthy();
    const output = JSON.parse((await result.textContent()) ?? 'null') as unknown;
    await tab(on, 'Definition');
    return output;
  };

  it('adds allowed values to a priority table, reorders them from the keyboard, sets a default, and the order decides the answer', async () => {
    await createRule('dt-priority', 'decisionTable', tiers({}));
    await openRule(page, 'dt-priority');
    await page.getByLabel('Hit policy').selectOption('priority');
    // The select is described by one plain line saying what the chosen policy does.
    const policyNote = async () => {
      const ids = (await page.getByLabel('Hit policy').getAttribute('aria-describedby')) ?? '';
      return (await Promise.all(ids.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()))).join(' ');
    };
    expect(await policyNote()).toMatch(/^Priority: of the matching rows, the one whose output comes first in the output's allowed values answers/);
    await openOutput(page);

    // Adding focuses the new value's field, so the keyboard can type straight into it.
    await page.getByRole('button', { name: 'Add allowed value of output 1' }).click();
    await expect.poll(() => focusedLabel(page)).toBe('Allowed value 1 of output 1');
    await page.keyboard.type('"basic"');
    await page.getByRole('button', { name: 'Add allowed value of output 1' }).click();
    await expect.poll(() => focusedLabel(page)).toBe('Allowed value 2 of output 1');
    await page.keyboard.type('"gold"');
    expect(await field(page, 'Allowed value 2 of output 1').inputValue()).toBe('"gold"');

    await page.getByRole('button', { name: 'Move allowed value "gold" up' }).focus();
    await page.keyboard.press('Enter');
    // At the top it can only go down: focus moves to that button of the same value.
    await expect.poll(() => focusedLabel(page)).toBe('Move allowed value "gold" down');
    expect(await field(page, 'Allowed value 1 of output 1').inputValue()).toBe('"gold"');
    await field(page, 'Default of output 1').fill('"none"');
    await screenshot(page, 'decision-table-allowed-values');
    await expectAccessible(page, 'the grid with allowed values and a default');
    await saved(page);

    const definition = await stored('dt-priority');
    expect(definition.hitPolicy).toBe('priority');
    expect(definition.outputs).toEqual([{ id: 'tier', name: 'tier', type: 'string', allowedValues: ['gold', 'basic'], default: '"none"' }]);
    // The cells nobody touched keep their JSON form.
    expect(definition.rules).toEqual(tiers({}).rules);

    expect(await tested(page, { amount: 150 })).toEqual({ tier: 'gold' });
    expect(await tested(page, { amount: -5 })).toEqual({ tier: 'none' });

    // Ranked the other way round, the same params answer the other row.
    await page.getByRole('button', { name: 'Move allowed value "gold" down' }).click();
    await expect.poll(() => focusedLabel(page)).toBe('Move allowed value "gold" up');
    await saved(page);
    expect((await stored('dt-priority')).outputs[0]!.allowedValues).toEqual(['basic', 'gold']);
    expect(await tested(page, { amount: 150 })).toEqual({ tier: 'basic' });
    expectNoPageProblems(page);
  });

  it('saves a row description, and shows text that is no literal and a refused default on their fields', async () => {
    await createRule('dt-marks', 'decisionTable', { hitPolicy: 'priority', ...tiers({ allowedValues: ['gold', 'basic', 7, true] }) });
    await openRule(page, 'dt-marks');
    await openOutput(page);
    expect(await field(page, 'Allowed value 3 of output 1').inputValue()).toBe('7');
    expect(await field(page, 'Allowed value 4 of output 1').inputValue()).toBe('true');
    await page.getByRole('button', { name: 'Delete allowed value true' }).click();
    await fillCell(page, 2, 'Description', 'Big orders');
    await page.getByRole('button', { name: 'Row 2 details' }).click();
    await field(page, 'Row 2 id').fill('big');
    await openOutput(page);
    await saved(page);
    const definition = await stored('dt-marks');
    expect(definition.rules[1]).toEqual({ id: 'big', description: 'Big orders', when: ['>= 100'], then: ['"gold"'] });
    expect(definition.rules[0]).toEqual({ when: ['>= 0'], then: ['"basic"'] });
    expect(definition.outputs[0]!.allowedValues).toEqual(['gold', 'basic', 7]);

    // Text that is no literal is said at once; the API refuses it as it refuses the default's FEEL error.
    await field(page, 'Allowed value 2 of output 1').fill('basic');
    expect(await field(page, 'Allowed value 2 of output 1').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => describedText(page, 'Allowed value 2 of output 1')).toContain('Not a FEEL literal');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    const refused = page.getByRole('alert').filter({ hasText: 'Not saved' });
    await save.click();
    await expect.poll(() => refused.textContent()).toContain('definition.outputs[0].allowedValues[1]');
    expect(await field(page, 'Allowed value 2 of output 1').getAttribute('aria-invalid')).toBe('true');

    // The API checks the default's FEEL once the shape is right: its error lands on the Default field.
    await field(page, 'Allowed value 2 of output 1').fill('"basic"');
    expect(await field(page, 'Allowed value 2 of output 1').getAttribute('aria-invalid')).toBeNull();
    await field(page, 'Default of output 1').fill('"a" +');
    await save.click();
    await expect.poll(() => refused.textContent()).toContain('definition.outputs[0].default');
    expect(await field(page, 'Default of output 1').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => describedText(page, 'Default of output 1')).toContain('the expression is incomplete');
    await screenshot(page, 'decision-table-value-errors');
    await expectAccessible(page, 'the grid with a refused default');

    // Fixing the default clears its mark at once, and the table saves with it.
    await field(page, 'Default of output 1').fill('"basic"');
    expect(await field(page, 'Default of output 1').getAttribute('aria-invalid')).toBeNull();
    await saved(page);
    expect((await stored('dt-marks')).outputs[0]).toEqual({
      id: 'tier',
      name: 'tier',
      type: 'string',
      allowedValues: ['gold', 'basic', 7],
      default: '"basic"',
    });
    expectNoPageProblems(page);
  });

  it('is readable on a phone width: the grid with its values scrolls in its box, not the page', async () => {
    const phone = await t.signedIn({ width: 390, height: 844 });
    await openRule(phone, 'insurance-premium');
    await openOutput(phone, 'band');
    await field(phone, 'Allowed value 1 of output 1').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(phone, 'decision-table-phone');
    await expectAccessible(phone, 'the grid on a phone');
    expectNoPageProblems(phone);
  });
});
