/**
 * FEEL literals as the interchange formats write and read them: numbers in
 * FEEL's own notation (no exponent, which FEEL has not: `1e+25` would be
 * read as a name), string literals that escape what FEEL escapes, and lists of
 * literals (a column's allowed values, DMN's output values: `"gold",
 * "silver", 5`). A list of literals is read here rather than by the FEEL
 * parser because it is a value, not an expression, and a thousand allowed
 * values are longer than the parser takes one text to be.
 */
import { isNum, parseNumber, toDecimal, type Num } from '../decimal/decimal.ts';
import type { OutputEntry } from '../engine/definitions.ts';
import { unescapedCharacter } from '../engine/feel/string-literals.ts';

/** A number in FEEL's notation, with every digit: `1e+25` is written 10000000000000000000000000. */
export function feelNumberText(n: Num): string {
  const { coefficient, exponent } = toDecimal(n);
  const negative = coefficient < 0n;
  const digits = (negative ? -coefficient : coefficient).toString();
  let text: string;
  if (exponent >= 0) text = digits === '0' ? '0' : digits + '0'.repeat(exponent);
  else {
    const whole = digits.length + exponent;
    text = whole > 0 ? `${digits.slice(0, whole)}.${digits.slice(whole)}` : `0.${'0'.repeat(-whole)}${digits}`;
    text = text.replace(/\.?0+$/, '');
  }
  return negative ? `-${text}` : text;
}

/** A FEEL string literal of any text: quotes, backslashes and control characters escaped, so it reads back as the very text. */
export const feelStringLiteral = (text: string): string =>
  `"${text.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    if (c === '\\' || c === '"') return `\\${c}`;
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  })}"`;

export type LiteralValue = string | Num | boolean;

export const feelLiteral = (value: LiteralValue): string =>
  typeof value === 'string' ? feelStringLiteral(value) : isNum(value) ? feelNumberText(value) : String(value);

/** Values as a FEEL list of literals, without the brackets (as DMN writes output values). */
export const feelLiteralList = (values: readonly LiteralValue[]): string => values.map(feelLiteral).join(', ');

const numberToken = /-?(?:\d+(?:\.\d*)?|\.\d+)/y;
const booleanToken = /(?:true|false)\b/y;
const space = /\s*/y;

/**
 * The values of a FEEL list of literals (strings, numbers, true, false),
 * separated by commas, with or without the list's brackets; or why the text is
 * not one.
 *
 * @example
 * parseLiteralList('"gold", "silver", 5'); // { values: ['gold', 'silver', 5] }
 * parseLiteralList('[true, false]'); // { values: [true, false] }
 */
export function parseLiteralList(text: string): { values: LiteralValue[] } | { problem: string } {
  let at = 0;
  const skipSpace = () => {
    space.lastIndex = at;
    space.exec(text);
    at = space.lastIndex;
  };
  const match = (token: RegExp) => {
    token.lastIndex = at;
    const found = token.exec(text);
    if (found) at = token.lastIndex;
    return found?.[0];
  };
  const where = () => (at >= text.length ? 'at the end' : `at "${text.slice(at, at + 12)}"`);

  skipSpace();
  const bracketed = text[at] === '[';
  if (bracketed) at++;
  const values: LiteralValue[] = [];
  for (;;) {
    skipSpace();
    if (text[at] === '"') {
      let value = '';
      for (at++; at < text.length && text[at] !== '"'; at++) {
        if (text[at] !== '\\') {
          value += text[at];
          continue;
        }
        const escape = /^(?:u[0-9a-fA-F]{4}|U[0-9a-fA-F]{6}|[^])/.exec(text.slice(at + 1, at + 8))?.[0];
        if (!escape) return { problem: 'a string literal is not closed' };
        value += unescapedCharacter(escape);
        at += escape.length;
      }
      if (at >= text.length) return { problem: 'a string literal is not closed' };
      at++;
      values.push(value);
    } else {
      const number = match(numberToken);
      const boolean = number === undefined ? match(booleanToken) : undefined;
      if (number !== undefined) {
        const value = parseNumber(number);
        if (value === null) return { problem: `${number.slice(0, 12)}… lies beyond FEEL's numbers` };
        values.push(value);
      } else if (boolean !== undefined) values.push(boolean === 'true');
      else return { problem: `expected a string in quotes, a number, true or false ${where()}` };
    }
    skipSpace();
    if (text[at] !== ',') break;
    at++;
  }
  if (bracketed) {
    if (text[at] !== ']') return { problem: `expected "," or "]" ${where()}` };
    at++;
  }
  skipSpace();
  return at >= text.length ? { values } : { problem: `expected "," ${where()}` };
}

/** The FEEL text of an output entry: FEEL text as it is, a number, boolean or null as its literal. */
export const outputEntryText = (entry: OutputEntry): string =>
  typeof entry === 'string' ? entry : entry === null ? 'null' : typeof entry === 'boolean' ? String(entry) : feelNumberText(entry);
