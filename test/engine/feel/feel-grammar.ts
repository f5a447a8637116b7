/**
 * The generators of the feelin parity tests (`./feelin-parity.test.ts`): random
 * values of every FEEL type, FEEL text for them, a small typed grammar of
 * expressions and unary tests, and the two engines run side by side. Known,
 * deliberate differences between the engines are kept out of the grammar
 * where they would arise, each marked "Exclusion:" with its reason.
 */
import fc from 'fast-check';
import { duration as feelinDuration, evaluate as feelinEvaluate, parseDate, parseDateTime, parseTime, unaryTest as feelinUnaryTest } from 'feelin';
import { compileExpression, compileUnaryTests, rootEnv } from '../../../lib/engine/feel/compile.ts';
import { parseExpression, parseUnaryTests } from '../../../lib/engine/feel/parse.ts';
import { FeelDate, FeelDateTime, FeelDuration, FeelTime } from '../../../lib/engine/feel/temporal.ts';
import { compare, isContext, toPlain, type FeelContext, type FeelValue } from '../../../lib/engine/feel/values.ts';
import { clock } from './helpers.ts';

// ---------------------------------------------------------------------------
// Running both engines

/** JSON form, as the service returns values: temporal values as ISO text, -0 as 0, non-finite numbers as null. */
export const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

/** A value of ours as feelin holds it: its own temporal classes, built from the same ISO text. */
function toFeelin(value: FeelValue): unknown {
  if (value instanceof FeelDate) return parseDate(value.toString());
  if (value instanceof FeelDateTime) return parseDateTime(value.toString());
  if (value instanceof FeelTime) return parseTime(value.toString());
  if (value instanceof FeelDuration) return feelinDuration(value.toString());
  if (Array.isArray(value)) return value.map(toFeelin);
  if (isContext(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toFeelin(v)]));
  return value;
}

const feelinVars = (vars: FeelContext) => Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, toFeelin(v)]));

export function ours(text: string, vars: FeelContext): unknown {
  return asJson(toPlain(compileExpression(parseExpression(text, Object.keys(vars)))(rootEnv(vars, { clock }))));
}

export function theirs(text: string, vars: FeelContext): unknown {
  return asJson(feelinEvaluate(text, feelinVars(vars)).value);
}

export function oursMatch(tests: string, input: FeelValue, vars: FeelContext): boolean {
  return compileUnaryTests(parseUnaryTests(tests, Object.keys(vars)))(input, rootEnv(vars, { clock }));
}

/** A rule matches only on true: feelin may say null for a test it cannot decide, which is no match, as our false is. */
export function theirsMatch(tests: string, input: FeelValue, vars: FeelContext): boolean {
  return feelinUnaryTest(tests, { ...feelinVars(vars), '?': toFeelin(input) }).value === true;
}

// ---------------------------------------------------------------------------
// Zones

/**
 * How the date-times and times of one case carry zones.
 *
 * Exclusion: local and zoned values are never mixed in one case. DMN 1.5 (10.3.2.3.4-5) makes a local
 * date-time or time "only sometimes comparable" with a zoned one (XML Schema): ours gives null, feelin
 * anchors local values in UTC.
 * Exclusion: date-times (and times) are subtracted only when all of the case's share one offset. feelin
 * subtracts their wall clocks, ignoring the offsets (`10:00:00Z - 10:00:00+01:00` is PT0S for feelin, PT1H
 * for DMN 1.5).
 * Exclusion: no days-and-time duration is added to a date-time with a named zone. feelin adds to the wall
 * clock, so across a daylight-saving change it is an hour off DMN 1.5's exact durations; temporal.test.ts
 * covers those cases.
 * Exclusion: no @UTC: ours keeps the zone name as written, feelin writes Z.
 */
export interface Zones {
  /** The suffixes date-times take: '' for local ones. */
  dateTimes: string[];
  /** The suffixes times take: fixed offsets only, as a time with a named zone takes the offset of the day it is evaluated on. */
  times: string[];
  /** Whether date-times and times may be subtracted: when they all share one offset. */
  subtract: boolean;
  /** Whether days-and-time durations may be added to date-times: when no zone is named. */
  addDurations: boolean;
}

const oneZone = (zone: string): Zones => ({ dateTimes: [zone], times: [zone], subtract: true, addDurations: true });
const offsets = ['Z', '+01:00', '-05:30', '+14:00'];
export const zoneModes: Zones[] = [
  oneZone(''),
  oneZone('Z'),
  oneZone('+01:00'),
  oneZone('-05:30'),
  { dateTimes: offsets, times: offsets, subtract: false, addDurations: true },
  { dateTimes: ['@Europe/Berlin', '@America/New_York', 'Z', '+01:00'], times: ['Z', '+01:00'], subtract: false, addDurations: false },
];
export const zonesArb = fc.constantFrom(...zoneModes);

// ---------------------------------------------------------------------------
// Values

const smallInt = fc.integer({ min: -10, max: 10 });
/**
 * Numbers whose fractions are eighths: a double holds them and their sums and
 * products exactly, as the decimals do. Exclusion: no other fractions, since
 * feelin computes in doubles (`191.83 + 65` is 256.83000000000004 there, 256.83
 * in DMN's decimals); the decimal arithmetic is checked against decimal.js in
 * test/decimal.
 */
const num = fc.oneof(
  smallInt,
  fc.integer({ min: -1000, max: 1000 }),
  fc.integer({ min: -80_000, max: 80_000 }).map((n) => n / 8),
  fc.constantFrom(0, 0.5, -0.25, 1_000_000),
);
/** Characters within the Basic Multilingual Plane, each one UTF-16 unit (no surrogates). */
const bmpChar = fc.integer({ min: 0xa0, max: 0xd7ff }).map((c) => String.fromCharCode(c));
const strBmp = fc.oneof(
  fc.constantFrom('', 'a', 'ab', 'abc', 'gold', 'silver', 'Gold', 'a"b', 'back\\slash', 'ünï', 'straße', 'line\nbreak', 'tab\there', '1', 'true'),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: bmpChar, maxLength: 4 }),
);
/** Strings, with characters beyond the BMP (two UTF-16 units each) and control characters. */
const str = fc.oneof(strBmp, fc.constantFrom('😀x', 'a😀'), fc.string({ unit: 'grapheme', maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 4 }));
const bool = fc.boolean();

const dateArb = fc.oneof(
  fc.integer({ min: -25_000, max: 50_000 }).map((day) => FeelDate.fromDay(day)),
  fc.constantFrom('2024-02-29', '2025-01-31', '2025-03-30', '2025-10-26', '2025-12-31').map((s) => FeelDate.parse(s)!),
);

const two = (n: number) => String(n).padStart(2, '0');
const timeText = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom('', '', '', '.5', '.125'))
  .map(([h, m, s, fraction]) => `${two(h)}:${two(m)}:${two(s)}${fraction}`);

const dateTimeArb = (zones: Zones) => fc.tuple(dateArb, timeText, fc.constantFrom(...zones.dateTimes)).map(([d, t, z]) => FeelDateTime.parse(`${d}T${t}${z}`)!);
const timeArb = (zones: Zones) => fc.tuple(timeText, fc.constantFrom(...zones.times)).map(([t, z]) => FeelTime.parse(`${t}${z}`)!);

const daysTimeArb = fc
  .oneof(
    fc.integer({ min: -10 * 86_400, max: 10 * 86_400 }),
    fc.integer({ min: -20, max: 20 }).map((days) => days * 86_400),
    fc.integer({ min: -100, max: 100 }).map((n) => n / 2),
  )
  .map((seconds) => FeelDuration.daysTime(seconds));
const wholeDaysArb = fc.integer({ min: -400, max: 400 }).map((days) => FeelDuration.daysTime(days * 86_400));
const yearsMonthsArb = fc.integer({ min: -50, max: 50 }).map((months) => FeelDuration.yearsMonths(months));

const numList = fc.array(num, { maxLength: 5 });
const strList = fc.array(str, { maxLength: 4 });
const person = fc.record({ name: str, age: fc.integer({ min: 0, max: 99 }) });
const record = fc.record({ a: num, b: str, ns: numList });

/** The kinds of value an input or a variable may be; the unary tests below are chosen to fit the input's. */
export type Kind = 'number' | 'string' | 'boolean' | 'null' | 'date' | 'dateTime' | 'time' | 'daysTime' | 'yearsMonths' | 'list' | 'context';
const kinds: Kind[] = ['number', 'string', 'boolean', 'null', 'date', 'dateTime', 'time', 'daysTime', 'yearsMonths', 'list', 'context'];
/** Kinds with an order: DMN 1.5 orders no booleans, lists or contexts. */
const ordered: Kind[] = ['number', 'string', 'date', 'dateTime', 'time', 'daysTime', 'yearsMonths'];

function scalarOf(kind: Kind, zones: Zones): fc.Arbitrary<FeelValue> {
  switch (kind) {
    case 'number':
      return num;
    case 'string':
      return str;
    case 'boolean':
      return bool;
    case 'null':
      return fc.constant(null);
    case 'date':
      return dateArb;
    case 'dateTime':
      return dateTimeArb(zones);
    case 'time':
      return timeArb(zones);
    case 'daysTime':
      return daysTimeArb;
    case 'yearsMonths':
      return yearsMonthsArb;
    case 'context':
      return fc.oneof(person, record) as fc.Arbitrary<FeelValue>;
    case 'list':
      // Exclusion: no list of one item. DMN 1.5 converts a list of one to its item only when binding a
      // parameter (10.3.2.9.4), so `[1] = 1` is null (no match); feelin unwraps it in = and in unary tests too.
      return fc
        .oneof(
          fc.array(fc.oneof(...ordered.map((k) => scalarOf(k, zones)), bool, fc.constant(null)), { maxLength: 4 }),
          numList,
          fc.array(person, { maxLength: 3 }) as fc.Arbitrary<FeelValue>,
        )
        .filter((list) => (list as FeelValue[]).length !== 1);
  }
}

/** Any value: scalars of every type, lists (nested and mixed) and contexts. */
export const anyValue = (zones: Zones): fc.Arbitrary<FeelValue> => fc.constantFrom(...kinds).chain((kind) => scalarOf(kind, zones));

/** The variables in scope: fixed names, one type each, random values, so that the grammar can use each where its type fits. */
const varsArb = (zones: Zones): fc.Arbitrary<FeelContext> =>
  fc.record({
    n: num,
    m: num,
    s: str,
    t: str,
    b: bool,
    z: fc.constant(null),
    ns: numList,
    ss: strList,
    c: record,
    people: fc.array(person, { maxLength: 4 }),
    d: dateArb,
    e: dateArb,
    dt: dateTimeArb(zones),
    et: dateTimeArb(zones),
    tm: timeArb(zones),
    dur: daysTimeArb,
    ym: yearsMonthsArb,
    'date of birth': dateArb,
    'monthly income': num,
  }) as fc.Arbitrary<FeelContext>;

/** Names in scope by kind. */
const names: Partial<Record<Kind, string[]>> = {
  number: ['n', 'm', 'c.a', 'monthly income'],
  string: ['s', 't', 'c.b'],
  date: ['d', 'e', 'date of birth'],
  dateTime: ['dt', 'et'],
  time: ['tm'],
  daysTime: ['dur'],
  yearsMonths: ['ym'],
};

// ---------------------------------------------------------------------------
// Values as FEEL text

// Exclusion: no \u escapes in string literals. feelin reads as many hex digits as follow (`"\u00e9b"` is "ປ"
// for feelin, "éb" by the DMN 1.5 grammar, \u and four digits). Control characters are written as they are.
const escapes: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escapeString = (s: string) => `"${s.replace(/[\\"\n\r\t]/g, (c) => escapes[c]!)}"`;

const numText = (n: number) => String(n);
const isTemporal = (v: FeelValue): v is FeelDate | FeelDateTime | FeelTime | FeelDuration =>
  v instanceof FeelDate || v instanceof FeelDateTime || v instanceof FeelTime || v instanceof FeelDuration;

export function literal(value: FeelValue): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return numText(value);
  if (typeof value === 'string') return escapeString(value);
  if (typeof value === 'boolean') return String(value);
  if (isTemporal(value)) return `@"${value}"`;
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  return `{${Object.entries(value as FeelContext)
    .map(([k, v]) => `${escapeString(k)}: ${literal(v)}`)
    .join(', ')}}`;
}

/** The same temporal value written with its conversion function instead of @. */
function constructorCall(value: FeelDate | FeelDateTime | FeelTime | FeelDuration): string {
  const fn = value instanceof FeelDate ? 'date' : value instanceof FeelDateTime ? 'date and time' : value instanceof FeelTime ? 'time' : 'duration';
  return `${fn}("${value}")`;
}

/** A literal, or for a temporal value either of its two spellings. */
const spelled = (value: FeelValue): fc.Arbitrary<string> =>
  isTemporal(value) ? fc.constantFrom(literal(value), constructorCall(value)) : fc.constant(literal(value));

/** Text of a value of `kind`: a literal or a variable of that kind. */
const textOf = (kind: Kind, zones: Zones): fc.Arbitrary<string> => {
  const lit = scalarOf(kind, zones).chain(spelled);
  const vars = names[kind];
  return vars ? fc.oneof(lit, fc.constantFrom(...vars)) : lit;
};

/** Two literals of `kind` in order, for the ends of a range. Exclusion: no range whose start is above its end. DMN 1.5 says it holds nothing; feelin swaps its ends. */
const orderedPair = (kind: Kind, zones: Zones): fc.Arbitrary<[string, string]> =>
  fc.tuple(scalarOf(kind, zones), scalarOf(kind, zones)).chain(([a, b]) => {
    const [lo, hi] = compare(a, b)! <= 0 ? [a, b] : [b, a];
    return fc.tuple(spelled(lo), spelled(hi));
  });

// ---------------------------------------------------------------------------
// The grammar

type Text = fc.Arbitrary<string>;

/** `tpl\`(${a} + ${b})\``: FEEL text from arbitraries of its parts. */
const tpl = (strings: TemplateStringsArray, ...parts: Text[]): Text =>
  fc.tuple(...parts).map((values) => strings.reduce((text, s, i) => text + s + (values[i] ?? ''), ''));
const one = (...texts: string[]) => fc.constantFrom(...texts);
const anyOf = (...arbitraries: Text[]) => fc.oneof(...arbitraries);
const ordering = one('<', '<=', '>', '>=');
const comparison = one('<', '<=', '>', '>=', '=', '!=');
const range = (pair: fc.Arbitrary<[string, string]>) =>
  fc.tuple(one('[', '(', ']'), pair, one(']', ')', '[')).map(([open, [lo, hi], close]) => `${open}${lo}..${hi}${close}`);

/** FEEL text by type, to a depth; every rule is built once per depth. */
export function grammar(zones: Zones) {
  const memo = new Map<string, Text>();
  const rule = (name: string, depth: number, make: (d: number) => Text): Text => {
    const key = `${name}${depth}`;
    let made = memo.get(key);
    if (!made) {
      made = make(depth - 1);
      memo.set(key, made);
    }
    return made;
  };

  const numLit = num.map(numText);
  const strLit = str.map(escapeString);
  /** `"text", -k`: a string within the BMP and a position from its end, within it. */
  const fromEnd = strBmp.filter((s) => s.length > 0).chain((s) => fc.integer({ min: -s.length, max: -1 }).map((k) => `${escapeString(s)}, ${k}`));
  const lit = (kind: Kind) => scalarOf(kind, zones).chain(spelled);
  const wholeDaysLit = wholeDaysArb.chain(spelled);
  const start = fc.integer({ min: 1, max: 4 }).map(String);
  const index = fc.integer({ min: -4, max: 4 }).map(String);
  const scale = fc.integer({ min: 0, max: 3 }).map(String);
  const pattern = one('"^a"', '"b$"', '"[0-9]+"', '"^$"', '"."', '"ü"', '"A|b"');
  const typeName = one(
    'number',
    'string',
    'boolean',
    'date',
    'date and time',
    'time',
    'days and time duration',
    'years and months duration',
    'list',
    'context',
    'Any',
    'Null',
  );
  const pair = (kind: Kind) => orderedPair(kind, zones).map(([lo, hi]) => `${lo} and ${hi}`);

  const N = (depth: number): Text =>
    rule('N', depth, (d) => {
      // Exclusion: no `.second` of a value with a fraction of a second: feelin drops the fraction.
      const leaves = [
        numLit,
        numLit,
        one(
          'n',
          'm',
          'c.a',
          'monthly income',
          'count(ns)',
          'string length(s)',
          'd.year',
          'd.month',
          'd.day',
          'dt.hour',
          'people[1].age',
          'ym.months',
          'dur.days',
        ),
      ];
      if (d < 0) return anyOf(...leaves);
      return anyOf(
        ...leaves,
        tpl`(${N(d)} + ${N(d)})`,
        tpl`(${N(d)} - ${N(d)})`,
        tpl`${N(d)} - -${numLit}`,
        tpl`(${N(d)} * ${N(d)})`,
        tpl`(${N(d)} / ${N(d)})`,
        // Exclusion: no negative exponent, and a fraction only of a number not below 0: `0 ** -1` and `-3 ** 0.5` are
        // null for DMN 1.5 (FEEL has no infinity or NaN), Infinity and NaN for feelin, which then compare.
        tpl`(${N(d)} ** ${one('0', '1', '2', '3')})`,
        tpl`(abs(${N(d)}) ** 0.5)`,
        tpl`-${N(d)}`,
        tpl`(if ${B(d)} then ${N(d)} else ${N(d)})`,
        tpl`floor(${N(d)})`,
        tpl`ceiling(${N(d)})`,
        // Exclusion: floor and ceiling to a scale of 0 only: feelin scales the double, so `floor(627.93, 2)` is 627.92;
        // DMN 1.5 numbers are decimals (627.93).
        tpl`floor(${N(d)}, 0)`,
        tpl`ceiling(${N(d)}, 0)`,
        tpl`round half up(${N(d)}, ${scale})`,
        tpl`round half up(n: ${N(d)}, scale: ${scale})`,
        tpl`abs(${N(d)})`,
        tpl`min(${NL(d)})`,
        tpl`max(${NL(d)})`,
        tpl`min(${N(d)}, ${N(d)})`,
        tpl`max(${N(d)}, ${N(d)}, ${N(d)})`,
        tpl`sum(${NL(d)})`,
        tpl`sum(${N(d)}, ${N(d)})`,
        tpl`mean(${NL(d)})`,
        tpl`count(${anyOf(NL(d), SL(d), N(d))})`,
        tpl`string length(${S(d)})`,
        tpl`${NL(d)}[${index}]`,
        tpl`{a: ${N(d)}, b: a + ${N(d)}}.b`,
        tpl`${DT(d)}.${one('year', 'month', 'day', 'hour', 'minute', 'weekday')}`,
      );
    });

  // Exclusion: no substring from position 0 (DMN 1.5 leaves it undefined: ours gives "", feelin the whole string).
  // Exclusion: a negative position (from the end) only within the string, and only of strings within the BMP:
  // feelin counts UTF-16 units from the end, and takes a position before the start modulo the length
  // (`substring("foobar", -10)` is "obar"; ours, as XPath fn:substring, "foobar").
  const S = (depth: number): Text =>
    rule('S', depth, (d) => {
      const leaves = [strLit, strLit, one('s', 't', 'c.b', 'people[1].name')];
      if (d < 0) return anyOf(...leaves);
      return anyOf(
        ...leaves,
        tpl`(${S(d)} + ${S(d)})`,
        tpl`upper case(${S(d)})`,
        tpl`lower case(${S(d)})`,
        tpl`substring(${S(d)}, ${start})`,
        tpl`substring(${S(d)}, ${start}, ${fc.integer({ min: 0, max: 4 }).map(String)})`,
        tpl`substring(${fromEnd})`,
        tpl`substring(${fromEnd}, ${fc.integer({ min: 0, max: 4 }).map(String)})`,
        tpl`substring(string: ${S(d)}, start position: ${start})`,
        tpl`(if ${B(d)} then ${S(d)} else ${S(d)})`,
        tpl`${SL(d)}[${index}]`,
        tpl`{p: ${S(d)}, q: p + ${S(d)}}.q`,
      );
    });

  const B = (depth: number): Text =>
    rule('B', depth, (d) => {
      const leaves = [one('true', 'false', 'b', 'z = null', 'n = null', 'null')];
      if (d < 0) return anyOf(...leaves);
      return anyOf(
        ...leaves,
        tpl`${N(d)} ${comparison} ${N(d)}`,
        tpl`${S(d)} ${comparison} ${S(d)}`,
        tpl`${D(d)} ${comparison} ${D(d)}`,
        tpl`${DT(d)} ${comparison} ${DT(d)}`,
        tpl`${T(d)} ${comparison} ${T(d)}`,
        tpl`${DUR(d)} ${comparison} ${DUR(d)}`,
        tpl`${YM(d)} ${comparison} ${YM(d)}`,
        // Exclusion: lists compared with = have one length. DMN 1.5 says lists of different lengths are not equal
        // (false); feelin says null.
        tpl`[${N(d)}, ${N(d)}] ${one('=', '!=')} [${N(d)}, ${N(d)}]`,
        tpl`${C(d)} ${one('=', '!=')} ${C(d)}`,
        Equality(d),
        tpl`(${B(d)} and ${B(d)})`,
        tpl`(${B(d)} or ${B(d)})`,
        tpl`${B(d)} and ${B(d)} or ${B(d)}`,
        tpl`not(${B(d)})`,
        tpl`(if ${B(d)} then ${B(d)} else ${B(d)})`,
        tpl`${N(d)} between ${pair('number')}`,
        tpl`${S(d)} between ${pair('string')}`,
        tpl`${D(d)} between ${pair('date')}`,
        // Exclusion: `x in <test>` stands in parentheses when it is not a list of tests. lezer-feel, the grammar of
        // both engines, lets the test swallow a following and/or (`x in [1..2] and y` as `x in ([1..2] and y)`):
        // ours re-associates as DMN 1.5's precedence has it (`(x in [1..2]) and y`), feelin does not (its issue #74).
        tpl`(${N(d)} in ${numberTest})`,
        // Exclusion: no list among several tests in parentheses: feelin compares `2 in (3, [1, 2])` with the list (false).
        tpl`${N(d)} in (${numberTestNoList}, ${numberTestNoList})`,
        tpl`${S(d)} in (${S(d)}, ${S(d)})`,
        tpl`(${S(d)} in ${SL(d)})`,
        tpl`(${D(d)} in ${range(orderedPair('date', zones))})`,
        tpl`contains(${S(d)}, ${S(d)})`,
        tpl`starts with(${S(d)}, ${S(d)})`,
        tpl`ends with(${S(d)}, ${S(d)})`,
        tpl`starts with(string: ${S(d)}, match: ${S(d)})`,
        tpl`matches(${S(d)}, ${pattern})`,
        tpl`list contains(${NL(d)}, ${N(d)})`,
        tpl`list contains(${SL(d)}, ${S(d)})`,
        tpl`some x in ${NL(d)} satisfies x > ${N(d)}`,
        tpl`every x in ${NL(d)} satisfies x ${ordering} ${N(d)}`,
        tpl`some p in people satisfies p.age ${ordering} ${N(d)}`,
        tpl`${A(d)} instance of ${typeName}`,
      );
    });

  const numberTestNoList = anyOf(range(orderedPair('number', zones)), tpl`${ordering} ${numLit}`, numLit);
  const numberTest = anyOf(numberTestNoList, tpl`[${numLit}, ${numLit}]`);

  // Exclusion: only lists without null items are filtered: feelin drops null items before the condition
  // (`[null, 1][item = null]` is [] for feelin, [null] by DMN 1.5).
  const NLplain = anyOf(one('ns', 'c.ns', '[]', 'people.age'), numList.map(literal), tpl`append(ns, ${numLit})`);
  const SLplain = anyOf(one('ss', '[]'), strList.map(literal));

  const NL = (depth: number): Text =>
    rule('NL', depth, (d) => {
      const leaves = [one('ns', 'c.ns', '[]', 'people.age'), numList.map(literal)];
      if (d < 0) return anyOf(...leaves);
      return anyOf(
        ...leaves,
        tpl`[${N(d)}, ${N(d)}, ${N(d)}]`,
        tpl`${NLplain}[item ${ordering} ${N(d)}]`,
        tpl`append(${NL(d)}, ${N(d)})`,
        tpl`append(${NL(d)}, ${N(d)}, ${N(d)})`,
        tpl`distinct values(${NL(d)})`,
        tpl`for x in ${NL(d)} return x * ${N(d)}`,
        // Exclusion: no range to iterate with an end below 1: feelin gives null for `for i in 1..0 return i`.
        tpl`for i in ${fc.integer({ min: 1, max: 5 }).map(String)}..${fc.integer({ min: 1, max: 5 }).map(String)} return i`,
        tpl`people[age ${ordering} ${N(d)}].age`,
        tpl`(if ${B(d)} then ${NL(d)} else ${NL(d)})`,
      );
    });

  const SL = (depth: number): Text =>
    rule('SL', depth, (d) => {
      const leaves = [one('ss', 'people.name', '[]'), strList.map(literal)];
      if (d < 0) return anyOf(...leaves);
      return anyOf(
        ...leaves,
        tpl`[${S(d)}, ${S(d)}]`,
        tpl`append(${SL(d)}, ${S(d)})`,
        tpl`distinct values(${SL(d)})`,
        tpl`${SLplain}[item != ${S(d)}]`,
        tpl`for x in ${SL(d)} return upper case(x)`,
        tpl`people[name = ${S(d)}].name`,
      );
    });

  // Exclusion: a date plus or minus a days-and-time duration uses whole days only. DMN 1.5 keeps the result
  // a date; feelin turns the date into a UTC date and time when the duration has hours.
  const D = (depth: number): Text =>
    rule('D', depth, (d) => {
      const leaves = [lit('date'), one('d', 'e', 'date of birth')];
      if (d < 0) return anyOf(...leaves);
      return anyOf(
        ...leaves,
        // Exclusion: no year before 1 (years from 100 on, then at most 4 years earlier): ours writes the year as XML
        // Schema does (-0001), feelin as Temporal does (-000001).
        tpl`date(${fc.integer({ min: 100, max: 2999 }).map(String)}, ${fc.integer({ min: 1, max: 12 }).map(String)}, ${fc.integer({ min: 1, max: 31 }).map(String)})`,
        tpl`(${D(d)} ${one('+', '-')} ${wholeDaysLit})`,
        tpl`(${D(d)} ${one('+', '-')} ${YM(d)})`,
        tpl`date(${DT(d)})`,
      );
    });

  const DT = (depth: number): Text =>
    rule('DT', depth, (d) => {
      const leaves = [lit('dateTime'), one('dt', 'et')];
      if (d < 0) return anyOf(...leaves);
      return anyOf(
        ...leaves,
        ...(zones.addDurations ? [tpl`(${DT(d)} ${one('+', '-')} ${DUR(d)})`] : []),
        tpl`(${DT(d)} ${one('+', '-')} ${YM(d)})`,
        tpl`date and time(${D(d)}, ${T(d)})`,
        tpl`date and time(${dateTimeArb(zones).map((v) => `"${v}"`)})`,
      );
    });

  const T = (depth: number): Text =>
    rule('T', depth, (d) => {
      const leaves = [lit('time'), one('tm')];
      if (d < 0) return anyOf(...leaves);
      return anyOf(...leaves, tpl`(${T(d)} ${one('+', '-')} ${DUR(d)})`);
    });

  // Exclusion: no duration * number or number * duration: feelin does not implement it (null); DMN 1.5 does.
  // Exclusion: no negated duration (`-dur`): feelin gives null; DMN 1.5 negates it.
  const DUR = (depth: number): Text =>
    rule('DUR', depth, (d) => {
      const leaves = [lit('daysTime'), one('dur')];
      if (d < 0) return anyOf(...leaves);
      return anyOf(
        ...leaves,
        tpl`(${DUR(d)} ${one('+', '-')} ${DUR(d)})`,
        tpl`(${D(d)} - ${D(d)})`,
        ...(zones.subtract ? [tpl`(${DT(d)} - ${DT(d)})`, tpl`(${T(d)} - ${T(d)})`] : []),
      );
    });

  // Exclusion: no `years and months duration(from, to)`: feelin 8.2 adds the remaining days to the result (P1Y1M27D).
  const YM = (depth: number): Text =>
    rule('YM', depth, (d) => {
      const leaves = [lit('yearsMonths'), one('ym')];
      if (d < 0) return anyOf(...leaves);
      return anyOf(...leaves, tpl`(${YM(d)} ${one('+', '-')} ${YM(d)})`);
    });

  const C = (depth: number): Text =>
    rule('C', depth, (d) => {
      const leaves = [one('{}', 'people[1]')];
      if (d < 0) return anyOf(...leaves);
      return anyOf(...leaves, tpl`{a: ${N(d)}, "b c": ${S(d)}, e: a + ${N(d)}}`, tpl`{x: ${NL(d)}, y: count(x), z: {w: y}}.z`);
    });

  /** Values of one type each but no list: they may be compared with = whatever their types. */
  const scalars = (d: number) => ({
    number: N(d),
    string: S(d),
    date: D(d),
    dateTime: DT(d),
    time: T(d),
    daysTime: DUR(d),
    yearsMonths: YM(d),
    context: C(d),
    other: one('z', 'null', 'b'),
  });
  const Scalar = (depth: number): Text => rule('Scalar', depth, (d) => anyOf(...Object.values(scalars(d + 1))));
  /**
   * Two scalars compared with = or !=, of any two types but the two kinds of duration.
   * Exclusion: a years-and-months duration is never compared with a days-and-time one: DMN 1.5 makes them two
   * types (null); feelin compares them as durations (`@"P8M" != @"P19D"` is true).
   */
  const Equality = (depth: number): Text =>
    rule('Equality', depth, (d) => {
      const rules = scalars(d + 1);
      const keys = Object.keys(rules) as (keyof typeof rules)[];
      return fc
        .tuple(fc.constantFrom(...keys), fc.constantFrom(...keys))
        .filter(([a, b]) => a === b || ![a, b].every((k) => k === 'daysTime' || k === 'yearsMonths'))
        .chain(([a, b]) => tpl`${rules[a]} ${one('=', '!=')} ${rules[b]}`);
    });
  const nonTemporal = (depth: number): Text =>
    rule('nonTemporal', depth, (d) => anyOf(N(d + 1), S(d + 1), NL(d + 1), SL(d + 1), C(d + 1), one('z', 'null', 'b', 'people')));

  /**
   * Any type, and types mixed on purpose: arithmetic of values of different types.
   * Exclusion: no ordering (<, <=, >, >=) of values of different types: DMN 1.5 says null, feelin false, or
   * true for some pairs, or an error for booleans.
   * Exclusion: mixed arithmetic (+ and -) has one operand that is not temporal: feelin computes time plus a
   * years-and-months duration or date minus time, which DMN 1.5 leaves undefined (null); and it has no * or /,
   * so that no duration meets a number (see DUR).
   */
  const A = (depth: number): Text =>
    rule('A', depth, (d) => {
      const typed = [Scalar(d + 1), NL(d + 1), SL(d + 1), one('people')];
      if (d < 0) return anyOf(...typed);
      return anyOf(
        ...typed,
        tpl`(${nonTemporal(d)} ${one('+', '-')} ${A(d)})`,
        tpl`(${A(d)} ${one('+', '-')} ${nonTemporal(d)})`,
        tpl`[${A(d)}, ${A(d)}]`,
        tpl`(if ${B(d)} then ${A(d)} else ${A(d)})`,
      );
    });

  /** An expression of any type, booleans the most often, as rules mostly compute those. */
  const top = (depth: number): Text =>
    rule('top', depth, (d) =>
      anyOf(
        B(d + 1),
        B(d + 1),
        B(d + 1),
        N(d + 1),
        N(d + 1),
        S(d + 1),
        NL(d + 1),
        SL(d + 1),
        D(d + 1),
        DT(d + 1),
        T(d + 1),
        DUR(d + 1),
        YM(d + 1),
        C(d + 1),
        A(d + 1),
      ),
    );

  return { top, B, NL, lit, textOf: (kind: Kind) => textOf(kind, zones) };
}

// ---------------------------------------------------------------------------
// Unary tests

/** Unary tests fit for an input of `kind`: equality tests of every type, ordering tests of the input's own type only. */
export function unaryTestsGrammar(zones: Zones, kind: Kind) {
  const g = grammar(zones);
  const smallNum = fc.oneof(smallInt, num).map(numText);
  // Inputs that are null are compared with values of every ordered kind: all of those orderings are null.
  const orderKinds = ordered.includes(kind) ? [kind] : kind === 'null' ? ordered : [];
  // Exclusion: no duration is compared with one of the other kind (see Equality in the grammar).
  const otherDuration = kind === 'daysTime' ? 'yearsMonths' : kind === 'yearsMonths' ? 'daysTime' : null;
  const anyKindValue = fc.constantFrom(...kinds.filter((k) => k !== 'list' && k !== 'context' && k !== otherDuration)).chain((k) => g.lit(k));
  const plainValue = fc.constantFrom<Kind>('number', 'string', 'boolean', 'null').chain((k) => g.lit(k));
  const equalityTests = [
    anyKindValue,
    one('null'),
    tpl`${one('=', '!=')} ${anyKindValue}`,
    // Exclusion: no dates, times or durations in a list literal test: feelin looks them up by identity, so
    // `[@"2024-02-29"]` does not match the date 2024-02-29 (nor does `list contains`); DMN 1.5 compares with =.
    tpl`[${plainValue}, ${plainValue}]`,
    one('n', 's', 'ns', 'ss', 'd', 'b', 'z', 'people.name', 'c'),
    tpl`? = ${anyKindValue}`,
    tpl`string length(?) ${ordering} ${smallInt.map(String)}`,
    tpl`starts with(?, ${g.lit('string')})`,
    tpl`list contains(${g.NL(0)}, ?)`,
    tpl`count(?) > 1`,
    g.B(0),
  ];
  const orderingTests = orderKinds.flatMap((k) => [
    tpl`${ordering} ${g.textOf(k)}`,
    range(orderedPair(k, zones)),
    tpl`? in ${range(orderedPair(k, zones))}`,
    tpl`? ${ordering} ${g.textOf(k)} and ? ${ordering} ${g.textOf(k)}`,
  ]);
  if (kind === 'number') orderingTests.push(one('[n..n + 5]', '(c.a - 1..c.a + 1]'), tpl`? ${ordering} ${smallNum}`);
  if (kind === 'context') orderingTests.push(tpl`?.age ${ordering} ${smallNum}`);
  const positive = anyOf(...equalityTests, ...orderingTests, ...orderingTests);
  const positives = fc.array(positive, { minLength: 1, maxLength: 3 }).map((tests) => tests.join(', '));
  return anyOf(one('-'), positives, positives, tpl`not(${positives})`);
}

/** Inputs of `kind`: random ones, and often the small values the tests use, so that tests match as often as they miss. */
const inputOf = (kind: Kind, zones: Zones): fc.Arbitrary<FeelValue> => {
  const common: Partial<Record<Kind, fc.Arbitrary<FeelValue>>> = { number: smallInt, string: fc.constantFrom('gold', 'silver', 'a', '') };
  const often = common[kind];
  return often ? fc.oneof(scalarOf(kind, zones), often) : scalarOf(kind, zones);
};

// ---------------------------------------------------------------------------
// Cases

export const expressionCase = zonesArb.chain((zones) => fc.record({ vars: varsArb(zones), text: grammar(zones).top(2) }));

export const unaryCase = fc
  .tuple(zonesArb, fc.constantFrom(...kinds))
  .chain(([zones, kind]) => fc.record({ vars: varsArb(zones), tests: unaryTestsGrammar(zones, kind), input: inputOf(kind, zones) }));
