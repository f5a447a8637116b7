/**
 * FEEL values as this engine holds them, and the two relations every
 * operator builds on: equality and order. Numbers are DMN's decimal128
 * (`lib/decimal`: doubles where they are exact, decimals elsewhere), null is
 * `null`, lists are arrays, contexts are plain objects read through their own
 * properties only (an input named "constructor" is a name like any other),
 * and temporal values are the classes of `./temporal.ts`.
 */
import { compare as compareNumbers, Decimal, isNum, numbersEqual } from '../../decimal/decimal.ts';
import { EngineError } from '../errors.ts';
import type { Budget } from './budget.ts';
import { FeelDate, FeelDateTime, FeelDuration, FeelTemporal, FeelTime } from './temporal.ts';

export type FeelValue = null | number | Decimal | string | boolean | FeelValue[] | FeelContext | FeelDate | FeelTime | FeelDateTime | FeelDuration | FeelRange;
export interface FeelContext {
  [name: string]: FeelValue;
}

export class FeelRange {
  constructor(
    readonly lo: FeelValue,
    readonly hi: FeelValue,
    readonly loClosed: boolean,
    readonly hiClosed: boolean,
    /** An end whose expression gave null (`(null..10]`, `[x..10]` with x null): DMN says nothing lies in or out of it. */
    readonly nullEnd = false,
  ) {}

  /** Whether `value` lies in the range: null when it cannot be compared with an end, or an end is null. */
  includes(value: FeelValue): boolean | null {
    if (this.nullEnd) return null;
    if (this.lo !== null) {
      const c = compare(value, this.lo);
      if (c === null) return null;
      if (c < 0 || (c === 0 && !this.loClosed)) return false;
    }
    if (this.hi !== null) {
      const c = compare(value, this.hi);
      if (c === null) return null;
      if (c > 0 || (c === 0 && !this.hiClosed)) return false;
    }
    return true;
  }

  toJSON() {
    return `${this.loClosed ? '[' : '('}${JSON.stringify(this.lo)}..${JSON.stringify(this.hi)}${this.hiClosed ? ']' : ')'}`;
  }
}

/** Whether a value is a context: any object that is not a list, a range or a temporal value. */
export const isContext = (value: FeelValue): value is FeelContext =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !(value instanceof FeelTemporal) &&
  !(value instanceof FeelRange) &&
  !(value instanceof Decimal);

/** Sets an entry of a context; "__proto__" is an entry like any other, not the object's prototype. */
export function setEntry(context: FeelContext, name: string, value: FeelValue): void {
  if (name === '__proto__') Object.defineProperty(context, name, { value, enumerable: true, writable: true, configurable: true });
  else context[name] = value;
}

/** FEEL's type name of a value, as `instance of` and messages use it. */
export function typeName(value: FeelValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
  }
  if (Array.isArray(value)) return 'list';
  if (value instanceof FeelDate) return 'date';
  if (value instanceof FeelDateTime) return 'date and time';
  if (value instanceof FeelTime) return 'time';
  if (value instanceof FeelDuration) return value.kind === 'yearsMonths' ? 'years and months duration' : 'days and time duration';
  if (value instanceof FeelRange) return 'range';
  if (value instanceof Decimal) return 'number';
  return 'context';
}

/**
 * FEEL equality (`=`): null equals only null; values of different types are
 * not comparable (null); lists and contexts compare element by element, a
 * step of `budget` each (a value built of shared parts can hold far more
 * elements than the steps that built it).
 */
export function equal(a: FeelValue, b: FeelValue, budget?: Budget): boolean | null {
  budget?.spend(1);
  if (a === null || b === null) return a === b;
  if (isNum(a) || isNum(b)) return isNum(a) && isNum(b) ? numbersEqual(a, b) : null;
  if (typeof a !== 'object' || typeof b !== 'object') return typeof a === typeof b ? a === b : null;
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return null;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const e = equal(a[i]!, b[i]!, budget);
      if (e !== true) return e;
    }
    return true;
  }
  if (a instanceof FeelTemporal) {
    const c = a.compareTo(b);
    return c === null ? null : c === 0;
  }
  if (a instanceof FeelRange) {
    if (!(b instanceof FeelRange)) return null;
    return a.loClosed === b.loClosed && a.hiClosed === b.hiClosed && equal(a.lo, b.lo) === true && equal(a.hi, b.hi) === true;
  }
  if (!isContext(b)) return null;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    const e = equal(a[key]!, (b as FeelContext)[key]!, budget);
    if (e !== true) return e;
  }
  return true;
}

/** FEEL order (`<`, `<=`, `>`, `>=`): -1, 0 or 1 for comparable values of one type, null otherwise. */
export function compare(a: FeelValue, b: FeelValue): number | null {
  if (isNum(a)) return isNum(b) ? compareNumbers(a, b) : null;
  if (typeof a === 'string') return typeof b === 'string' ? (a < b ? -1 : a > b ? 1 : 0) : null;
  if (a instanceof FeelTemporal) return a.compareTo(b);
  return null;
}

const isPlainScalar = (v: FeelValue) =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || v instanceof Decimal;

/**
 * The most an answer may hold, in values and characters: about 10 MB as JSON,
 * far more than an API answer (6 MB) or a stored execution carries. A value
 * built of shared parts (a list of the same long text 100,000 times) can be
 * far larger as JSON than the work that built it; the bound keeps turning it
 * into JSON, and writing that, from taking minutes or failing.
 */
export const maxAnswerSize = 10_000_000;

/** Takes what `value` holds at its top from what an answer may still hold (`left.size`). */
function count(value: FeelValue, left: { size: number }) {
  left.size -= typeof value === 'string' ? value.length + 1 : 1;
  if (left.size < 0)
    throw new EngineError('evaluation_failed', `The answer holds more than ${maxAnswerSize.toLocaleString('en')} values and characters: give a smaller one.`);
}

function plain(value: FeelValue, left: { size: number }): unknown {
  count(value, left);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Decimal) return value;
  if (Array.isArray(value)) return value.map((item) => plain(item, left));
  if (value instanceof FeelTemporal) return value.toString();
  if (value instanceof FeelRange) return value.toJSON();
  const keys = Object.keys(value);
  // A context of plain values (the usual rule output) is already JSON: no copy.
  if (keys.every((key) => isPlainScalar(value[key]!))) {
    for (const key of keys) count(value[key]!, left);
    return value;
  }
  const out: FeelContext = {};
  for (const key of keys) setEntry(out, key, plain(value[key]!, left) as FeelValue);
  return out;
}

/**
 * A result fit for JSON: temporal values as their ISO text, ranges as text, numbers that are not finite as null,
 * decimals as themselves (JSON.stringify writes their digits).
 *
 * @throws EngineError `evaluation_failed` when it holds more than `maxAnswerSize` values and characters
 */
export const toPlain = (value: FeelValue): unknown => plain(value, { size: maxAnswerSize });
