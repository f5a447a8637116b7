/**
 * The rule page in a real browser: a FEEL error from a refused save shown on
 * its cell, and as it is typed, before a save; analysis warnings on their
 * rows, a conflicting save caught; the
 * test panel's trace with the failing cell and its value, and typed params
 * sent with every digit; the grid's rows and
 * columns added, moved (from the keyboard) and deleted, checked through the
 * API; a publish refused by a failing case, fixed and published; the
 * difference between versions; the schedule and the executions; a phone
 * width. axe-core checks the editor and the test panel.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageProblems, ruleHelpers, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

interface RuleBody {
  status: string;
  version: string;
  checksum: string;
  description: string;
  definition: {
    inputs: { id: string }[];
    outputs: { id: string }[];
    rules: { when: string[]; then: unknown[] }[];
  };
}

describe.skipIf(!!skipReason)('console rules (Chromium)', { timeout: 60_000 }, () => {
  const t = useConsoleBrowser();
  let page: Page;

  beforeAll(async () => {
    page = await t.signedIn();
  });

  const { call: callApi, createRule, openRule, tab, saved, gridCell, fillCell } = ruleHelpers(t);
  const call = (path: string, method?: string, body?: unknown) => callApi<RuleBody>(path, method, body);
  const describedText = async (on: Page, element: Locator) => {
    const id = await element.getAttribute('aria-describedby');
    return id ? on.locator(`[id="${id}"]`).textContent() : null;
  };
  const horizontalOverflow = (on: Page) => on.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  it('shows a refused save’s FEEL errors in place on their cells, warnings on their rows, and a conflicting save', async () => {
    await openRule(page, 'loan-eligibility');
    const ageCell = await gridCell(page, 2, 'applicant.age');
    const eligibleCell = await gridCell(page, 3, 'eligible');
    await fillCell(page, 2, 'applicant.age', '<< 3');
    await fillCell(page, 3, 'eligible', 'maybe +');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();

    await expect.poll(() => ageCell.getAttribute('aria-invalid')).toBe('true');
    expect(await ageCell.getAttribute('class')).toContain('cell-error');
    expect(await describedText(page, ageCell)).toContain('a unary test (such as "< 18") cannot stand here');
    expect(await describedText(page, eligibleCell)).toContain('the expression is incomplete');
    expect(await (await gridCell(page, 1, 'applicant.age')).getAttribute('aria-invalid')).toBeNull();
    await screenshot(page, 'rules-feel-error');
    await expectAccessible(page, 'the decision-table editor with FEEL errors');

    // Fixing a cell clears its mark at once; under "first", a row inside row 1's range can never be the answer.
    await fillCell(page, 2, 'applicant.age', '-');
    expect(await ageCell.getAttribute('aria-invalid')).toBeNull();
    await fillCell(page, 3, 'eligible', 'true');
    await page.getByLabel('Hit policy').selectOption('first');
    await page.getByRole('button', { name: 'Add row' }).click();
    await fillCell(page, 4, 'applicant.age', '< 10');
    await fillCell(page, 4, 'eligible', 'false');
    await saved(page);
    const rowHead = page.getByRole('rowheader', { name: /^Row 4 / });
    await expect.poll(() => rowHead.textContent()).toContain('can never be the answer');
    // One row can never be the answer; rows no test case reaches are warned of too (coverage), which this count leaves out.
    expect(await page.locator('tr.cell-warning', { hasText: 'can never be the answer' }).count()).toBe(1);
    await screenshot(page, 'rules-row-warning');

    // Someone else saves meanwhile: the page's save is refused, nothing is overwritten, and reload shows theirs.
    const current = await call('/dev/v1/rule/loan-eligibility');
    expect((await call('/dev/v1/rule/loan-eligibility', 'PATCH', { checksum: current.body.data.checksum, description: 'Changed elsewhere' })).status).toBe(200);
    await page.getByRole('button', { name: 'Row 4 details' }).click();
    await page.getByRole('button', { name: 'Delete row 4' }).click();
    await page.getByLabel('Hit policy').selectOption('any');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = page.getByRole('alert').filter({ hasText: 'Someone else changed this rule' });
    await conflict.waitFor();
    await screenshot(page, 'rules-conflict');
    await conflict.getByRole('button', { name: 'Reload the rule' }).click();
    await expect.poll(() => page.getByLabel('Description', { exact: true }).inputValue()).toBe('Changed elsewhere');
    expectNoPageProblems(page);
  });

  it('marks FEEL problems as they are typed, before any save, and clears them once fixed', async () => {
    await openRule(page, 'loan-eligibility');
    const ageCell = await gridCell(page, 2, 'applicant.age');
    await fillCell(page, 2, 'applicant.age', '<< 3');
    await expect.poll(() => describedText(page, ageCell)).toContain('a unary test (such as "< 18") cannot stand here');
    expect(await ageCell.getAttribute('aria-invalid')).toBe('true');
    await fillCell(page, 2, 'applicant.age', '< 30');
    await expect.poll(() => ageCell.getAttribute('aria-invalid')).toBeNull();

    await openRule(page, 'age-check');
    const when = page.getByLabel('When (a FEEL condition)');
    await when.fill('customer.age <');
    await expect.poll(() => describedText(page, when)).toContain('the expression is incomplete');
    await screenshot(page, 'rules-problem-as-typed');
    await when.fill('customer.age < 18');
    await expect.poll(() => when.getAttribute('aria-invalid')).toBeNull();
    // Nothing was saved: the page only checked.
    expect(await page.getByRole('alert').filter({ hasText: 'Not saved' }).count()).toBe(0);
    expectNoPageProblems(page);
  });

  it('tests the draft and shows, row by row and cell by cell, what matched and which cell failed on which value', async () => {
    await openRule(page, 'loan-eligibility');
    await tab(page, 'Test');
    const params = page.getByLabel('Params (JSON)');
    await params.fill('{"applicant": {"age": 30,');
    await page.getByText(/^Not valid JSON/).waitFor();
    expect(await page.getByRole('button', { name: 'Run test' }).isDisabled()).toBe(true);
    await params.fill('{"applicant": {"age": 30, "creditScore": 500}}');
    await page.getByRole('button', { name: 'Run test' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Tested the saved draft in [\d.]+ ms/ })
      .waitFor();

    const trace = page.getByRole('table', { name: 'Trace of the decision table' });
    const rows = trace.locator('tbody tr');
    const failed = rows.nth(0).locator('td.failed-cell');
    expect(await failed.count()).toBe(1);
    expect(await failed.textContent()).toContain('age: 30 did not match < 18');
    expect(await rows.nth(0).locator('td').first().getAttribute('class')).toBe('failed-cell');
    expect(await rows.nth(1).getAttribute('class')).toBe('matched');
    expect(await rows.nth(2).locator('td.failed-cell').textContent()).toContain('score: 500 did not match >= 580');
    expect(await rows.nth(2).locator('td').first().getAttribute('class')).toBe('matched');
    expect(await page.locator('.test-result pre').first().textContent()).toContain('"eligible": false');
    await screenshot(page, 'rules-test-trace');
    await expectAccessible(page, 'the test panel with a trace');

    // A published version can be tested too.
    await page.getByLabel('Run against').selectOption('v1');
    await page.getByRole('button', { name: 'Run test' }).click();
    await page.getByRole('status').filter({ hasText: 'Tested v1' }).waitFor();

    // A number a double would round is sent with every digit typed.
    await params.fill('{"applicant": {"age": 30, "creditScore": 12345678901234567.89}}');
    const answered = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/test'));
    await page.getByRole('button', { name: 'Run test' }).click();
    const answer = await answered;
    expect(answer.request().postData()).toContain('"creditScore":12345678901234567.89');
    // The API read them so: its trace names the value it compared.
    expect(await answer.text()).toContain('12345678901234567.89');
    expectNoPageProblems(page);
  });

  it('edits a rule set and a simple rule, with errors in place and their traces', async () => {
    await openRule(page, 'credit-limit');
    await page.getByLabel('When of entry 1', { exact: true }).fill('applicant.creditScore >=');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    expect(await describedText(page, page.getByLabel('When of entry 1', { exact: true }))).toContain('the expression is incomplete');
    await page.getByRole('button', { name: 'Reload', exact: true }).click();
    // A FEEL field is a code editor (feel/feel-field.tsx): its text is its content.
    await expect.poll(() => page.getByLabel('When of entry 1', { exact: true }).textContent()).toBe('applicant.creditScore >= 750');
    await tab(page, 'Test');
    await page.getByRole('button', { name: 'Run test' }).click();
    const entries = page.locator('.trace-entries > li');
    await entries.first().waitFor();
    expect(await entries.nth(0).getAttribute('class')).toBe('unmatched');
    expect(await entries.nth(1).getAttribute('class')).toBe('matched');
    expect(await entries.nth(1).textContent()).toContain('good');
    await screenshot(page, 'rules-set-trace');

    await openRule(page, 'age-check');
    await tab(page, 'Test');
    await page.getByLabel('Params (JSON)').fill('{}');
    await page.getByRole('button', { name: 'Run test' }).click();
    const condition = page.locator('.trace.condition');
    await condition.waitFor();
    expect(await condition.getAttribute('class')).toContain('failed-cell');
    expect(await condition.textContent()).toContain('no value named "customer"');
    await tab(page, 'Definition');
    const when = page.getByLabel('When (a FEEL condition)');
    await when.fill('customer.age <');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => describedText(page, when)).toContain('the expression is incomplete');
    await screenshot(page, 'rules-simple-error');
    expectNoPageProblems(page);
  });

  it('adds, moves and deletes rows and columns from the keyboard and buttons, and saves them', async () => {
    await createRule('console-grid', 'decisionTable', {
      hitPolicy: 'first',
      inputs: [{ id: 'size', expression: 'size', type: 'string' }],
      outputs: [{ id: 'fee', name: 'fee', type: 'number' }],
      rules: [
        { when: ['"small"'], then: [1] },
        { when: ['"large"'], then: [5] },
      ],
    });
    await openRule(page, 'console-grid');
    await page.getByRole('button', { name: 'Add row' }).click();
    await fillCell(page, 3, 'fee', '9');
    await page.getByRole('button', { name: 'Row 3 details' }).click();
    await page.getByRole('button', { name: 'Move row 3 up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move row 2 up');
    await expect.poll(async () => (await gridCell(page, 2, 'fee')).textContent()).toBe('9');

    // A new column's details open beside the grid.
    await page.getByRole('button', { name: 'Add input column' }).click();
    await page.getByLabel('Id of input 2', { exact: true }).fill('region');
    await page.getByLabel('Expression of input 2', { exact: true }).fill('region');
    await page.getByRole('button', { name: 'Close column details' }).click();
    await fillCell(page, 1, 'region', '"EU"');
    await expect.poll(async () => (await gridCell(page, 1, 'region')).textContent()).toBe('"EU"');
    await page.getByRole('button', { name: 'Input column region, string: details' }).click();
    await page.getByRole('button', { name: 'Move column region left' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move column region right');
    expect(await page.getByLabel('Id of input 1', { exact: true }).inputValue()).toBe('region');

    await page.getByRole('button', { name: 'Add output column' }).click();
    await gridCell(page, 1, 'output2');
    await page.getByRole('button', { name: 'Delete column output2' }).click();
    await page.getByRole('button', { name: 'Row 3 details' }).click();
    await page.getByRole('button', { name: 'Delete row 3' }).click();
    await screenshot(page, 'rules-grid-edited');
    await saved(page);

    const stored = (await call('/dev/v1/rule/console-grid')).body.data.definition;
    expect(stored.inputs.map((input) => input.id)).toEqual(['region', 'size']);
    expect(stored.outputs.map((output) => output.id)).toEqual(['fee']);
    expect(stored.rules).toEqual([
      { when: ['"EU"', '"small"'], then: [1] },
      { when: ['-', '-'], then: [9] },
    ]);
    expectNoPageProblems(page);
  });

  it('shows a publish refused by a failing case, then the case fixed, run and published', async () => {
    await createRule('console-publish', 'decisionTable', {
      hitPolicy: 'first',
      inputs: [{ id: 'amount', expression: 'amount', type: 'number' }],
      outputs: [{ id: 'tier', name: 'tier', type: 'string' }],
      rules: [
        { when: ['>= 100'], then: ['"gold"'] },
        { when: ['< 100'], then: ['"basic"'] },
      ],
      tests: [
        { name: 'big order', params: { amount: 150 }, expected: { tier: 'gold' } },
        { name: 'small order', params: { amount: 10 }, expected: { tier: 'silver' } },
      ],
    });
    await openRule(page, 'console-publish');
    await tab(page, 'Publish and versions');
    await page.getByRole('button', { name: 'Publish draft' }).click();
    const failing = page.getByRole('table', { name: 'Failing cases' });
    await failing.waitFor();
    const failedRow = failing.getByRole('row', { name: /small order/ });
    expect(await failedRow.locator('td').nth(0).textContent()).toBe('{"tier":"silver"}');
    expect(await failedRow.locator('td').nth(1).textContent()).toBe('{"tier":"basic"}');
    expect(await failing.locator('tbody tr').count()).toBe(1);
    await screenshot(page, 'rules-publish-refused');

    await tab(page, 'Test cases');
    await page.getByRole('button', { name: 'Run all cases' }).click();
    await page.getByRole('status').filter({ hasText: '1 of 2 cases passed.' }).waitFor();
    await page.getByRole('button', { name: 'Edit case small order' }).click();
    await page.getByLabel('Expected output (JSON)').fill('{"tier": "basic"}');
    await page.getByRole('button', { name: 'Apply case' }).click();
    await saved(page);
    await page.getByRole('button', { name: 'Run all cases' }).click();
    await page.getByRole('status').filter({ hasText: '2 of 2 cases passed.' }).waitFor();
    await screenshot(page, 'rules-cases-passed');

    await tab(page, 'Publish and versions');
    await page.getByRole('button', { name: 'Publish draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Published as v1' }).waitFor();
    const rule = (await call('/dev/v1/rule/console-publish')).body.data;
    expect(rule).toMatchObject({ status: 'published', version: 'v1' });
    await page.getByRole('rowheader', { name: 'v1' }).waitFor();
    await screenshot(page, 'rules-published');
    expectNoPageProblems(page);
  });

  it('compares a version with the saved draft side by side, the changed line marked', async () => {
    await openRule(page, 'console-publish');
    await fillCell(page, 1, 'tier', '"platinum"');
    await saved(page);
    await tab(page, 'Publish and versions');
    await page.getByLabel('Compare', { exact: true }).selectOption('v1');
    await page.getByLabel('With', { exact: true }).selectOption('draft');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '1 line differ' }).waitFor();
    const changed = page.locator('table.diff tr.diff-changed');
    expect(await changed.count()).toBe(1);
    expect(await changed.locator('td.diff-removed').textContent()).toContain('gold');
    expect(await changed.locator('td.diff-added').textContent()).toContain('platinum');
    await screenshot(page, 'rules-version-diff');
    expectNoPageProblems(page);
  });

  it('shows no schedule, saves one with its next runs, and pages through the executions', async () => {
    await createRule('console-runs', 'simpleRule', {
      when: 'amount > 10',
      then: { big: true },
      otherwise: { big: false },
      settings: { recordExecutions: true },
    });
    expect((await call('/dev/v1/rule/console-runs/publish', 'POST', {})).status).toBe(201);
    for (let n = 0; n < 12; n++) expect((await call('/dev/v1/rule/console-runs/execute', 'POST', { params: { amount: n * 2 } })).status).toBe(200);

    await openRule(page, 'console-runs');
    await tab(page, 'Schedule and executions');
    await page.getByText('No schedule').waitFor();
    await page.getByRole('button', { name: 'Add a schedule' }).click();
    await page.getByLabel('Runs every').selectOption('hour');
    await page.getByLabel('Params of each run (JSON)').fill('{"amount": 50}');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    const nextRuns = page.locator('ol.next-runs li');
    await nextRuns.first().waitFor();
    expect(await nextRuns.count()).toBe(3);

    const executions = page.locator('table.executions tbody tr');
    expect(await executions.count()).toBe(10);
    expect(await page.getByText('Page 1 of 2 · 12 in all').count()).toBe(1);
    // Newest first: the last call (amount 22) heads the list.
    expect(await executions.first().textContent()).toContain('{"amount":22}');
    await screenshot(page, 'rules-schedule-executions');
    await expectAccessible(page, 'the schedule and executions');
    await page.getByRole('button', { name: 'Older executions' }).click();
    await page.getByText('Page 2 of 2 · 12 in all').waitFor();
    expect(await executions.count()).toBe(2);
    expectNoPageProblems(page);
  });

  it('keeps what is typed while the read after a save is on its way', async () => {
    await createRule('typed-after-save', 'simpleRule', { when: 'true', then: { result: 'ok' } });
    await openRule(page, 'typed-after-save');
    const description = page.getByLabel('Description', { exact: true });
    await description.fill('first');
    // The read that follows the save is held until the page has been typed in again.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let saveSent = false;
    await page.route('**/dev/v1/rule/typed-after-save', async (route) => {
      if (route.request().method() === 'PATCH') saveSent = true;
      else if (saveSent) await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await description.fill('first, then more');
    release();
    await expect.poll(async () => (await call('/dev/v1/rule/typed-after-save')).body.data.description).toBe('first');
    await page.waitForTimeout(300);
    expect(await description.inputValue()).toBe('first, then more');
    await page.unroute('**/dev/v1/rule/typed-after-save');
    await saved(page);
    expect((await call('/dev/v1/rule/typed-after-save')).body.data.description).toBe('first, then more');
  });

  it('deletes a rule only once it is confirmed', async () => {
    await createRule('console-doomed', 'simpleRule', { when: 'true', then: { ok: true } });
    await openRule(page, 'console-doomed');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alert').filter({ hasText: 'Delete console-doomed' });
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    expect((await call('/dev/v1/rule/console-doomed')).status).toBe(200);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.getByRole('button', { name: 'Delete for good' }).click();
    await page.waitForURL(/#\/rules$/);
    expect((await call('/dev/v1/rule/console-doomed')).status).toBe(404);
    expectNoPageProblems(page);
  });

  it('is readable on a phone width: the grid and the trace scroll inside their boxes, not the page', async () => {
    const phone = await t.signedIn({ width: 390, height: 844 });
    await openRule(phone, 'discount-tier');
    await phone.getByRole('grid', { name: /Decision table/ }).waitFor();
    expect(await horizontalOverflow(phone)).toBeLessThanOrEqual(0);
    await screenshot(phone, 'rules-phone-editor');
    await expectAccessible(phone, 'the decision-table editor on a phone');
    await tab(phone, 'Test');
    await phone.getByRole('button', { name: 'Run test' }).click();
    await phone.getByRole('table', { name: 'Trace of the decision table' }).waitFor();
    expect(await horizontalOverflow(phone)).toBeLessThanOrEqual(0);
    await screenshot(phone, 'rules-phone-trace');
    expectNoPageProblems(phone);
  });
});
