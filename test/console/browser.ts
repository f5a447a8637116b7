/**
 * A real headless Chromium against the local runtime, for the console's
 * end-to-end tests. It uses the Chromium the machine has (Debian's package,
 * which .ci/run installs when absent; CHROMIUM_PATH points elsewhere), driven
 * by playwright-core, which downloads no browser.
 *
 * Network safety: the browser resolves no name but loopback's and every
 * request to another host is aborted before it leaves, so a page that goes
 * wrong cannot send a packet off this machine.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { api } from '../helpers/api.ts';
import { startQuietRuntime, type Runtime } from '../helpers/runtime.ts';
import type { LocalRuntimeOptions } from '../../lib/local/runtime.ts';

/** The Chromium to drive (CHROMIUM_PATH when set, else Debian's), or undefined: the browser tests then skip and say so. */
export const chromiumPath = (process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : ['/usr/bin/chromium', '/usr/bin/chromium-browser']).find((path) =>
  existsSync(path),
);

export const skipReason = chromiumPath
  ? undefined
  : `console browser tests SKIPPED: no Chromium at ${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'} (set CHROMIUM_PATH, or apt-get install chromium; .ci/run installs it)`;

/** The flags the machine's notes give for a headless Chromium that stays off the network. */
const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

const screenshots = new URL('./screenshots/', import.meta.url);
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The page's size, and the colour scheme the system asks for (light unless said). */
export interface PageOptions {
  width?: number;
  height?: number;
  colorScheme?: 'light' | 'dark';
}

export interface ConsoleFixture {
  runtime: Runtime;
  browser: Browser;
  /** A fresh browser context (its own session storage) and page, signed in to the demo workspace by the banner's one-time link. */
  signedIn(options?: PageOptions): Promise<Page>;
  /** A fresh page, not signed in. */
  page(options?: PageOptions): Promise<Page>;
}

const isLoopback = (url: string) => {
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return url.startsWith('data:') || url.startsWith('about:');
  }
};

/** Everything the page reported that a person would not see: script errors and refused policies fail the test that ends with them. */
export const pageProblems = new WeakMap<Page, string[]>();

/** `runtime`: options of the runtime the pages talk to (the sign-in tests start the local OpenID provider). */
export function useConsoleBrowser(runtime: LocalRuntimeOptions = {}): ConsoleFixture {
  // A page's flow waits on the browser and the runtime together: vitest's defaults (5 s a test, 1 s a poll) are short when the machine is loaded
  // (a save's answer took over 1 s while the other worker ran); 5 s a poll is what vitest's own browser mode gives.
  vi.setConfig({ testTimeout: 30_000, expect: { poll: { timeout: 5_000 } } });
  const fixture = {} as ConsoleFixture;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    fixture.runtime = await startQuietRuntime({ port: 0, gitPort: 0, providerPort: 0, ...runtime });
    fixture.browser = await chromium.launch({ executablePath: chromiumPath!, args: chromiumFlags, timeout: 30_000 });
    const open = async (options: PageOptions = {}) => {
      const context = await fixture.browser.newContext({
        viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
        colorScheme: options.colorScheme ?? 'light',
      });
      contexts.push(context);
      await context.route('**/*', (route) => (isLoopback(route.request().url()) ? route.continue() : route.abort('blockedbyclient')));
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const problems: string[] = [];
      pageProblems.set(page, problems);
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(`policy: ${message.text()}`);
      });
      return page;
    };
    fixture.page = open;
    fixture.signedIn = async (options) => {
      const page = await open(options);
      await page.goto(fixture.runtime.consoleSignInLink());
      await page.getByRole('navigation', { name: 'Sections' }).waitFor();
      return page;
    };
  }, 60_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await fixture.browser?.close();
    await fixture.runtime?.close();
  });
  return fixture;
}

/** Saves what the page shows under test/console/screenshots/ (ignored by git) for a person to look at. */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: new URL(`${name}.png`, screenshots).pathname, fullPage: true });
}

/** axe-core in the page: no serious or critical violation of WCAG 2.1 A/AA. */
export async function expectAccessible(page: Page, where: string) {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, `axe-core on ${where}`).toEqual([]);
}

/** No script error and no refused policy on the page so far. */
export function expectNoPageProblems(page: Page) {
  expect(pageProblems.get(page) ?? []).toEqual([]);
}

/** What the rule pages' tests do beside the page: the API as the demo workspace, and the page's own moves. */
export function ruleHelpers(t: ConsoleFixture) {
  /** A call with a JSON body, to prepare what a page shows or check what it saved. */
  const call = <D>(path: string, method = 'GET', body?: unknown) =>
    api(t.runtime)<D>(path, { method, ...(body !== undefined && { body: JSON.stringify(body) }) });
  return {
    call,
    /** A rule made through the API for one test, so that tests do not depend on each other's edits. */
    createRule: async (id: string, type: string, definition: unknown) => {
      expect((await call('/dev/v1/rule', 'POST', { id, name: id, type, definition })).status).toBe(201);
    },
    /**
     * The rule's page, freshly loaded (nothing left from the last test): the page left goes as a tab closed does
     * (unsaved edits ask within the console, not when the document goes), and the session stays with the tab.
     */
    openRule: async (on: Page, id: string) => {
      await on.goto('about:blank');
      await on.goto(`${t.runtime.url}/console/#/rules/${id}`);
      await on.getByRole('tablist', { name: 'Rule sections' }).waitFor();
    },
    tab: (on: Page, name: string) => on.getByRole('tab', { name, exact: true }).click(),
    /** A decision-table grid cell by its row number (from 1, as the grid numbers rows) and its column's name, when no filter or grouping is on. */
    gridCell: async (on: Page, row: number, column: string) => {
      const names = await on.locator('table.table-grid thead th .column-name').allTextContents();
      expect(names, `a column named ${column}`).toContain(column);
      return on.locator(`table.table-grid tbody tr.grid-row[aria-rowindex="${row + 1}"] td`).nth(names.indexOf(column));
    },
    /** Types a cell's new text as a person does: the cell selected, its text typed over it (Delete empties it), Enter to keep it. */
    fillCell: async (on: Page, row: number, column: string, text: string) => {
      const names = await on.locator('table.table-grid thead th .column-name').allTextContents();
      await on
        .locator(`table.table-grid tbody tr.grid-row[aria-rowindex="${row + 1}"] td`)
        .nth(names.indexOf(column))
        .click();
      if (text === '') await on.keyboard.press('Delete');
      else {
        await on.keyboard.press('F2');
        // A FEEL cell opens in the code editor once its chunk is here: typed only then, so that no key falls between the plain box and the editor.
        if (column !== 'Description') await on.locator('.cell-editor .cm-content').waitFor();
        await on.keyboard.press('ControlOrMeta+a');
        await on.keyboard.insertText(text);
        // A completion list the text opened takes Enter for itself: closed first, so that Enter keeps the text as typed.
        if (await on.locator('.cm-tooltip-autocomplete').isVisible()) await on.keyboard.press('Escape');
        await on.keyboard.press('Enter');
      }
    },
    /** Saves, and waits for the read that follows a save: edits made before it ends would be reset. */
    saved: async (on: Page) => {
      await on.getByRole('button', { name: 'Save', exact: true }).click();
      await on.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await expect.poll(() => on.getByText('unsaved changes', { exact: true }).count()).toBe(0);
    },
  };
}

/** The workflow's page, opened from the one already signed in. */
export async function openWorkflow(page: Page, id: string) {
  // Through a blank page, as a rule is opened: a page a test left with unsaved edits would otherwise ask, and stay.
  const url = new URL(page.url());
  await page.goto('about:blank');
  await page.goto(`${url.origin}${url.pathname}#/workflows/${id}`);
  await page.locator('svg.step-graph').waitFor();
}

/** Saves the workflow's draft and waits until the page says so. */
export async function saveDraft(page: Page) {
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
}
