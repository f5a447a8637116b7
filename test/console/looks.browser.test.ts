/**
 * How the console looks, in a real browser: the same pages in the light and
 * the dark scheme the system asks for (axe-core's contrast checks in both),
 * a focus ring that stands out from what is around it, and the pages an
 * analyst opens on a phone (390 px) fitting its width: the rule's tabs, the
 * grid with its first column in view as the cells scroll under it, the
 * workflow's graph. The screenshots (looks-*) are the "after" ones.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible, expectNoPageProblems, openWorkflow, ruleHelpers, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

const phone = { width: 390, height: 844 };

/** WCAG's relative luminance and contrast ratio, of colours as the browser computes them (`rgb(…)` / `rgba(…)`). */
const contrastSource = `
  const channels = (colour) => colour.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = (colour) => {
    const [r, g, b] = channels(colour).map((c) => c / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const opaque = (colour) => !/^rgba\\(.*,\\s*0\\)$/.test(colour) && colour !== 'transparent';
  /** The colour an element is drawn on: its own background, else its nearest ancestor's. */
  const backgroundOf = (element) => {
    for (let at = element; at; at = at.parentElement) {
      const colour = getComputedStyle(at).backgroundColor;
      if (opaque(colour)) return colour;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  };
`;

interface Ring {
  element: string;
  style: string;
  width: number;
  /** Against what the ring is drawn on: the element's own fill when the ring is inside it, else what is behind the element. */
  contrast: number;
}

/** The focused element's ring as the style sheet draws it on :focus-visible. */
function focusRing(page: Page): Promise<Ring> {
  return page.evaluate(`(() => {
    ${contrastSource}
    const element = document.activeElement;
    const style = getComputedStyle(element);
    const inside = parseFloat(style.outlineOffset) < 0;
    return {
      element: element.tagName.toLowerCase() + (element.getAttribute('aria-label') ? ' ' + element.getAttribute('aria-label') : ' ' + element.textContent.trim().slice(0, 30)),
      style: element.matches(':focus-visible') ? style.outlineStyle : 'not :focus-visible',
      width: parseFloat(style.outlineWidth),
      contrast: contrast(style.outlineColor, backgroundOf(inside ? element : element.parentElement)),
    };
  })()`);
}

/** Tabs through the first controls of the page, each showing a ring of 2 px or more that contrasts 3:1 with what it is drawn on (WCAG 2.4.7, 1.4.11). */
async function expectFocusRings(page: Page, presses: number) {
  await page.locator('body').focus();
  for (let press = 0; press < presses; press++) {
    await page.keyboard.press('Tab');
    const ring = await focusRing(page);
    expect(ring.style, ring.element).not.toMatch(/none|not :focus-visible/);
    expect(ring.width, ring.element).toBeGreaterThanOrEqual(2);
    expect(ring.contrast, ring.element).toBeGreaterThanOrEqual(3);
  }
}

/** The body's background: what the scheme paints the page with, and its luminance (0 black, 1 white). */
const pageBackground = (page: Page) =>
  page.evaluate(`(() => {
    ${contrastSource}
    const colour = getComputedStyle(document.body).backgroundColor;
    return { colour, luminance: luminance(colour), opaque: opaque(colour) };
  })()`) as Promise<{ colour: string; luminance: number; opaque: boolean }>;

const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe.skipIf(!!skipReason)('console looks (Chromium)', () => {
  const t = useConsoleBrowser();
  const { call, openRule, tab } = ruleHelpers(t);

  // Production matches on every row but the last, unevenly, so that the coverage column shows its shades.
  beforeAll(async () => {
    const params = (membership: string, total: number, count: number) => Array.from({ length: count }, () => ({ customer: { membership }, order: { total } }));
    const paramsList = [...params('gold', 250, 24), ...params('gold', 50, 12), ...params('silver', 50, 4), ...params('bronze', 50, 1)];
    expect((await call('/dev/v1/rule/discount-tier/execute', 'POST', { paramsList })).status).toBe(200);
    // A draft that differs from the published version by one rate, for the versions' difference.
    const vat = (await call<{ checksum: string; definition: { rules: { then: unknown[] }[] } }>('/dev/v1/rule/tax-rate')).body.data;
    vat.definition.rules[1]!.then = [0.21];
    expect((await call('/dev/v1/rule/tax-rate', 'PATCH', { checksum: vat.checksum, definition: vat.definition })).status).toBe(200);
  });

  /** The rule's page, its coverage column shaded once the counts are in (they lag the executions by a few seconds). */
  const openShaded = async (page: Page) => {
    await openRule(page, 'discount-tier');
    await expect
      .poll(
        async () => {
          if ((await page.locator('.coverage-cell.heat-4').count()) > 0) return true;
          await page.getByRole('button', { name: 'Refresh coverage' }).click();
          return false;
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(true);
  };

  for (const colorScheme of ['light', 'dark'] as const) {
    const suffix = colorScheme === 'dark' ? '-dark' : '';
    it(`follows the system's ${colorScheme} scheme on the rules list, a decision table, a test's trace, two versions' difference and a workflow, accessible, with visible focus`, async () => {
      const page = await t.signedIn({ colorScheme });
      const background = await pageBackground(page);
      expect(background.opaque).toBe(true);
      if (colorScheme === 'dark') expect(background.luminance).toBeLessThan(0.05);
      else expect(background.luminance).toBeGreaterThan(0.9);

      await page.getByRole('table').first().waitFor();
      await expectFocusRings(page, 8);
      await screenshot(page, `looks-rules-list${suffix}`);
      await expectAccessible(page, `the rules list (${colorScheme})`);

      await openShaded(page);
      // A tab, and a ring drawn inside it, on the selected tab's fill too.
      await page.getByRole('tab', { name: 'Definition', exact: true }).focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowLeft');
      for (const name of ['Definition', 'Test']) {
        await page.getByRole('tab', { name, exact: true }).focus();
        const ring = await focusRing(page);
        expect(ring.style, ring.element).not.toMatch(/none|not :focus-visible/);
        expect(ring.contrast, ring.element).toBeGreaterThanOrEqual(3);
      }
      await page.locator('main').focus();
      await screenshot(page, `looks-decision-table${suffix}`);
      await expectAccessible(page, `a decision table with its coverage (${colorScheme})`);

      await openRule(page, 'loan-eligibility');
      await tab(page, 'Test');
      await page.getByLabel('Params (JSON)').fill('{"applicant": {"age": 30, "creditScore": 500}}');
      await page.getByRole('button', { name: 'Run test' }).click();
      await page.getByRole('table', { name: 'Trace of the decision table' }).locator('td.failed-cell').first().waitFor();
      await screenshot(page, `looks-test-trace${suffix}`);
      await expectAccessible(page, `a test's trace (${colorScheme})`);

      await openRule(page, 'tax-rate');
      await tab(page, 'Publish and versions');
      await page.getByLabel('Compare', { exact: true }).selectOption('v1');
      await page.getByLabel('With', { exact: true }).selectOption('draft');
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      await page.locator('table.diff td.diff-added').first().waitFor();
      await screenshot(page, `looks-version-diff${suffix}`);
      await expectAccessible(page, `the difference between two versions (${colorScheme})`);

      await openWorkflow(page, 'payment-review');
      // A run of the published version, so that the graph and the run's steps show their statuses.
      const run = page.getByRole('region', { name: 'Run' });
      await run.getByLabel('Params (JSON)').fill(JSON.stringify({ payment: { amount: 1500 }, card: {}, ip: {}, customer: {} }));
      await run.getByLabel('The published version (execute)').check();
      await run.getByRole('button', { name: 'Run workflow' }).click();
      await run.getByRole('table', { name: 'Steps of the run' }).waitFor({ timeout: 20_000 });
      const decide = page.getByRole('button', { name: /^decide branch/ });
      await decide.click();
      await page.getByRole('heading', { name: /Step decide/ }).waitFor();
      // A node of the graph, a widget of its own, reached by the keyboard: its ring is its outline drawn thick and dashed.
      await decide.focus();
      await page.keyboard.press('Shift+Tab');
      const node = (await page.evaluate(`(() => {
        ${contrastSource}
        const rect = document.activeElement.querySelector('rect');
        const style = getComputedStyle(rect);
        return { step: document.activeElement.getAttribute('data-step'), width: parseFloat(style.strokeWidth), dashes: style.strokeDasharray, contrast: contrast(style.stroke, style.fill) };
      })()`)) as { step: string; width: number; dashes: string; contrast: number };
      expect(node.step).toBe('score');
      expect(node.width).toBeGreaterThanOrEqual(3);
      expect(node.dashes).not.toBe('none');
      expect(node.contrast).toBeGreaterThanOrEqual(3);
      await page.locator('main').focus();
      await screenshot(page, `looks-workflow${suffix}`);
      await expectAccessible(page, `a workflow, a branch selected (${colorScheme})`);
      expectNoPageProblems(page);
    }, 120_000);
  }

  it('keeps the other sections and the sign-in page accessible in the dark scheme', async () => {
    const page = await t.signedIn({ colorScheme: 'dark' });
    for (const section of ['Workflows', 'Authorization', 'Remote', 'Keys', 'Audit']) {
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: section, exact: true }).click();
      await page
        .getByRole('heading', { level: 1 })
        .filter({ hasText: section === 'Keys' ? /key/i : section })
        .first()
        .waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, `${section} (dark)`);
    }
    const signIn = await t.page({ colorScheme: 'dark' });
    await signIn.goto(`${t.runtime.url}/console/`);
    await signIn.getByRole('heading', { level: 1 }).waitFor();
    await expectAccessible(signIn, 'the sign-in page (dark)');
    expectNoPageProblems(page);
  }, 120_000);

  it("fits a phone's width: the rule's tabs scroll within their bar, the grid within its box under its first column, and the workflow's graph fits", async () => {
    const page = await t.signedIn(phone);
    await openShaded(page);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(phone.width);
    const tablist = page.getByRole('tablist', { name: 'Rule sections' });
    const bar = await tablist.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return { left: box.left, right: box.right, overflowX: getComputedStyle(element).overflowX, fits: element.scrollWidth <= element.clientWidth };
    });
    expect(bar.left).toBeGreaterThanOrEqual(0);
    expect(bar.right).toBeLessThanOrEqual(phone.width);
    // Either every tab shows, or the bar scrolls them within itself.
    expect(bar.fits || bar.overflowX === 'auto' || bar.overflowX === 'scroll').toBe(true);
    await screenshot(page, 'looks-phone-rule-tabs');
    // The last tab, scrolled to within the bar, is on screen and opens its panel.
    const last = page.getByRole('tab').last();
    await tablist.evaluate((element) => (element.scrollLeft = element.scrollWidth));
    const lastBox = (await last.boundingBox())!;
    expect(lastBox.x + lastBox.width).toBeLessThanOrEqual(bar.right + 1);
    await last.click();
    expect(await last.getAttribute('aria-selected')).toBe('true');
    expect(await pageOverflow(page)).toBeLessThanOrEqual(phone.width);

    await tab(page, 'Definition');
    const grid = page.locator('.scroll:has(th.row-head)').first();
    await grid.locator('tbody th.row-head').first().waitFor();
    const sticky = await grid.evaluate((box) => {
      const head = box.querySelector('tbody th.row-head')!;
      const before = head.getBoundingClientRect().left - box.getBoundingClientRect().left;
      box.scrollLeft = 240;
      return {
        position: getComputedStyle(head).position,
        scrolled: box.scrollLeft,
        before,
        after: head.getBoundingClientRect().left - box.getBoundingClientRect().left,
      };
    });
    expect(sticky.position).toBe('sticky');
    expect(sticky.scrolled).toBeGreaterThan(0);
    expect(Math.abs(sticky.after - sticky.before)).toBeLessThanOrEqual(1);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(phone.width);
    await grid.scrollIntoViewIfNeeded();
    await screenshot(page, 'looks-phone-grid');
    await expectAccessible(page, 'a decision table on a phone, scrolled sideways');

    await openWorkflow(page, 'payment-review');
    await page.getByRole('button', { name: /^decide branch/ }).click();
    await page.getByRole('heading', { name: /Step decide/ }).waitFor();
    const frame = await page.locator('.graph-frame').evaluate((element) => ({
      fits: element.scrollWidth <= element.clientWidth,
      right: element.getBoundingClientRect().right,
      text:
        parseFloat(getComputedStyle(element.querySelector('.node-id')!).fontSize) *
        (element.querySelector('svg')!.getBoundingClientRect().width / element.querySelector('svg')!.viewBox.baseVal.width),
    }));
    // The whole graph in view, its step names still at a readable size.
    expect(frame.fits).toBe(true);
    expect(frame.right).toBeLessThanOrEqual(phone.width);
    expect(frame.text).toBeGreaterThanOrEqual(11);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(phone.width);
    await screenshot(page, 'looks-phone-workflow');
    await expectAccessible(page, 'a workflow on a phone');
    expectNoPageProblems(page);
  }, 120_000);
});
