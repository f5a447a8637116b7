/**
 * FEEL literals as the interchange formats write and read them. A format
 * that holds only text (a DMN cell, an output value list) must write each
 * value so that FEEL reads back the very value, and read back lists of
 * values that other tools wrote (`"gold","silver",5`). Only literals are read
 * here, never expressions: what is not a list of literals is reported by the
 * caller, and FEEL proper is the engine's to check.
 */
import { parseNumber, toDecimal, type Num } from '../decimal/decimal.ts';
import type { OutputEntry } from '../engine/definitions.ts';

/** A value a column may be limited to (an output's allowed values): text as it is, not FEEL. */
export type LiteralValue = string | Num | boolean;

const escapes: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A FEEL string literal naming `text` exactly. */
export const feelString = (text: string) => `"${text.replace(/[\\"\n\r\t]/g, (c) => escapes[c]!)}"`;

/** A number in FEEL's syntax: digits and a point, never an exponent (FEEL has none), every digit kept. */
export function feelNumber(n: Num): string {
  const { coefficient, exponent } = toDecimal(n);
  const digits = (coefficient < 0n ? -coefficient : coefficient).toString();
  const point = digits.length + exponent;
  const text =
    exponent >= 0 ? digits + '0'.repeat(exponent) : point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${'0'.repeat(-point)}${digits}`;
  return coefficient < 0n ? `-${text}` : text;
}

/** The FEEL text of an output entry: FEEL text as it is, a number, boolean or null as its literal. */
export const outputEntryText = (entry: OutputEntry): string =>
  typeof entry === 'string' ? entry : entry === null ? 'null' : typeof entry === 'boolean' ? String(entry) : feelNumber(entry);

/** The FEEL literal of an allowed value. */
export const literalText = (value: LiteralValue): string =>
  typeof value === 'string' ? feelString(value) : typeof value === 'boolean' ? String(value) : feelNumber(value);

/** FEEL's escapes in a string literal, read as the engine's parser reads them (an unknown escape stays as written). */
function unescape(body: string): string {
  return body.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{6}|[^])/g, (_, escape: string) => {
    if (escape.length > 1) return String.fromCodePoint(Number.parseInt(escape.slice(1), 16));
    return ({ n: '\n', r: '\r', t: '\t', '"': '"', "'": "'", '\\': '\\' } as Record<string, string>)[escape] ?? `\\${escape}`;
  });
}

const listItem = /\s*(?:"((?:[^"\\]|\\[^])*)"|(-?(?:\d+(?:\.\d*)?|\.\d+))|(true|false))\s*(,|$)/y;

/**
 * The values of a comma-separated list of FEEL literals (strings, numbers,
 * booleans), or undefined when the text is anything else.
 *
 * @example
 * readLiteralList('"gold", "silver", 5, true'); // ['gold', 'silver', 5, true]
 * readLiteralList('[1..10]');                   // undefined
 */
export function readLiteralList(text: string): LiteralValue[] | undefined {
  const values: LiteralValue[] = [];
  listItem.lastIndex = 0;
  while (listItem.lastIndex < text.length) {
    const match = listItem.exec(text);
    if (!match) return undefined;
    const [, string, number, boolean, separator] = match;
    const value = string !== undefined ? unescape(string) : number !== undefined ? parseNumber(number) : boolean === 'true';
    // A trailing comma, or a number past decimal128's range, is not a list of values.
    if (value === null || (separator === ',' && listItem.lastIndex === text.length)) return undefined;
    values.push(value);
  }
  return values.length ? values : undefined;
}
