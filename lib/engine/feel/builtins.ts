/**
 * FEEL's built-in functions (DMN 1.5, chapter 10.3.4) that rules reach for:
 * strings, numbers, lists, dates and times, contexts. Their names and
 * parameter names are data of their own (./builtin-signatures.ts), so named
 * invocation (`substring(string: s, start position: 2)`) works and the
 * console offers them as written; a wrong type or count gives null and a note, never an exception.
 * Every call spends steps of the evaluation's budget for what it reads and
 * makes (./budget.ts); patterns run in linear time (./regex.ts).
 */
import {
  absolute,
  add,
  compare as compareNumbers,
  divide,
  isInteger,
  isNum,
  modulo,
  multiply,
  numberText,
  parseNumber,
  roundToScale,
  subtract,
  toInteger,
  type Num,
  type RoundingMode,
} from '../../decimal/decimal.ts';
import { exp, ln, sqrt } from '../../decimal/functions.ts';
import type { Budget } from './budget.ts';
import { note, type Env } from './compile.ts';
import { compilePattern, matchesAnywhere, PatternProblem, replaceAll, splitAll, type Pattern } from './regex.ts';
import { daysInMonth, FeelDate, FeelDateTime, FeelDuration, FeelTime } from './temporal.ts';
import { compare, equal, FeelRange, isContext, setEntry, typeName, type FeelContext, type FeelValue } from './values.ts';
import { builtinSignatures, type BuiltinName } from './builtin-signatures.ts';

type Impl = (args: FeelValue[], env: Env) => FeelValue;

interface Builtin {
  params: readonly (readonly string[])[];
  impl: Impl;
}

/** Bounds on what a function may be given, beside the budget of steps: the text a pattern reads. */
export const builtinLimits = { maxMatchInput: 100_000 } as const;

/** A number where a position, a length or a date's part is meant: a double (a `Decimal` has 16 digits or more, no position has). */
const isNumber = (v: FeelValue): v is number => typeof v === 'number';
const isString = (v: FeelValue): v is string => typeof v === 'string';

function wrongType(env: Env, fn: string, args: FeelValue[]): null {
  return note(env, `${fn}(${args.map(typeName).join(', ')}): wrong argument types`);
}

/**
 * DMN 1.5 10.3.2.9.4, conversions when binding arguments: a value given for a `list` parameter is a list of
 * one, and a list of one given for an `item` parameter (a number or a string) is its item. `kinds` gives each
 * parameter's kind, the last one repeating for the rest.
 */
function converting(kinds: ('list' | 'item' | 'any')[], impl: Impl): Impl {
  const convert = (v: FeelValue, i: number): FeelValue => {
    const kind = kinds[Math.min(i, kinds.length - 1)];
    if (kind === 'list') return v === null || Array.isArray(v) ? v : [v];
    return kind === 'item' && Array.isArray(v) && v.length === 1 ? v[0]! : v;
  };
  return (args, env) => impl(args.map(convert), env);
}

/** The code of a function whose arguments must have the given types (`any` accepts every value but null). */
function typed(name: BuiltinName, types: (string | ((v: FeelValue) => boolean))[], impl: (...args: never[]) => FeelValue, nullable = false): Impl {
  const checks = types.map((t) =>
    typeof t === 'function' ? t : t === 'number' ? isNum : t === 'string' ? isString : t === 'list' ? Array.isArray : () => true,
  );
  return converting(
    types.map((t) => (t === 'list' ? 'list' : t === 'number' || t === 'string' ? 'item' : 'any')),
    (args, env) => {
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (a === null ? !nullable : !checks[i]!(a)) return a === null ? null : wrongType(env, name, args);
      }
      return (impl as (...a: FeelValue[]) => FeelValue)(...args);
    },
  );
}

/** A list function that also takes its items as separate arguments: `max([1, 2])` or `max(1, 2)`; `max(1)` is `max([1])`. */
const listOrItems = (args: FeelValue[]): FeelValue[] | null =>
  args.length === 1 ? (Array.isArray(args[0]) ? args[0] : args[0] === null ? null : [args[0]!]) : args;

function listFunction(name: BuiltinName, impl: (items: FeelValue[], env: Env) => FeelValue): Impl {
  return (args, env) => {
    const items = listOrItems(args);
    return items === null ? wrongType(env, name, args) : impl(items, env);
  };
}

const numbersOf = (items: FeelValue[]): Num[] | null => (items.every(isNum) ? (items as Num[]) : null);

function numericListFunction(name: BuiltinName, impl: (numbers: Num[]) => FeelValue): Impl {
  return listFunction(name, (items, env) => {
    const numbers = numbersOf(items);
    return numbers ? impl(numbers) : note(env, `${name}: every item must be a number`);
  });
}

/** The scales DMN 1.5 allows a rounding function (decimal128's exponent range); another scale gives null. */
const roundingScales = { min: -6111, max: 6176 } as const;

/** Rounds `n` to `scale` decimal digits with `mode`, exactly (2.675 is 2.675, so it rounds half up to 2.68). */
function roundTo(n: Num, scale: Num, mode: RoundingMode): Num | null {
  if (!isInteger(scale) || compareNumbers(scale, roundingScales.min) < 0 || compareNumbers(scale, roundingScales.max) > 0) return null;
  return roundToScale(n, toInteger(scale), mode);
}

/** The exact sum of numbers; null past decimal128's range. */
function total(numbers: Num[]): Num | null {
  let sum: Num | null = 0;
  for (const n of numbers) if ((sum = add(sum, n)) === null) return null;
  return sum;
}

const mean = (numbers: Num[]) => {
  const sum = total(numbers);
  return sum === null ? null : divide(sum, numbers.length);
};

/** A value as text; each value written spends a step, since a value built of shared parts can be far larger than its making. */
function feelString(v: FeelValue, budget: Budget): string | null {
  budget.spend(1);
  if (v === null) return null;
  if (typeof v === 'string') return v;
  if (isNum(v)) return numberText(v);
  if (typeof v === 'boolean') return String(v);
  const inner = (i: FeelValue) => (typeof i === 'string' ? JSON.stringify(i) : feelString(i, budget));
  if (Array.isArray(v)) return `[${v.map(inner).join(', ')}]`;
  if (isContext(v))
    return `{${Object.entries(v)
      .map(([k, i]) => `${k}: ${inner(i)}`)
      .join(', ')}}`;
  return String(v);
}

/**
 * Compiled patterns by flags and text (or why one cannot run): a rule runs the same few on every call. Emptied when
 * it holds 256, or automata of 100,000 states in all, so that a warm function's memory stays bounded.
 */
const patterns = { byKey: new Map<string, Pattern | string>(), states: 0 };

/** The pattern compiled, or null with a note saying why it cannot run. */
function patternOf(text: string, flags: string | null, env: Env): Pattern | null {
  const key = `${flags ?? ''}\u0000${text}`;
  let compiled = patterns.byKey.get(key);
  if (compiled === undefined) {
    // Compiling takes tens of microseconds, the time of a few hundred steps.
    env.budget.spend(200 + 10 * text.length);
    try {
      compiled = compilePattern(text, flags ?? '');
    } catch (error) {
      if (!(error instanceof PatternProblem)) throw error;
      compiled = error.message;
    }
    const states = typeof compiled === 'string' ? 0 : compiled.program.length;
    if (patterns.byKey.size >= 256 || patterns.states + states > 100_000) [patterns.byKey, patterns.states] = [new Map(), 0];
    patterns.byKey.set(key, compiled);
    patterns.states += states;
  }
  return typeof compiled === 'string' ? note(env, compiled) : compiled;
}

/** Every item of nested lists, in order: a step for each list and item walked. */
function flattened(list: FeelValue[], budget: Budget): FeelValue[] {
  const out: FeelValue[] = [];
  const walk = (items: FeelValue[]) => {
    for (const item of items) {
      budget.spend(1);
      if (Array.isArray(item)) walk(item);
      else out.push(item);
    }
  };
  walk(list);
  return out;
}

const dateOf = (v: FeelValue): FeelDate | null => (v instanceof FeelDate ? v : v instanceof FeelDateTime ? v.date : null);

function distinct(items: FeelValue[], budget: Budget): FeelValue[] {
  const out: FeelValue[] = [];
  for (const item of items) if (!out.some((o) => equal(o, item, budget) === true)) out.push(item);
  return out;
}

const implementations: Record<BuiltinName, Impl> = {
  // Conversion
  string: ([v], env) => (v === null ? null : feelString(v!, env.budget)),
  number: ([from, grouping = null, decimal = null], env) => {
    if (!isString(from!)) return from === null ? null : wrongType(env, 'number', [from!]);
    let text = from;
    if (isString(grouping)) text = text.split(grouping).join('');
    if (isString(decimal)) text = text.replace(decimal, '.');
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text.trim())) return null;
    return parseNumber(text.trim()) ?? note(env, `number("${text.slice(0, 20)}"): beyond decimal128's range`);
  },
  // Strings
  substring: converting(['item'], ([s, start, length = null], env) => {
    if (!isString(s!) || !isNumber(start!) || (length !== null && !isNumber(length))) return s === null ? null : wrongType(env, 'substring', [s!, start!]);
    const chars = [...s];
    const from = start > 0 ? start - 1 : chars.length + start;
    // As XPath fn:substring: the characters from `from` up to `from + length`, both counted before clamping to the string.
    return chars.slice(Math.max(0, from), length === null ? undefined : Math.max(0, from + (length as number))).join('');
  }),
  'string length': typed('string length', ['string'], (s: string) => [...s].length),
  'upper case': typed('upper case', ['string'], (s: string) => s.toUpperCase()),
  'lower case': typed('lower case', ['string'], (s: string) => s.toLowerCase()),
  'substring before': typed('substring before', ['string', 'string'], (s: string, m: string) => (s.includes(m) ? s.slice(0, s.indexOf(m)) : '')),
  'substring after': typed('substring after', ['string', 'string'], (s: string, m: string) => (s.includes(m) ? s.slice(s.indexOf(m) + m.length) : '')),
  contains: typed('contains', ['string', 'string'], (s: string, m: string) => s.includes(m)),
  'starts with': typed('starts with', ['string', 'string'], (s: string, m: string) => s.startsWith(m)),
  'ends with': typed('ends with', ['string', 'string'], (s: string, m: string) => s.endsWith(m)),
  matches: converting(['item'], ([input, pattern, flags = null], env) => {
    if (!isString(input!) || !isString(pattern!) || (flags !== null && !isString(flags)))
      return input === null || pattern === null ? null : wrongType(env, 'matches', [input!, pattern!]);
    if (input.length > builtinLimits.maxMatchInput) return note(env, `matches takes input of at most ${builtinLimits.maxMatchInput} characters`);
    const compiled = patternOf(pattern, flags as string | null, env);
    return compiled && matchesAnywhere(compiled, input, env.budget);
  }),
  replace: ([input, pattern, replacement, flags = null], env) => {
    if (!isString(input!) || !isString(pattern!) || !isString(replacement!)) return null;
    if (input.length > builtinLimits.maxMatchInput) return note(env, `replace takes input of at most ${builtinLimits.maxMatchInput} characters`);
    const compiled = patternOf(pattern, isString(flags) ? flags : null, env);
    try {
      return compiled && replaceAll(compiled, input, replacement, env.budget);
    } catch (error) {
      // A replacement XPath refuses, or a pattern that matches the empty string.
      if (!(error instanceof PatternProblem)) throw error;
      return note(env, error.message);
    }
  },
  split: converting(['item', 'item'], ([input, delimiter], env) => {
    if (!isString(input!) || !isString(delimiter!)) return input === null || delimiter === null ? null : wrongType(env, 'split', [input!, delimiter!]);
    if (input.length > builtinLimits.maxMatchInput) return note(env, `split takes input of at most ${builtinLimits.maxMatchInput} characters`);
    const compiled = patternOf(delimiter, null, env);
    try {
      return compiled && splitAll(compiled, input, env.budget);
    } catch (error) {
      if (!(error instanceof PatternProblem)) throw error;
      return note(env, error.message);
    }
  }),
  'string join': converting(['list', 'item'], ([list, delimiter = null], env) => {
    if (!Array.isArray(list)) return list === null ? null : wrongType(env, 'string join', [list!]);
    if (!list.every((i) => i === null || isString(i))) return note(env, 'string join: every item must be a string');
    const separator = isString(delimiter) ? delimiter : '';
    // The text is made only once its length is paid for: a list of one long text repeated can join to gigabytes.
    env.budget.spend(list.reduce((length: number, i) => length + (isString(i) ? i.length + separator.length : 0), 0));
    return list.filter(isString).join(separator);
  }),
  // Numbers
  decimal: typed('decimal', ['number', 'number'], (n: Num, scale: Num) => roundTo(n, scale, 'halfEven')),
  floor: converting(['item'], ([n, scale = 0], env) =>
    isNum(n!) && isNum(scale!) ? roundTo(n, scale, 'floor') : n === null ? null : wrongType(env, 'floor', [n!]),
  ),
  ceiling: converting(['item'], ([n, scale = 0], env) =>
    isNum(n!) && isNum(scale!) ? roundTo(n, scale, 'ceiling') : n === null ? null : wrongType(env, 'ceiling', [n!]),
  ),
  'round up': typed('round up', ['number', 'number'], (n: Num, scale: Num) => roundTo(n, scale, 'up')),
  'round down': typed('round down', ['number', 'number'], (n: Num, scale: Num) => roundTo(n, scale, 'down')),
  'round half up': typed('round half up', ['number', 'number'], (n: Num, scale: Num) => roundTo(n, scale, 'halfUp')),
  'round half down': typed('round half down', ['number', 'number'], (n: Num, scale: Num) => roundTo(n, scale, 'halfDown')),
  abs: ([n], env) => (isNum(n!) ? absolute(n) : n instanceof FeelDuration ? (n.amount < 0 ? n.times(-1) : n) : n === null ? null : wrongType(env, 'abs', [n!])),
  modulo: typed('modulo', ['number', 'number'], modulo),
  sqrt: typed('sqrt', ['number'], sqrt),
  log: typed('log', ['number'], ln),
  exp: typed('exp', ['number'], exp),
  odd: typed('odd', ['number'], (n: Num) => isInteger(n) && modulo(n, 2) === 1),
  even: typed('even', ['number'], (n: Num) => isInteger(n) && modulo(n, 2) === 0),
  // Lists
  'list contains': converting(['list', 'any'], ([list, element], env) =>
    Array.isArray(list) ? list.some((i) => equal(i, element!, env.budget) === true) : list === null ? null : wrongType(env, 'list contains', [list!]),
  ),
  count: typed('count', ['list'], (list: FeelValue[]) => list.length),
  min: listFunction('min', (items, env) => extreme(items, -1, env)),
  max: listFunction('max', (items, env) => extreme(items, 1, env)),
  sum: numericListFunction('sum', (n) => (n.length ? total(n) : null)),
  mean: numericListFunction('mean', (n) => (n.length ? mean(n) : null)),
  product: numericListFunction('product', (n) => (n.length ? n.reduce<Num | null>((a, b) => a && multiply(a, b), 1) : null)),
  median: numericListFunction('median', (n) => {
    if (!n.length) return null;
    const s = [...n].sort(compareNumbers);
    const mid = Math.floor(s.length / 2);
    return s.length % 2 ? s[mid]! : mean([s[mid - 1]!, s[mid]!]);
  }),
  stddev: numericListFunction('stddev', (n) => {
    if (n.length < 2) return null;
    const average = mean(n);
    if (average === null) return null;
    const squares = n.map((x) => subtract(x, average)).map((d) => d && multiply(d, d));
    if (!squares.every(isNum)) return null;
    const sum = total(squares);
    const variance = sum === null ? null : divide(sum, n.length - 1);
    return variance === null ? null : sqrt(variance);
  }),
  mode: numericListFunction('mode', (n) => {
    // By text: one number may be held as a double or a Decimal (lib/decimal), its text is one.
    const counts = new Map<string, { value: Num; count: number }>();
    for (const x of n) {
      const key = numberText(x);
      const seen = counts.get(key);
      if (seen) seen.count++;
      else counts.set(key, { value: x, count: 1 });
    }
    const most = Math.max(0, ...[...counts.values()].map((c) => c.count));
    return [...counts.values()]
      .filter((c) => c.count === most)
      .map((c) => c.value)
      .sort(compareNumbers);
  }),
  all: listFunction('all', (items, env) =>
    items.every((i) => i === null || typeof i === 'boolean')
      ? items.includes(false)
        ? false
        : items.includes(null)
          ? null
          : true
      : note(env, 'all: every item must be a boolean'),
  ),
  any: listFunction('any', (items, env) =>
    items.every((i) => i === null || typeof i === 'boolean')
      ? items.includes(true)
        ? true
        : items.includes(null)
          ? null
          : false
      : note(env, 'any: every item must be a boolean'),
  ),
  sublist: converting(['list', 'item'], ([list, start, length = null], env) => {
    if (!Array.isArray(list) || !isNumber(start!) || (length !== null && !isNumber(length))) return list === null ? null : wrongType(env, 'sublist', [list!]);
    const from = start > 0 ? start - 1 : list.length + start;
    return list.slice(from, length === null ? undefined : from + (length as number));
  }),
  append: converting(['list', 'any'], ([list, ...items], env) => (Array.isArray(list) ? [...list, ...items] : wrongType(env, 'append', [list!]))),
  concatenate: converting(['list'], (lists, env) => (lists.every(Array.isArray) ? (lists as FeelValue[][]).flat(1) : wrongType(env, 'concatenate', lists))),
  'insert before': converting(['list', 'item', 'any'], ([list, position, item], env) => {
    if (!Array.isArray(list) || !isNumber(position!)) return wrongType(env, 'insert before', [list!, position!]);
    const at = position > 0 ? position - 1 : list.length + position;
    return [...list.slice(0, at), item!, ...list.slice(at)];
  }),
  remove: converting(['list', 'item'], ([list, position], env) => {
    if (!Array.isArray(list) || !isNumber(position!)) return wrongType(env, 'remove', [list!, position!]);
    const at = position > 0 ? position - 1 : list.length + position;
    return at < 0 || at >= list.length ? null : [...list.slice(0, at), ...list.slice(at + 1)];
  }),
  'list replace': converting(['list', 'item', 'any'], ([list, position, item], env) => {
    if (!Array.isArray(list) || !isNumber(position!) || !Number.isInteger(position)) return wrongType(env, 'list replace', [list!, position!]);
    const at = position > 0 ? position - 1 : list.length + position;
    return at < 0 || at >= list.length ? null : list.map((old, i) => (i === at ? item! : old));
  }),
  reverse: typed('reverse', ['list'], (list: FeelValue[]) => [...list].reverse()),
  'index of': converting(['list', 'any'], ([list, match], env) =>
    Array.isArray(list) ? list.flatMap((item, i) => (equal(item, match!, env.budget) === true ? [i + 1] : [])) : wrongType(env, 'index of', [list!]),
  ),
  union: converting(['list'], (lists, env) =>
    lists.every(Array.isArray) ? distinct((lists as FeelValue[][]).flat(1), env.budget) : wrongType(env, 'union', lists),
  ),
  'distinct values': converting(['list'], ([list], env) => (Array.isArray(list) ? distinct(list, env.budget) : null)),
  flatten: converting(['list'], ([list], env) => (Array.isArray(list) ? flattened(list, env.budget) : null)),
  // Booleans
  not: ([v]) => (typeof v === 'boolean' ? !v : null),
  // Dates and times
  date: (args, env) => {
    if (args.length === 3)
      return args.every(isNumber) ? (FeelDate.of(...(args as [number, number, number])) ?? note(env, `date(${args.join(', ')}) is not a valid date`)) : null;
    const [from] = args;
    if (isString(from!)) return FeelDate.parse(from) ?? note(env, `"${from}" is not a date (YYYY-MM-DD)`);
    return dateOf(from!) ?? (from === null ? null : wrongType(env, 'date', args));
  },
  time: (args, env) => {
    if (args.length >= 3) {
      const [h, m, s, offset = null] = args;
      if (!isNumber(h!) || !isNumber(m!) || !isNumber(s!) || h < 0 || h > 23 || m < 0 || m > 59 || s < 0 || s >= 60)
        return note(env, 'time(hour, minute, second) needs a valid time of day');
      if (offset !== null && !(offset instanceof FeelDuration && offset.kind === 'daysTime')) return wrongType(env, 'time', args);
      return new FeelTime(h * 3600 + m * 60 + s, offset === null ? null : (offset as FeelDuration).amount, null);
    }
    const [from] = args;
    if (isString(from!)) return FeelTime.parse(from) ?? note(env, `"${from}" is not a time (hh:mm:ss)`);
    if (from instanceof FeelDateTime) return from.time;
    if (from instanceof FeelDate) return new FeelTime(0, 0, null);
    return from === null ? null : wrongType(env, 'time', args);
  },
  'date and time': (args, env) => {
    if (args.length === 2) {
      const [date, time] = [dateOf(args[0]!), args[1]];
      return date && time instanceof FeelTime ? FeelDateTime.of(date, time) : wrongType(env, 'date and time', args);
    }
    const [from] = args;
    if (isString(from!)) return FeelDateTime.parse(from) ?? note(env, `"${from}" is not a date and time (YYYY-MM-DDThh:mm:ss)`);
    if (from instanceof FeelDateTime) return from;
    if (from instanceof FeelDate) return new FeelDateTime(from, 0, null, null);
    return from === null ? null : wrongType(env, 'date and time', args);
  },
  duration: typed('duration', ['string'], (s: string) => FeelDuration.parse(s)),
  'years and months duration': ([from, to], env) => {
    const [a, b] = [dateOf(from!), dateOf(to!)];
    if (!a || !b) return from === null || to === null ? null : wrongType(env, 'years and months duration', [from!, to!]);
    let months = (b.y - a.y) * 12 + (b.m - a.m);
    if (months > 0 && b.d < a.d) months--;
    if (months < 0 && b.d > a.d) months++;
    return FeelDuration.yearsMonths(months);
  },
  now: (_args, env) => dateTimeAt(env.clock.now()),
  today: (_args, env) => dateTimeAt(env.clock.now()).date,
  'day of week': ([d]) => dayName(dateOf(d!)),
  'day of year': ([d]) => dayOfYear(dateOf(d!)),
  'week of year': ([d]) => weekOfYear(dateOf(d!)),
  'month of year': ([d]) => monthName(dateOf(d!)),
  'last day of month': ([d]) => lastDayOfMonth(dateOf(d!)),
  // Contexts
  'get value': ([m, key]) => (isContext(m!) && isString(key!) && Object.hasOwn(m, key) ? (m[key] ?? null) : null),
  'get entries': ([m]) => (isContext(m!) ? Object.entries(m).map(([key, value]) => ({ key, value }) as FeelContext) : null),
  context: converting(['list'], ([entries], env) => {
    if (!Array.isArray(entries)) return entries === null ? null : wrongType(env, 'context', [entries!]);
    const made: FeelContext = {};
    for (const entry of entries) {
      if (!isContext(entry) || !isString(entry.key ?? null) || !Object.hasOwn(entry, 'value'))
        return note(env, 'context(entries): each entry is a context with a string "key" and a "value"');
      if (Object.hasOwn(made, entry.key as string)) return note(env, `context(entries): the key "${entry.key as string}" is given twice`);
      setEntry(made, entry.key as string, entry.value ?? null);
    }
    return made;
  }),
  'context put': ([context, key, value], env) => contextPut(context!, Array.isArray(key) ? key : [key!], value!, env),
  'context merge': converting(['list'], ([contexts], env) => {
    if (!Array.isArray(contexts) || !contexts.every(isContext)) return contexts === null ? null : wrongType(env, 'context merge', [contexts!]);
    return laidOver(contexts, env);
  }),
  // Ranges
  range: ([from], env) => {
    const parts = isString(from!) ? rangeParts(from) : null;
    if (!parts) return from === null ? null : note(env, 'range(from) takes text such as "[1..10]"');
    const end = (text: string) => (text === '' ? null : Number.isNaN(Number(text)) ? (FeelDate.parse(text.replace(/^@?"|"$/g, '')) ?? null) : Number(text));
    const [lo, hi] = [end(parts.lo), end(parts.hi)];
    const [loClosed, hiClosed] = [parts.open === '[', parts.close === ']'];
    // DMN 1.5: an end left out is open ("(..2]"), never included; and a range runs upwards.
    if ((lo === null && (loClosed || parts.lo !== '')) || (hi === null && (hiClosed || parts.hi !== '')) || (lo === null && hi === null)) return null;
    if (lo !== null && hi !== null && (compare(lo, hi) ?? 1) > 0) return null;
    return new FeelRange(lo, hi, loClosed, hiClosed);
  },
};

/** Each built-in: its parameters (./builtin-signatures.ts) and its code. */
const builtins = new Map<string, Builtin>(
  Object.entries(builtinSignatures).map(([name, params]) => [name, { params, impl: implementations[name as BuiltinName] }]),
);

/** `context` with the value at the path `keys` (each a key of the context within) put in, or null where the path does not lead through contexts. */
function contextPut(context: FeelValue, keys: FeelValue[], value: FeelValue, env: Env): FeelValue {
  const [key, ...rest] = keys;
  if (!isContext(context) || key === undefined || !isString(key)) return context === null ? null : wrongType(env, 'context put', [context, key ?? null]);
  const inner = rest.length === 0 ? value : contextPut(Object.hasOwn(context, key) ? (context[key] ?? null) : null, rest, value, env);
  if (inner === null && rest.length > 0) return null;
  const entry: FeelContext = {};
  setEntry(entry, key, inner);
  return laidOver([context, entry], env);
}

/** One context of the entries of `contexts`, a later one's entry replacing an earlier one's; each entry copied spends a step. */
function laidOver(contexts: FeelContext[], env: Env): FeelContext {
  const out: FeelContext = {};
  for (const context of contexts) {
    env.budget.spend(Object.keys(context).length);
    for (const [key, value] of Object.entries(context)) setEntry(out, key, value);
  }
  return out;
}

/**
 * The parts of range text (`[1..10]`, `(a..b]`): the brackets, and the ends around the first "..", trimmed. What
 * /^([[(\]])\s*(.*?)\s*\.\.\s*(.*?)\s*([\])[])$/ reads (line breaks aside: an end may not hold one), found
 * without that pattern, whose backtracking takes time growing as the cube of the length of a text of spaces.
 */
function rangeParts(text: string): { open: string; lo: string; hi: string; close: string } | null {
  const [open, close] = [text[0]!, text[text.length - 1]!];
  const dots = text.indexOf('..', 1);
  if (!'[(]'.includes(open) || !'])['.includes(close) || dots < 0 || dots > text.length - 3) return null;
  const [lo, hi] = [text.slice(1, dots).trim(), text.slice(dots + 2, -1).trim()];
  return /[\n\r\u2028\u2029]/.test(lo + hi) ? null : { open, lo, hi, close };
}

function extreme(items: FeelValue[], direction: 1 | -1, env: Env): FeelValue {
  if (items.length === 0) return null;
  let best: FeelValue = items[0]!;
  for (const item of items.slice(1)) {
    const c = compare(item, best);
    if (c === null) return note(env, `${direction > 0 ? 'max' : 'min'}: the items cannot be compared`);
    if (c * direction > 0) best = item;
  }
  return best;
}

function dateTimeAt(clock: Date): FeelDateTime {
  const seconds = clock.getTime() / 1000;
  const day = Math.floor(seconds / 86_400);
  return new FeelDateTime(FeelDate.fromDay(day), seconds - day * 86_400, 0, null);
}

const dayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const dayName = (d: FeelDate | null) => (d ? dayNames[d.weekday - 1]! : null);
const monthName = (d: FeelDate | null) => (d ? monthNames[d.m - 1]! : null);
const dayOfYear = (d: FeelDate | null) => (d ? d.day - new FeelDate(d.y, 1, 1).day + 1 : null);
const lastDayOfMonth = (d: FeelDate | null) => (d ? daysInMonth(d.y, d.m) : null);

/** ISO 8601 week number. */
function weekOfYear(d: FeelDate | null): number | null {
  if (!d) return null;
  const thursday = FeelDate.fromDay(d.day - d.weekday + 4);
  return Math.floor((thursday.day - new FeelDate(thursday.y, 1, 1).day) / 7) + 1;
}

export const hasBuiltin = (name: string) => builtins.has(name);

const bare = (param: string) => param.replace(/\?$|\.\.\.$/, '');

/** What a value is worth to read or make, shallowly: its characters or items (a context's are paid for by what walks it: equality, string(), an answer of entries). */
const sizeOf = (v: FeelValue): number => (typeof v === 'string' || Array.isArray(v) ? v.length : 1);

/**
 * Calls a built-in with positional arguments, or named ones when `names` is given. The call spends a step for each
 * character or item of its arguments (what reading them costs) and of its answer (what making it cost; the functions
 * whose answer can be far larger than their arguments pay for it before making it).
 */
export function callBuiltin(name: string, args: FeelValue[], env: Env, names?: string[]): FeelValue {
  let steps = 1;
  for (const arg of args) steps += sizeOf(arg);
  env.budget.spend(steps);
  const answer = call(name, args, env, names);
  env.budget.spend(sizeOf(answer));
  return answer;
}

function call(name: string, args: FeelValue[], env: Env, names?: string[]): FeelValue {
  const builtin = builtins.get(name)!;
  if (!names) {
    if (!builtin.params.some((params) => arityFits(params, args.length)))
      return note(env, `${name} does not take ${args.length} argument${args.length === 1 ? '' : 's'}`);
    return builtin.impl(args, env);
  }
  const overload = builtin.params.find(
    (params) => names.every((n) => params.some((p) => bare(p) === n)) && params.every((p) => p.endsWith('?') || names.includes(bare(p))),
  );
  if (!overload) return note(env, `${name} takes no parameters named ${names.join(', ')}`);
  const positional = overload.map((param) => {
    const i = names.indexOf(bare(param));
    return i < 0 ? null : args[i]!;
  });
  // Optional parameters not named are left out, not passed as null.
  while (positional.length > names.length && overload[positional.length - 1]!.endsWith('?') && !names.includes(bare(overload[positional.length - 1]!)))
    positional.pop();
  return builtin.impl(positional, env);
}

function arityFits(params: readonly string[], count: number): boolean {
  if (params[params.length - 1]?.endsWith('...')) return count >= params.length;
  const required = params.filter((p) => !p.endsWith('?')).length;
  return count >= required && count <= params.length;
}

/** The names of every built-in, for the parser (names with spaces) and for messages. */
export const builtinNames = [...builtins.keys()];
