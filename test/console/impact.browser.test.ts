/**
 * What a change will do, in a real browser: a fee table that records its
 * executions is published, executed and its draft raised; the Impact tab
 * replays the last week on the draft and shows the counts, the rows' and
 * fields' changes and a changed case, which opens in the test panel with its
 * params. The grid shows the published version's production matches (after
 * the counts are flushed) with dead and untested rows marked in words. The
 * rollout panel publishes the draft as a candidate, starts a shadow rollout,
 * shows what it compared, and promotes the candidate. axe-core checks each
 * panel.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageProblems, ruleHelpers, screenshot, skipReason, useConsoleBrowser } from './browser.ts';
import { flushTallies } from '../../lib/tallies/buffer.ts';

if (skipReason) console.warn(skipReason);

interface Row {
  id?: string;
  when: string[];
  then: number[];
}
const row = (id: string, when: string, fee: number): Row => ({ id, when: [when], then: [fee] });
/** A fee by amount; the draft the tests replay raises the middle row's fee. */
const fees = (rows: Row[], extra: object = {}) => ({
  hitPolicy: 'unique',
  inputs: [{ id: 'amount', expression: 'amount', type: 'number' }],
  outputs: [{ id: 'fee', name: 'fee', type: 'number' }],
  rules: rows,
  settings: { recordExecutions: true },
  ...extra,
});
const publishedRows = [row('small', '< 100', 1), row('mid', '[100..500)', 2.5), row('big', '>= 500', 5)];
const raisedRows = [publishedRows[0]!, row('mid', '[100..500)', 3), publishedRows[2]!];
const amounts = [50, 200, 300, 60];

describe.skipIf(!!skipReason)('console impact, coverage and rollout (Chromium)', { timeout: 40_000 }, () => {
  const t = useConsoleBrowser();
  let page: Page;

  beforeAll(async () => {
    page = await t.signedIn();
  });

  const { call, createRule, openRule, tab, fillCell } = ruleHelpers(t);
  const checksumOf = async (id: string) => (await call<{ checksum: string }>(`/dev/v1/rule/${id}`)).body.data.checksum;
  const publish = async (id: string, extra: object = {}) => {
    const answer = await call<{ version: string }>(`/dev/v1/rule/${id}/publish`, 'POST', { checksum: await checksumOf(id), ...extra });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.data.version;
  };
  const redraft = async (id: string, rows: Row[], extra: object = {}) => {
    const answer = await call(`/dev/v1/rule/${id}`, 'PATCH', { checksum: await checksumOf(id), definition: fees(rows, extra) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };
  const execute = async (id: string) => {
    for (const amount of amounts) expect((await call(`/dev/v1/rule/${id}/execute`, 'POST', { params: { amount } })).status).toBe(200);
  };

  it('replays the last week on the saved draft, shows what changes, and opens a changed case in the test panel', async () => {
    await createRule('impact-fees', 'decisionTable', fees(publishedRows));
    await publish('impact-fees');
    await execute('impact-fees');
    await redraft('impact-fees', raisedRows);

    await openRule(page, 'impact-fees');
    await tab(page, 'Impact');
    const panel = page.getByRole('tabpanel', { name: 'Impact' });
    expect(await panel.getByLabel('Window').inputValue()).toBe('7');
    await panel.getByRole('button', { name: 'Run replay' }).click();
    await panel.getByRole('status').filter({ hasText: 'Replayed 4 inputs: 2 would change.' }).waitFor({ timeout: 20_000 });

    const counts = panel.getByLabel('Replay counts');
    expect(await counts.textContent()).toBe('Inputs4Same output2Changed output2Newly failing0Newly succeeding0Failing on both0');
    const rows = panel.getByRole('table', { name: 'Answers per row, entry or branch' });
    expect(await rows.getByRole('row', { name: /row 2 \(mid\)/ }).textContent()).toBe('row 2 (mid)220');
    const fields = panel.getByRole('table', { name: 'Output fields that changed' });
    expect(await fields.getByRole('row', { name: /fee/ }).textContent()).toBe('fee2+0.5+0.5+0.5');

    const cases = panel.getByRole('listitem');
    expect(await cases.count()).toBe(2);
    const first = cases.first();
    expect(await first.getByLabel(/params/).textContent()).toContain('"amount": 200');
    expect(await first.textContent()).toContain('Matched: row 2');
    expect(await first.textContent()).toContain('2.5');
    await screenshot(page, 'impact-report');
    await expectAccessible(page, 'the impact report');

    await first.getByRole('button', { name: 'Open in test panel' }).click();
    expect(await page.getByRole('tab', { name: 'Test', exact: true }).getAttribute('aria-selected')).toBe('true');
    expect(JSON.parse(await page.getByLabel('Params (JSON)', { exact: true }).inputValue())).toEqual({ amount: 200 });
    await page.getByRole('button', { name: 'Run test' }).click();
    await expect.poll(() => page.locator('.test-result pre').first().textContent()).toContain('"fee": 3');

    // An unsaved edit is not replayed, and the panel says so.
    await tab(page, 'Definition');
    await fillCell(page, 3, 'fee', '6');
    await tab(page, 'Impact');
    await panel.getByText('You have unsaved changes: the replay runs the draft as last saved.').waitFor();
    expectNoPageProblems(page);
  });

  it('offers a replay of params typed as JSON to a rule never run, and says when one was never published', async () => {
    await createRule('impact-quiet', 'decisionTable', fees(publishedRows));
    await openRule(page, 'impact-quiet');
    await tab(page, 'Impact');
    const panel = page.getByRole('tabpanel', { name: 'Impact' });
    await panel.getByText('This rule was never published').waitFor();

    await publish('impact-quiet');
    await redraft('impact-quiet', raisedRows);
    await openRule(page, 'impact-quiet');
    await tab(page, 'Impact');
    await panel.getByRole('button', { name: 'Run replay' }).click();
    await panel.getByRole('status').filter({ hasText: 'No recorded executions in this window' }).waitFor({ timeout: 20_000 });

    await panel.getByLabel('Params typed as JSON').check();
    await panel.getByLabel('Params list (JSON)').fill('[{"amount": 10}, {"amount": 150}]');
    await panel.getByRole('button', { name: 'Run replay' }).click();
    await panel.getByRole('status').filter({ hasText: 'Replayed 2 inputs: 1 would change.' }).waitFor({ timeout: 20_000 });
    await expectAccessible(page, 'the impact panel with a params list');
    expectNoPageProblems(page);
  });

  it("shows each row's production matches on the grid, with dead and untested rows marked in words, and nothing for a new row", async () => {
    const tests = [{ name: 'a small fee', params: { amount: 50 }, expected: { fee: 1 } }];
    await createRule('coverage-fees', 'decisionTable', fees(publishedRows, { tests }));
    const version = await publish('coverage-fees');
    await execute('coverage-fees');
    await execute('coverage-fees');
    await flushTallies();
    // A row added to the draft, without an id, above the others: the published rows keep their counts by id.
    await redraft('coverage-fees', [{ when: ['< 0'], then: [0] }, ...publishedRows], { tests });

    await openRule(page, 'coverage-fees');
    const grid = page.getByRole('grid', { name: /Decision table/ });
    await grid.getByRole('columnheader', { name: `Production ${version}` }).waitFor();
    const cell = (r: number) => grid.locator('tbody tr').nth(r).locator('.coverage-cell');
    expect(await cell(0).textContent()).toBe('Row 1 is not in the published version');
    expect(await cell(1).textContent()).toBe('4 matches in production (most matches)');
    expect(await cell(2).textContent()).toBe('4 matches in production (most matches)untested');
    expect(await cell(3).textContent()).toBe('0 matches in production (no matches)never matcheduntested');
    expect(await cell(1).getAttribute('class')).toContain('heat-4');
    await page.getByText(`Production column: matches per row in 8 executions of ${version}`).waitFor();

    // More executions show after a refresh.
    expect((await call(`/dev/v1/rule/coverage-fees/execute`, 'POST', { params: { amount: 900 } })).status).toBe(200);
    await flushTallies();
    await page.getByRole('button', { name: 'Refresh coverage' }).click();
    await expect.poll(() => cell(3).textContent()).toBe('1 match in production (few matches)untested');
    await screenshot(page, 'coverage-heat');
    await expectAccessible(page, 'the grid with its coverage column');
    expectNoPageProblems(page);
  });

  it('publishes the draft as a candidate, starts a shadow rollout, shows what it compared, and promotes the candidate', async () => {
    await createRule('rollout-fees', 'decisionTable', fees(publishedRows));
    await publish('rollout-fees');
    await redraft('rollout-fees', raisedRows);

    await openRule(page, 'rollout-fees');
    await tab(page, 'Publish and versions');
    const panel = page.getByRole('region', { name: 'Candidate and rollout' });
    // Batches take no part in a rollout (lib/rules/execute.ts, executeBatch): the panel says so.
    await panel.getByText('A batch (paramsList) is always answered by the served version').waitFor();
    await panel.getByRole('button', { name: 'Publish as candidate' }).click();
    await panel.getByRole('status').filter({ hasText: 'Published as v2' }).waitFor();
    await panel.getByText('Candidate: v2').waitFor();
    expect(await panel.getByLabel('Mode').inputValue()).toBe('shadow');
    await panel.getByRole('button', { name: 'Start rollout' }).click();
    await panel.getByRole('status').filter({ hasText: 'Agreement rate: nothing compared yet' }).waitFor();

    // Executions get v1 and the candidate runs beside them: two of the four disagree.
    for (const amount of amounts) {
      const answer = await call<{ version: string }>('/dev/v1/rule/rollout-fees/execute', 'POST', { params: { amount } });
      expect(answer.body.data.version).toBe('v1');
    }
    await flushTallies();
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await panel.getByRole('status').filter({ hasText: 'Agreement rate: 50.00 %' }).waitFor();
    expect(await panel.getByLabel('Rollout counts').textContent()).toContain('Compared4Agree2Disagree2');
    const sample = panel.getByRole('table', { name: 'Newest disagreements' });
    expect(await sample.locator('tbody tr').first().textContent()).toContain('"fee":3');
    await screenshot(page, 'rollout-shadow');
    await expectAccessible(page, 'the rollout panel');

    // A canary set meanwhile (here through the API): after a reload the form starts from it, so that Change rollout cannot switch it to shadow unseen.
    const canary = { candidate: 'v2', mode: 'canary', percent: 10, stickyBy: 'customer.id' };
    expect((await call('/dev/v1/rule/rollout-fees/rollout', 'PUT', canary)).status).toBe(200);
    await page.reload();
    await tab(page, 'Publish and versions');
    await panel.getByText('Candidate: v2').waitFor();
    await expect.poll(() => panel.getByLabel('Mode').inputValue()).toBe('canary');
    expect(await panel.getByLabel('Percent of executions').inputValue()).toBe('10');
    expect(await panel.getByLabel('Sticky by (param path, such as customer.id)').inputValue()).toBe('customer.id');
    expect(await panel.getByRole('button', { name: 'Change rollout' }).count()).toBe(1);

    await panel.getByRole('button', { name: 'Promote v2' }).click();
    await panel.getByText('Serving now: v2').waitFor();
    expect(await panel.getByText('promoted', { exact: true }).count()).toBe(1);
    expect((await call<{ version: string }>('/dev/v1/rule/rollout-fees/execute', 'POST', { params: { amount: 200 } })).body.data.version).toBe('v2');
    expectNoPageProblems(page);
  });
});
