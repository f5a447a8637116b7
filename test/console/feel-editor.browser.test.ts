/**
 * FEEL edited as code, in a real browser: the editor fetched as a chunk when
 * the first FEEL field opens; completion of a rule's declared inputs and of
 * the engine's built-ins with their signatures, and of a workflow step's
 * inputs and earlier steps; a syntax error underlined where the save's own
 * check puts it, on one line and on the second; the page's policy refuses
 * nothing (CodeMirror's styles arrive as an adopted sheet, not a <style>
 * element) and every generated class the live editor wears has a rule; axe
 * passes with the list open; and, when the chunk cannot be had, the field is
 * a plain text box that still edits and saves.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageProblems, openWorkflow, ruleHelpers, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

const parameters = [
  { name: 'age', type: 'number' },
  { name: 'country', type: 'string' },
];

describe.skipIf(!!skipReason)('the FEEL editor (Chromium)', { timeout: 60_000 }, () => {
  const t = useConsoleBrowser();
  const { call, createRule, openRule, saved } = ruleHelpers(t);
  let page: Page;

  beforeAll(async () => {
    await createRule('feel-simple', 'simpleRule', { parameters, when: 'age >= 18', then: { eligible: true } });
    await createRule('feel-set', 'ruleSet', {
      parameters,
      strategy: 'allMatch',
      rules: [
        { id: 'base', when: 'true', then: [{ set: 'limit', value: 1000 }] },
        { id: 'raise', when: 'age > 30', then: [{ set: 'tier', value: '"gold"' }] },
      ],
    });
    page = await t.signedIn();
  });

  /** The editable element of the FEEL field named `label`: CodeMirror's content, once the editor is there. */
  const editorOf = (on: Page | Locator, label: string) => on.locator('.cm-content').and(on.getByRole('textbox', { name: label, exact: true }));
  const options = (on: Page) => on.locator('.cm-tooltip-autocomplete li[role="option"]');
  const option = (on: Page, label: string) => options(on).filter({ has: on.locator('.cm-completionLabel', { hasText: new RegExp(`^${label}$`) }) });
  /** Takes the selected completion. CodeMirror ignores Enter for 75 ms after the list appears (so that a list that pops up under fast typing is not taken by accident): a person's pause. */
  const pick = async (on: Page) => {
    await on.waitForTimeout(200);
    await on.keyboard.press('Enter');
  };
  const describedText = async (field: Locator) => {
    const ids = (await field.getAttribute('aria-describedby'))?.split(' ') ?? [];
    return (await Promise.all(ids.map((id) => field.page().locator(`[id="${id}"]`).textContent()))).join(' ');
  };
  /** Each underlined stretch: its text, and where it starts (line and column, as the check counts them). */
  const underlines = (field: Locator) =>
    field.evaluate((content) =>
      [...content.querySelectorAll('.cm-lintRange-error')].map((mark) => {
        const line = mark.closest('.cm-line')!;
        const before = document.createRange();
        before.setStart(line, 0);
        before.setEndBefore(mark);
        return { text: mark.textContent, line: [...content.querySelectorAll('.cm-line')].indexOf(line) + 1, column: before.toString().length + 1 };
      }),
    );

  it('offers the declared inputs, and the built-in functions with their signatures, as a condition is typed', async () => {
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    await openRule(page, 'feel-simple');
    const when = editorOf(page, 'When (a FEEL condition)');
    await when.waitFor();
    // The editor came as a chunk of its own, when the field opened.
    expect(fetched.some((path) => /\/console\/code-editor-\w+\.js$/.test(path))).toBe(true);
    expect(await when.textContent()).toBe('age >= 18');

    await when.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('ag');
    await option(page, 'age').waitFor();
    expect(await option(page, 'age').locator('.cm-completionDetail').textContent()).toBe('input: number');

    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('coun');
    await option(page, 'country').waitFor();
    await pick(page);
    await page.keyboard.type(' = "CH" and substr');
    const substring = option(page, 'substring');
    await substring.waitFor();
    expect(await substring.locator('.cm-completionDetail').textContent()).toBe('(string, start position, length?)');
    expect(await option(page, 'substring before').locator('.cm-completionDetail').textContent()).toBe('(string, match)');
    await checkStylesCover(page, 'the completion list');
    // The draft's check answers 300 ms after the last key and redraws the field's marks: axe reads the page once it has.
    await page.waitForTimeout(600);
    await expectAccessible(page, 'a FEEL field with its completion list open');
    await screenshot(page, 'feel-editor-completion');

    // Choosing it writes the call, its first parameter selected to be typed over.
    await pick(page);
    await page.keyboard.type('country');
    expect(await when.textContent()).toBe('country = "CH" and substring(country, start position)');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1');
    await page.keyboard.press('End');
    await page.keyboard.type(' = "C"');
    await saved(page);
    const rule = await call<{ definition: { when: string } }>('/dev/v1/rule/feel-simple');
    expect(rule.body.data.definition.when).toBe('country = "CH" and substring(country, 1) = "C"');
    expectNoPageProblems(page);
  });

  it('offers in a rule set the outputs of the entries before, matches brackets, and is left and reached by Tab', async () => {
    await openRule(page, 'feel-set');
    const when = editorOf(page, 'When of entry 2');
    await when.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' and lim');
    expect(await option(page, 'limit').locator('.cm-completionDetail').textContent()).toBe('output of entry base');
    await page.keyboard.press('Escape');
    await page.keyboard.type('it > (1 + 2');
    // The bracket typed is closed, and the pair is marked around the cursor.
    expect(await when.textContent()).toBe('age > 30 and limit > (1 + 2)');
    expect(await when.locator('.cm-matchingBracket').count()).toBe(2);
    expect(await editorOf(page, 'When of entry 1').count()).toBe(1);

    // Tab leaves the field, as from any text box, and Shift+Tab comes back to it.
    const focused = (field: Locator) => field.evaluate((element) => element === document.activeElement);
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(page.getByLabel('Output path 1 of entry 2', { exact: true }))).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focused(when)).toBe(true);

    // A range's ends are a pair whatever their kinds (`(14..30]` is whole); a bracket left open is marked as one.
    // The text is inserted whole, as a paste is, so that no bracket is closed for it.
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('age in (14..30]');
    await expect.poll(() => when.locator('.cm-matchingBracket').allTextContents()).toEqual(['(', ']']);
    expect(await when.locator('.cm-nonmatchingBracket').count()).toBe(0);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('(1 + 2 > age');
    await page.keyboard.press('Home');
    await expect.poll(() => when.locator('.cm-nonmatchingBracket').allTextContents()).toEqual(['(']);
    expect(await when.locator('.cm-matchingBracket').count()).toBe(0);
    expectNoPageProblems(page);
  });

  it('underlines a syntax error where the save reports it, on the first line and on the second', async () => {
    await openRule(page, 'feel-simple');
    const when = editorOf(page, 'When (a FEEL condition)');
    await when.fill('age > 18 ]');
    // The draft check, as the text is typed: the save's own.
    await expect.poll(() => describedText(when)).toContain('unexpected "]" at line 1, column 10');
    await expect.poll(() => underlines(when)).toEqual([{ text: ']', line: 1, column: 10 }]);
    expect(await when.getAttribute('aria-invalid')).toBe('true');
    await checkStylesCover(page, 'an underlined problem');

    // The save refuses it with the same place.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    expect(await describedText(when)).toContain('unexpected "]" at line 1, column 10');
    expect(await underlines(when)).toEqual([{ text: ']', line: 1, column: 10 }]);
    await screenshot(page, 'feel-editor-problem');

    await when.fill('age > 18 and\n  country = "CH" )');
    await expect.poll(() => describedText(when)).toContain('unexpected ")" at line 2, column 18');
    await expect.poll(() => underlines(when)).toEqual([{ text: ')', line: 2, column: 18 }]);

    // Fixed: no mark is left.
    await when.fill('age > 18 and\n  country = "CH"');
    await expect.poll(() => when.getAttribute('aria-invalid')).toBeNull();
    expect(await underlines(when)).toEqual([]);
    await expectAccessible(page, 'a FEEL field of several lines');
    expectNoPageProblems(page);
  });

  it("offers a workflow step the workflow's inputs and the steps run before it", async () => {
    await openWorkflow(page, 'checkout');
    await page.getByRole('button', { name: /^done end/ }).click();
    const output = editorOf(page.locator('#step-editor'), 'Output FEEL 1');
    await output.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('s');
    await option(page, 'shipping').waitFor();
    expect(await option(page, 'shipping').locator('.cm-completionDetail').textContent()).toBe('result of the rule step');
    const labels = await options(page).locator('.cm-completionLabel').allTextContents();
    expect(labels).toEqual(expect.arrayContaining(['shipping', 'substring', 'sum', 'sqrt']));
    await page.keyboard.press('Escape');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('o');
    expect(await option(page, 'order').locator('.cm-completionDetail').textContent()).toBe('input: context');
    expectNoPageProblems(page);
  });

  it('is a plain text box that edits and saves when the editor cannot be had', async () => {
    const plain = await t.signedIn();
    await plain.route('**/console/code-editor-*.js', (route) => route.abort('failed'));
    await openRule(plain, 'feel-simple');
    const when = plain.getByLabel('When (a FEEL condition)', { exact: true });
    expect(await when.evaluate((field) => field.tagName)).toBe('TEXTAREA');
    await when.fill('age >');
    await expect.poll(() => describedText(when)).toContain('the expression is incomplete at line 1, column 6');
    expect(await when.getAttribute('aria-invalid')).toBe('true');
    await when.fill('age > 21');
    await saved(plain);
    expect((await call<{ definition: { when: string } }>('/dev/v1/rule/feel-simple')).body.data.definition.when).toBe('age > 21');
    expect(await plain.locator('.cm-editor').count()).toBe(0);
  });
});

/**
 * Every class CodeMirror generated for the live editor (they start with "ͼ") has a rule in the page's
 * style sheets, the adopted one included: the styles arrived although the policy refuses <style> elements.
 * The completion list and the underline are styled by CodeMirror's rules, and the console's colours apply.
 */
async function checkStylesCover(page: Page, where: string) {
  const found = await page.evaluate(() => {
    const selectors: string[] = [];
    const collect = (rules: CSSRuleList) => {
      for (const rule of rules) {
        if (rule instanceof CSSStyleRule) selectors.push(rule.selectorText);
        if ('cssRules' in rule) collect((rule as CSSGroupingRule).cssRules);
      }
    };
    for (const sheet of [...document.styleSheets, ...document.adoptedStyleSheets]) collect(sheet.cssRules);
    const generated = new Set<string>();
    for (const editor of document.querySelectorAll('.cm-editor'))
      for (const element of [editor, ...editor.querySelectorAll('*')]) for (const name of element.classList) if (name.startsWith('ͼ')) generated.add(name);
    const styled = (name: string) => selectors.some((selector) => new RegExp(`\\.${name}(?![\\w-])`).test(selector));
    const list = document.querySelector('.cm-tooltip-autocomplete > ul');
    const underline = document.querySelector('.cm-lintRange-error');
    const probe = document.body.appendChild(document.createElement('span'));
    probe.style.color = 'var(--accent)';
    const accent = getComputedStyle(probe).color;
    probe.remove();
    return {
      accent,
      generated: [...generated],
      unstyled: [...generated].filter((name) => !styled(name)),
      styleElements: document.querySelectorAll('style').length,
      list: list && { listStyle: getComputedStyle(list).listStyleType, margin: getComputedStyle(list).marginTop },
      selected: list && getComputedStyle(list.querySelector('[aria-selected]')!).backgroundColor,
      underline: underline && getComputedStyle(underline).backgroundImage,
    };
  });
  expect(found.generated.length, where).toBeGreaterThan(0);
  expect(found.unstyled, where).toEqual([]);
  expect(found.styleElements, where).toBe(0);
  if (found.list) {
    expect(found.list, where).toEqual({ listStyle: 'none', margin: '0px' });
    // The console's accent (styles.css), not CodeMirror's own colour.
    expect(found.selected, where).toBe(found.accent);
  }
  if (found.underline) expect(found.underline, where).toMatch(/^url\("data:image\/svg\+xml/);
}
