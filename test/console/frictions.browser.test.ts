/**
 * The frictions a new user met on the rule page's Publish tab and around it
 * (issue 24), in a real browser: Publish waits, saying why, while the saved
 * draft is the latest version; no publish answer or comparison stays on
 * screen about a draft saved over since; the comparison starts from the draft
 * against the latest version, or the two latest; "By" names the key's owner
 * or label; test-case results survive a save that leaves the case and the
 * logic alone; a rule without a schedule asks nothing that answers 404; and a
 * reused sign-in link shows the server's answer. Edits to the logic go
 * through the API, so that these tests do not depend on the grid's editor.
 */
import type { Page, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { expectAccessible, expectNoPageProblems, ruleHelpers, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

interface RuleBody {
  checksum: string;
  definition: { tests: unknown[] };
}

const tiers = (gold: number, tests?: unknown[]) => ({
  hitPolicy: 'first',
  inputs: [{ id: 'amount', expression: 'amount', type: 'number' }],
  outputs: [{ id: 'tier', name: 'tier', type: 'string' }],
  rules: [
    { when: [`>= ${gold}`], then: ['"gold"'] },
    { when: [`< ${gold}`], then: ['"basic"'] },
  ],
  ...(tests && { tests }),
});

/** Two saved cases of `tiers(100)`: a big order, gold, and a small one expecting `smallTier` (it gets basic). */
const orders = (smallTier: string) => [
  { name: 'big order', params: { amount: 150 }, expected: { tier: 'gold' } },
  { name: 'small order', params: { amount: 10 }, expected: { tier: smallTier } },
];

describe.skipIf(!!skipReason)('console frictions (Chromium)', { timeout: 30_000 }, () => {
  const t = useConsoleBrowser();
  let page: Page;

  beforeAll(async () => {
    page = await t.signedIn();
  });

  const { call, createRule, openRule, tab, saved } = ruleHelpers(t);
  /** Changes the saved draft's logic through the API, as another tab would. */
  const redraft = async (id: string, definition: unknown) => {
    const { checksum } = (await call<RuleBody>(`/dev/v1/rule/${id}`)).body.data;
    expect((await call(`/dev/v1/rule/${id}`, 'PATCH', { checksum, definition })).status).toBe(200);
  };
  const publishButton = (on: Page) => on.getByRole('button', { name: 'Publish draft' });
  const publishPanel = (on: Page) => on.getByRole('region', { name: 'Publish', exact: true });
  const versionsPanel = (on: Page) => on.getByRole('region', { name: 'Versions', exact: true });
  /** The text of the notes a control's aria-describedby names. */
  const describedText = async (on: Page, control: ReturnType<Page['getByRole']>) => {
    const ids = (await control.getAttribute('aria-describedby'))?.split(' ') ?? [];
    return (await Promise.all(ids.map((id) => on.locator(`[id="${id}"]`).textContent()))).join(' ');
  };
  const editDescription = async (on: Page, text: string) => {
    await tab(on, 'Definition');
    await on.getByLabel('Description', { exact: true }).fill(text);
    await saved(on);
  };

  it('holds Publish while the saved draft is the latest version, saying why to a screen reader too, and lets it go once the draft changes', async () => {
    await createRule('friction-publish', 'decisionTable', tiers(100));
    expect((await call('/dev/v1/rule/friction-publish/publish', 'POST', {})).status).toBe(201);
    await openRule(page, 'friction-publish');
    await tab(page, 'Publish and versions');
    const button = publishButton(page);
    expect(await button.isDisabled()).toBe(true);
    expect(await describedText(page, button)).toContain('Nothing new to publish: the saved draft is the latest version, v1.');
    expect(await publishPanel(page).getByText('Nothing new to publish').isVisible()).toBe(true);
    // As a candidate too: the rollout panel's button waits for the same reason.
    const candidate = page.getByRole('button', { name: 'Publish as candidate' });
    expect(await candidate.isDisabled()).toBe(true);
    expect(await describedText(page, candidate)).toContain('the latest version, v1');
    await screenshot(page, 'frictions-publish-held');
    await expectAccessible(page, 'the publish tab with Publish held');

    await editDescription(page, 'A second version');
    await tab(page, 'Publish and versions');
    await expect.poll(() => button.isDisabled()).toBe(false);
    expect(await button.getAttribute('aria-describedby')).toBeNull();
    await button.click();
    await publishPanel(page).getByRole('status').filter({ hasText: 'Published as v2' }).waitFor();
    await expect.poll(() => button.isDisabled()).toBe(true);
    expect(await describedText(page, button)).toContain('the latest version, v2.');
    expectNoPageProblems(page);
  });

  it('leaves no publish answer nor comparison on screen about a draft saved over since', async () => {
    await createRule('friction-banners', 'decisionTable', tiers(100, orders('silver')));
    await openRule(page, 'friction-banners');
    await tab(page, 'Publish and versions');
    await publishButton(page).click();
    const refused = publishPanel(page).getByRole('alert').filter({ hasText: 'Not published' });
    await refused.waitFor();
    expect(await publishPanel(page).getByRole('table', { name: 'Failing cases' }).count()).toBe(1);

    await tab(page, 'Test cases');
    await page.getByRole('button', { name: 'Edit case small order' }).click();
    await page.getByLabel('Expected output (JSON)').fill('{"tier": "basic"}');
    await page.getByRole('button', { name: 'Apply case' }).click();
    await saved(page);
    await tab(page, 'Publish and versions');
    await expect.poll(() => refused.count()).toBe(0);
    expect(await publishPanel(page).getByRole('table', { name: 'Failing cases' }).count()).toBe(0);

    await publishButton(page).click();
    const published = publishPanel(page).getByRole('status').filter({ hasText: 'Published as v1' });
    await published.waitFor();
    await versionsPanel(page).getByRole('button', { name: 'Compare', exact: true }).click();
    const compared = versionsPanel(page).getByRole('status').filter({ hasText: 'have the same definition' });
    await compared.waitFor();

    await editDescription(page, 'Edited after v1');
    await tab(page, 'Publish and versions');
    await expect.poll(() => published.count()).toBe(0);
    expect(await compared.count()).toBe(0);
    await screenshot(page, 'frictions-no-stale-banner');
    expectNoPageProblems(page);
  });

  it('compares the saved draft with the latest version first, and the two latest once the draft is the latest', async () => {
    await createRule('friction-compare', 'decisionTable', tiers(100));
    expect((await call('/dev/v1/rule/friction-compare/publish', 'POST', {})).status).toBe(201);
    await redraft('friction-compare', tiers(200));
    await openRule(page, 'friction-compare');
    await tab(page, 'Publish and versions');
    const left = page.getByLabel('Compare', { exact: true });
    const right = page.getByLabel('With', { exact: true });
    expect([await left.inputValue(), await right.inputValue()]).toEqual(['v1', 'draft']);
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await versionsPanel(page).getByRole('status').filter({ hasText: '2 lines differ between v1 and the saved draft' }).waitFor();

    await publishButton(page).click();
    await publishPanel(page).getByRole('status').filter({ hasText: 'Published as v2' }).waitFor();
    await expect.poll(async () => [await left.inputValue(), await right.inputValue()]).toEqual(['v1', 'v2']);
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await versionsPanel(page).getByRole('status').filter({ hasText: '2 lines differ between v1 and v2' }).waitFor();
    await screenshot(page, 'frictions-compare-default');
    expectNoPageProblems(page);
  });

  it("names who published each version by the key's owner, else its label", async () => {
    const made = await api(t.runtime)<{ key: string }>('/dev/v1/keys', {
      method: 'POST',
      body: JSON.stringify({ label: 'pat laptop', owner: 'pat@example.com', role: 'publisher' }),
    });
    expect(made.status).toBe(201);
    await createRule('friction-by', 'decisionTable', tiers(100));
    // v1 by the demo key (a label, no owner), v2 by Pat's.
    expect((await call('/dev/v1/rule/friction-by/publish', 'POST', {})).status).toBe(201);
    await redraft('friction-by', tiers(300));
    expect((await api(t.runtime)('/dev/v1/rule/friction-by/publish', { method: 'POST', body: '{}', key: made.body.data.key })).status).toBe(201);

    await openRule(page, 'friction-by');
    await tab(page, 'Publish and versions');
    const by = (version: string) =>
      versionsPanel(page)
        .getByRole('row', { name: new RegExp(`^${version} `) })
        .locator('td')
        .nth(1);
    expect(await by('v1').textContent()).toBe('demo');
    expect(await by('v2').textContent()).toBe('pat@example.com');
    expect(await versionsPanel(page).textContent()).not.toContain('key:');
    await screenshot(page, 'frictions-published-by');
    expectNoPageProblems(page);
  });

  it('keeps test-case results across a save that changes neither the case nor the logic, and drops them when the logic changes', async () => {
    await createRule('friction-cases', 'decisionTable', tiers(100, orders('basic')));
    await openRule(page, 'friction-cases');
    await tab(page, 'Test cases');
    await page.getByRole('button', { name: 'Run all cases' }).click();
    await page.getByRole('status').filter({ hasText: '2 of 2 cases passed.' }).waitFor();

    await editDescription(page, 'Only the description changes');
    await tab(page, 'Test cases');
    const cases = page.getByRole('table', { name: 'Saved test cases' });
    expect(await page.getByRole('status').filter({ hasText: '2 of 2 cases passed.' }).count()).toBe(1);
    expect(await cases.getByText('passed', { exact: true }).count()).toBe(2);
    expect(await cases.getByText('not run', { exact: true }).count()).toBe(0);

    // A case added and saved: the others keep their results, the new one is not run.
    await page.getByRole('button', { name: 'Add case' }).click();
    await page.getByLabel('Case name').fill('edge');
    await page.getByLabel('Case params (JSON)').fill('{"amount": 100}');
    await page.getByLabel('Expected output (JSON)').fill('{"tier": "gold"}');
    await page.getByRole('button', { name: 'Apply case' }).click();
    await saved(page);
    await tab(page, 'Test cases');
    expect(await cases.getByText('passed', { exact: true }).count()).toBe(2);
    expect(
      await cases
        .getByRole('row', { name: /^edge / })
        .getByText('not run', { exact: true })
        .count(),
    ).toBe(1);
    await screenshot(page, 'frictions-cases-kept');

    await redraft('friction-cases', {
      ...tiers(120),
      tests: (await call<RuleBody>('/dev/v1/rule/friction-cases')).body.data.definition.tests,
    });
    await page.getByRole('button', { name: 'Reload', exact: true }).click();
    await expect.poll(() => cases.getByText('not run', { exact: true }).count()).toBe(3);
    expect(await page.getByRole('status').filter({ hasText: 'cases passed' }).count()).toBe(0);
    expectNoPageProblems(page);
  });

  it('asks nothing that answers 404 and logs no error when a rule without a schedule is opened and its schedule shown', async () => {
    await createRule('friction-no-schedule', 'simpleRule', { when: 'amount > 10', then: { big: true }, otherwise: { big: false } });
    const fresh = await t.signedIn();
    const notFound: string[] = [];
    const errors: string[] = [];
    fresh.on('response', (response: Response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    fresh.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await openRule(fresh, 'friction-no-schedule');
    for (const name of ['Test', 'Test cases', 'Impact', 'Publish and versions', 'Schedule and executions']) await tab(fresh, name);
    await fresh.getByText('No schedule: the rule runs only when it is called.').waitFor();
    await fresh.getByText('No recorded executions.').waitFor();
    // The panels' reads have all answered: the page waits on none.
    await fresh.waitForLoadState('networkidle');
    expect(notFound).toEqual([]);
    expect(errors).toEqual([]);

    // A rule with a schedule still shows it with its next runs.
    expect((await call('/dev/v1/rule/friction-no-schedule/publish', 'POST', {})).status).toBe(201);
    expect((await call('/dev/v1/rule/friction-no-schedule/schedule', 'POST', { unit: 'hour', inputParam: { amount: 50 } })).status).toBe(200);
    await openRule(fresh, 'friction-no-schedule');
    await tab(fresh, 'Schedule and executions');
    expect(await fresh.locator('ol.next-runs li').count()).toBeGreaterThan(0);
    expect(notFound).toEqual([]);
    expectNoPageProblems(fresh);
  });

  it("shows a reused sign-in link's refusal as the server answered it", async () => {
    const link = t.runtime.consoleSignInLink();
    const first = await t.page();
    await first.goto(link);
    await first.getByRole('navigation', { name: 'Sections' }).waitFor();

    const again = await t.page();
    await again.goto(link);
    const alert = again.getByRole('alert');
    await alert.waitFor();
    const text = await alert.textContent();
    expect(text).toContain('has been used or has expired');
    expect(text).toContain('HTTP 403 · sign_in_link_used');
    expect(text).not.toContain('No answer');
    await screenshot(again, 'frictions-sign-in-reused-link');
    await expectAccessible(again, 'the sign-in page after a reused link');
  });
});
