/**
 * Files in and out, in a real browser: the rules list's Import (a file
 * picked, the dry run's report, the import), the difference shown before a
 * draft is replaced, a rule downloaded as Excel that imports back unchanged,
 * and a DMN table exported here opened in bpmn-io's dmn-js viewer (the
 * decision-table editor Camunda's tools use), whose rendered rows and columns
 * are the table's. axe-core checks the import's report.
 */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { expectAccessible, expectNoPageProblems, ruleHelpers, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

const require = createRequire(import.meta.url);

/** A table of three inputs, two outputs and four rows, with an annotation: what dmn-js must show. */
const shippingTable = {
  hitPolicy: 'first',
  inputs: [
    { id: 'zone', label: 'Zone', expression: 'zone', type: 'string' },
    { id: 'weight', label: 'Weight', expression: 'weightKg', type: 'number' },
    { id: 'express', label: 'Express', expression: 'express', type: 'boolean' },
  ],
  outputs: [
    { id: 'fee', label: 'Fee', name: 'fee', type: 'number' },
    { id: 'carrier', label: 'Carrier', name: 'carrier', type: 'string' },
  ],
  rules: [
    { id: 'local-light', description: 'Most parcels', when: ['"domestic"', '<= 2', 'false'], then: [4.9, '"post"'] },
    { id: 'local-heavy', when: ['"domestic"', '> 2', 'false'], then: [8.9, '"post"'] },
    { id: 'express', when: ['-', '-', 'true'], then: [19.9, '"courier"'] },
    { id: 'abroad', when: ['"abroad"', '-', '-'], then: [24.5, '"courier"'] },
  ],
};

describe.skipIf(!!skipReason)('console import and export (Chromium)', { timeout: 30_000 }, () => {
  const t = useConsoleBrowser();
  const { call, createRule, openRule } = ruleHelpers(t);
  const exported = async (id: string, query: Record<string, string>) => {
    const answer = await api(t.runtime)(`/dev/v1/rule/${id}/export`, { query });
    expect(answer.status).toBe(200);
    return answer.body as unknown as Buffer;
  };

  beforeAll(async () => {
    await createRule('shipping-zones', 'decisionTable', shippingTable);
  });

  it('imports a file picked on the rules list: the dry run first, then the import', async () => {
    const page = await t.signedIn();
    const csv = (await exported('shipping-zones', { format: 'csv' })).toString('utf8').replace(/shipping-zones/g, 'shipping-imported');
    await page.goto(`${t.runtime.url}/console/#/rules`);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'shipping-imported.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const report = page.locator('.import-report');
    await expect.poll(() => report.textContent()).toContain('shipping-imported');
    expect(await report.textContent()).toContain('will be created');
    await expectAccessible(page, 'the import report');
    await screenshot(page, 'import-report');
    await page.getByRole('button', { name: 'Import 1 rule' }).click();
    await page.getByRole('status').filter({ hasText: 'Imported: shipping-imported (created)' }).waitFor();
    const stored = await call<{ definition: { rules: unknown[] } }>('/dev/v1/rule/shipping-imported');
    expect(stored.body.data.definition.rules).toHaveLength(4);
    expectNoPageProblems(page);
  });

  it('shows the difference before a draft is replaced, and replaces exactly it', async () => {
    const page = await t.signedIn();
    await createRule('shipping-edited', 'decisionTable', { ...shippingTable, hitPolicy: 'unique' });
    const csv = (await exported('shipping-zones', { format: 'csv' })).toString('utf8').replace(/shipping-zones/g, 'shipping-edited');
    await page.goto(`${t.runtime.url}/console/#/rules`);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'shipping-edited.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const diff = page.getByRole('table', { name: /The draft of shipping-edited beside the file's table/ });
    await diff.waitFor();
    expect(await diff.locator('.diff-removed').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('"unique"')]));
    expect(await diff.locator('.diff-added').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('"first"')]));
    await page.getByRole('button', { name: 'Import 1 rule' }).click();
    await page.getByRole('status').filter({ hasText: 'Imported: shipping-edited (replaced)' }).waitFor();
    expect((await call<{ definition: { hitPolicy: string } }>('/dev/v1/rule/shipping-edited')).body.data.definition.hitPolicy).toBe('first');
  });

  it('downloads a rule as Excel, which imports back as the same rule', async () => {
    const page = await t.signedIn();
    await openRule(page, 'shipping-zones');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('group', { name: 'Download as' }).getByRole('button', { name: 'Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('shipping-zones.xlsx');
    const bytes = await readFile((await download.path())!);
    const again = await api(t.runtime)<{ records: { id: string; action: string }[] }>('/dev/v1/rule/import', {
      method: 'POST',
      body: new Uint8Array(bytes),
      headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      query: { dryRun: 'true' },
    });
    expect(again.body.data.records).toEqual([expect.objectContaining({ id: 'shipping-zones', action: 'unchanged' })]);
    expectNoPageProblems(page);
  });

  it("opens an exported DMN table in dmn-js's viewer, with the table's columns and rows", async () => {
    const xml = (await exported('shipping-zones', { format: 'dmn', dmnVersion: '1.3' })).toString('utf8');
    const page = await t.page();
    await page.setContent('<!doctype html><html><body><div id="canvas" style="width: 1200px; height: 700px"></div></body></html>');
    for (const sheet of ['dmn-js-shared.css', 'dmn-js-decision-table.css', 'dmn-js-drd.css', 'diagram-js.css'])
      await page.addStyleTag({ path: require.resolve(`dmn-js/dist/assets/${sheet}`) });
    await page.addScriptTag({ path: require.resolve('dmn-js/dist/dmn-viewer.production.min.js') });
    const opened = await page.evaluate(async (text) => {
      type View = { type: string; element: { id: string } };
      const viewer = new (
        globalThis as unknown as {
          DmnJS: new (options: object) => { importXML(xml: string): Promise<{ warnings: unknown[] }>; getViews(): View[]; open(view: View): Promise<unknown> };
        }
      ).DmnJS({
        container: '#canvas',
      });
      const { warnings } = await viewer.importXML(text);
      const table = viewer.getViews().find((view) => view.type === 'decisionTable');
      if (table) await viewer.open(table);
      return { warnings: warnings.length, views: viewer.getViews().map((view) => view.type) };
    }, xml);
    expect(opened).toEqual({ warnings: 0, views: expect.arrayContaining(['drd', 'decisionTable']) });
    const head = page.locator('.tjs-table thead');
    expect(await head.locator('th.input-cell').count()).toBe(3);
    expect(await head.locator('th.output-cell').count()).toBe(2);
    const rows = page.locator('.tjs-table tbody tr');
    expect(await rows.count()).toBe(4);
    const firstRow = (await rows.first().locator('td').allTextContents()).map((text) => text.trim());
    expect(firstRow).toEqual(expect.arrayContaining(['"domestic"', '<= 2', 'false', '4.9', '"post"', 'Most parcels']));
    expect(await page.locator('.tjs-table').textContent()).toContain('Zone');
    await screenshot(page, 'dmn-js-viewer');
  });
});
