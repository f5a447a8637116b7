/**
 * The console's style sheets name the design tokens instead of writing
 * colours and sizes: the tokens (lib/console/web/styles.css, `:root` and its
 * dark twin) are the one place a colour, a text size, a space or a radius is
 * written, so that pages stay consistent and the dark scheme covers them all.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const web = new URL('../../lib/console/web/', import.meta.url);

/** Every file under the console's sources whose name ends so, by its path under web/. */
function filesEnding(suffixes: string[], folder = web, prefix = ''): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesEnding(suffixes, new URL(`${entry.name}/`, folder), `${prefix}${entry.name}/`)
      : suffixes.some((suffix) => entry.name.endsWith(suffix))
        ? [`${prefix}${entry.name}`]
        : [],
  );
}

interface Declaration {
  file: string;
  /** The selectors and at-rules it sits in, outermost first. */
  within: string[];
  property: string;
  value: string;
}

/** The declarations of a style sheet with where they sit: enough of CSS for these files (no strings holding braces or semicolons). */
function declarations(file: string): Declaration[] {
  const css = readFileSync(new URL(file, web), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const found: Declaration[] = [];
  const within: string[] = [];
  let text = '';
  for (const char of css) {
    if (char === '{') {
      within.push(text.trim().replace(/\s+/g, ' '));
      text = '';
    } else if (char === ';' || char === '}') {
      const colon = text.indexOf(':');
      if (colon > 0 && text.trim()) found.push({ file, within: [...within], property: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() });
      text = '';
      if (char === '}') within.pop();
    } else text += char;
  }
  return found;
}

const sheets = filesEnding(['.css']);
const all = sheets.flatMap(declarations);
/** The token blocks: the light values, and the dark scheme's. */
const isTokens = (d: Declaration) => d.file === 'styles.css' && d.within.at(-1) === ':root';
const lightTokens = all.filter((d) => isTokens(d) && d.within.length === 1);
const darkTokens = all.filter((d) => isTokens(d) && d.within[0] === '@media (prefers-color-scheme: dark)');
const where = (d: Declaration) => `${d.file}: ${d.within.join(' ')} { ${d.property}: ${d.value} }`;

const colour =
  /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(|\b(?:white|black|red|green|blue|yellow|orange|gray|grey|silver|navy|purple)\b/i;
/** A length written as a number with a unit (0 needs none, and percentages and the viewport's units are proportions, not sizes). */
const literalLength = /(?<![\w-])\d*\.?\d+(?:px|rem|em|pt|ch|ex)\b/;
const sized = /^(?:font-size|font|padding.*|margin.*|gap|row-gap|column-gap|border-radius|border-.*-radius|outline-offset|outline-width|letter-spacing)$/;

describe("the console's style sheets", () => {
  it('are found, the token blocks among them', () => {
    expect(sheets).toEqual(
      expect.arrayContaining(['styles.css', 'rules/rules.css', 'workflows/workflows.css', 'authorization/authorization.css', 'changes/changes.css']),
    );
    expect(lightTokens.length).toBeGreaterThan(30);
    expect(darkTokens.length).toBeGreaterThan(15);
  });

  it('write no colour outside the tokens', () => {
    expect(all.filter((d) => !isTokens(d) && colour.test(d.value)).map(where)).toEqual([]);
  });

  it('write no text size, space, radius or focus offset outside the tokens', () => {
    expect(all.filter((d) => !isTokens(d) && sized.test(d.property) && literalLength.test(d.value)).map(where)).toEqual([]);
  });

  it('give every colour token a value in the dark scheme', () => {
    const colours = lightTokens.filter((d) => colour.test(d.value)).map((d) => d.property);
    const dark = new Set(darkTokens.map((d) => d.property));
    expect(colours.filter((name) => !dark.has(name))).toEqual([]);
    expect(darkTokens.filter((d) => !colours.includes(d.property)).map(where)).toEqual([]);
  });

  it('name only tokens that are defined, in a style sheet or by the script that sets them', () => {
    const defined = new Set(all.filter((d) => d.property.startsWith('--')).map((d) => d.property));
    for (const file of filesEnding(['.ts', '.tsx']))
      for (const [, name] of readFileSync(new URL(file, web), 'utf8').matchAll(/'(--[a-z0-9-]+)'/g)) defined.add(name!);
    const named = all.flatMap((d) => [...d.value.matchAll(/var\((--[a-z0-9-]+)/g)].map(([, name]) => ({ name: name!, at: where(d) })));
    expect(named.filter(({ name }) => !defined.has(name)).map(({ name, at }) => `${name} in ${at}`)).toEqual([]);
  });
});
