/**
 * The built-in functions rules reach for (DMN 1.5 chapter 10.3.4): strings,
 * numbers, lists, dates and times; calls by name; the conversions of a list
 * of one to its item and back when binding arguments; and the rule that a
 * wrong argument gives null with a note, never an exception.
 */
import { describe, expect, it } from 'vitest';
import { feel, run } from './helpers.ts';

describe('string functions', () => {
  it('contains, starts with, ends with', () => {
    expect(feel('contains("foobar", "ob")')).toBe(true);
    expect(feel('contains("foobar", "x")')).toBe(false);
    expect(feel('contains("foobar", "")')).toBe(true);
    expect(feel('starts with("foobar", "fo")')).toBe(true);
    expect(feel('starts with("foobar", "bar")')).toBe(false);
    expect(feel('ends with("foobar", "bar")')).toBe(true);
    expect(feel('ends with("foobar", "Bar")')).toBe(false);
  });

  it('upper case and lower case, beyond ASCII', () => {
    expect(feel('upper case("aBc4")')).toBe('ABC4');
    expect(feel('lower case("aBc4")')).toBe('abc4');
    expect(feel('upper case("straße")')).toBe('STRASSE');
    expect(feel('lower case("ÄÖÜ")')).toBe('äöü');
  });

  it('substring from a position, with and without a length', () => {
    expect(feel('substring("foobar", 3)')).toBe('obar');
    expect(feel('substring("foobar", 3, 3)')).toBe('oba');
    expect(feel('substring("foobar", 1, 0)')).toBe('');
    expect(feel('substring("foobar", 5, 10)')).toBe('ar');
    expect(feel('substring("foobar", 7)')).toBe('');
  });

  it('substring from the end with a negative position', () => {
    expect(feel('substring("foobar", -2, 1)')).toBe('a');
    expect(feel('substring("foobar", -3)')).toBe('bar');
  });

  it('substring from before the start counts the length from there, as XPath fn:substring does', () => {
    expect(feel('substring("ab", -3, 2)')).toBe('a');
    expect(feel('substring("ab", -4, 2)')).toBe('');
    expect(feel('substring("foobar", -10)')).toBe('foobar');
  });

  it('substring and string length count characters, not UTF-16 units', () => {
    expect(feel('substring("\\U01F40Eab", 2)')).toBe('ab');
    expect(feel('substring("a😀b", -2)')).toBe('😀b');
    expect(feel('string length("😀x")')).toBe(2);
    expect(feel('string length("foo")')).toBe(3);
    expect(feel('string length("")')).toBe(0);
  });

  it('matches a regular expression, with flags', () => {
    expect(feel('matches("foobar", "^fo*b")')).toBe(true);
    expect(feel('matches("foobar", "^x")')).toBe(false);
    expect(feel('matches("FooBar", "^foo", "i")')).toBe(true);
    expect(feel('matches("a\\nb", "^b$", "m")')).toBe(true);
    expect(feel('matches("ab", "a b", "x")')).toBe(true);
  });

  it('gives null with a note for an invalid pattern or unknown flags', () => {
    expect(run('matches("a", "[")')).toEqual({ value: null, notes: ['"[" is not a valid pattern: a "[" is not closed'] });
    expect(run('matches("a", "a", "g")')).toEqual({ value: null, notes: ['unknown pattern flags "g"'] });
  });

  it('gives null for a null argument, and null with a note for a wrong type', () => {
    expect(run('upper case(null)')).toEqual({ value: null, notes: [] });
    expect(run('contains("abc", null)')).toEqual({ value: null, notes: [] });
    expect(run('upper case(5)')).toEqual({ value: null, notes: ['upper case(number): wrong argument types'] });
    expect(run('starts with(1, "a")')).toEqual({ value: null, notes: ['starts with(number, string): wrong argument types'] });
    expect(run('substring(true, 1)').notes).toEqual(['substring(boolean, number): wrong argument types']);
  });
});

describe('numeric functions', () => {
  it('floor and ceiling, also to a scale', () => {
    expect(feel('floor(1.5)')).toBe(1);
    expect(feel('floor(-1.5)')).toBe(-2);
    expect(feel('ceiling(1.5)')).toBe(2);
    expect(feel('ceiling(-1.5)')).toBe(-1);
    expect(feel('floor(1.56, 1)')).toBe(1.5);
    expect(feel('ceiling(1.51, 1)')).toBe(1.6);
    expect(feel('floor(627.93, 2)')).toBe(627.93);
  });

  it('round half up rounds halves away from zero, on the decimal as written', () => {
    expect(feel('round half up(2.5, 0)')).toBe(3);
    expect(feel('round half up(-2.5, 0)')).toBe(-3);
    expect(feel('round half up(2.4, 0)')).toBe(2);
    expect(feel('round half up(2.675, 2)')).toBe(2.68);
    expect(feel('round half up(1.005, 2)')).toBe(1.01);
    expect(feel('round half up(1234.5, -2)')).toBe(1200);
  });

  it('round half up of a value already at the scale drops the noise of doubles', () => {
    expect(feel('round half up(-505.3 + 175.09, 3)')).toBe(-330.21);
  });

  it('round half up needs its scale', () => {
    expect(run('round half up(2.5)')).toEqual({ value: null, notes: ['round half up does not take 1 argument'] });
  });

  it('abs of numbers and durations', () => {
    expect(feel('abs(-3.5)')).toBe(3.5);
    expect(feel('abs(3)')).toBe(3);
    expect(feel('abs(@"-P1DT2H")')).toBe('P1DT2H');
    expect(run('abs("x")')).toEqual({ value: null, notes: ['abs(string): wrong argument types'] });
  });

  it('min and max of a list or of several arguments', () => {
    expect(feel('min([3, 1, 2])')).toBe(1);
    expect(feel('max(3, 1, 2)')).toBe(3);
    expect(feel('min(-1.5, 0)')).toBe(-1.5);
    expect(feel('max([])')).toBeNull();
  });

  it('min and max of comparable values other than numbers', () => {
    expect(feel('min(["b", "a", "c"])')).toBe('a');
    expect(feel('max(@"2025-01-01", @"2024-06-30")')).toBe('2025-01-01');
  });

  it('min and max of values that cannot be compared give null with a note', () => {
    expect(run('max([1, "a"])')).toEqual({ value: null, notes: ['max: the items cannot be compared'] });
  });

  it('sum and mean', () => {
    expect(feel('sum([1, 2, 3.5])')).toBe(6.5);
    expect(feel('sum(1, 2)')).toBe(3);
    expect(feel('mean([1, 2, 3, 4])')).toBe(2.5);
    expect(feel('mean(10, 20)')).toBe(15);
  });

  it('sum and mean of an empty list are null', () => {
    expect(feel('sum([])')).toBeNull();
    expect(feel('mean([])')).toBeNull();
  });

  it('sum of items that are not all numbers gives null with a note', () => {
    expect(run('sum([1, "2"])')).toEqual({ value: null, notes: ['sum: every item must be a number'] });
    expect(feel('sum([1, null])')).toBeNull();
  });
});

describe('rounding scales', () => {
  it('take every integer scale DMN 1.5 allows: a number already at the scale is itself, however large the scale', () => {
    expect(feel('round up(5.5, 1000)')).toBe(5.5);
    expect(feel('decimal(1.234, 6176)')).toBe(1.234);
    expect(feel('decimal(1.5e-7, 7)')).toBe(2e-7);
    expect(feel('round down(-5.5, -1000)')).toBe(0);
  });

  it('are null outside that range, for a scale that is not an integer, but not for a power of ten no double holds', () => {
    expect(feel('decimal(1.234, 6177)')).toBeNull();
    expect(feel('decimal(1.234, -6112)')).toBeNull();
    expect(feel('decimal(1.5, 1.5)')).toBeNull();
    expect(feel('round half up(1.5, 0.5)')).toBeNull();
    expect(String(feel('round up(5, -1000)'))).toBe('1e+1000');
  });
});

describe('list functions', () => {
  it('list contains compares items with =', () => {
    expect(feel('list contains([1, 2, 3], 2)')).toBe(true);
    expect(feel('list contains([1, 2, 3], 4)')).toBe(false);
    expect(feel('list contains([1, null], null)')).toBe(true);
    expect(feel('list contains([[1], [2]], [2])')).toBe(true);
    expect(feel('list contains([@"2024-02-29"], @"2024-02-29")')).toBe(true);
    expect(feel('list contains(null, 1)')).toBeNull();
  });

  it('count', () => {
    expect(feel('count([1, 2, 3])')).toBe(3);
    expect(feel('count([])')).toBe(0);
    expect(feel('count([[1, 2]])')).toBe(1);
  });

  it('append one or more items, lists as items', () => {
    expect(feel('append([1], 2, 3)')).toEqual([1, 2, 3]);
    expect(feel('append([], [1])')).toEqual([[1]]);
    expect(feel('append([1], null)')).toEqual([1, null]);
  });

  it('distinct values keeps the first of equal items, lists and contexts compared by value', () => {
    expect(feel('distinct values([1, 2, 1, 3, 2])')).toEqual([1, 2, 3]);
    expect(feel('distinct values([[1], [1], {a: 1}, {a: 1}])')).toEqual([[1], { a: 1 }]);
    expect(feel('distinct values([1, 1.0])')).toEqual([1]);
  });
});

describe('list replace and the context functions of DMN 1.5', () => {
  it('list replace puts the new item at a position, counted from the end when negative; null out of range', () => {
    expect(feel('list replace([1, 2, 3], 2, 9)')).toEqual([1, 9, 3]);
    expect(feel('list replace([1, 2, 3], -1, [9])')).toEqual([1, 2, [9]]);
    expect(feel('list replace(list: ["a"], position: 1, newItem: null)')).toEqual([null]);
    expect(feel('list replace([1, 2, 3], 4, 9)')).toBeNull();
    expect(feel('list replace([1, 2, 3], 0, 9)')).toBeNull();
    expect(run('list replace([1], "1", 9)').notes.join()).toMatch(/list replace\(list, string\): wrong argument types/);
  });

  it('context makes a context of key and value entries, the inverse of get entries; null for a key given twice', () => {
    expect(feel('context([{key: "a", value: 1}, {key: "b", value: [2]}])')).toEqual({ a: 1, b: [2] });
    expect(feel('context(get entries({x: 1, y: "z"}))')).toEqual({ x: 1, y: 'z' });
    expect(feel('context({key: "a", value: null})')).toEqual({ a: null });
    expect(feel('context([])')).toEqual({});
    expect(feel('context([{key: "a", value: 1}, {key: "a", value: 2}])')).toBeNull();
    expect(run('context([{key: 1, value: 1}])').notes.join()).toMatch(/each entry is a context with a string "key" and a "value"/);
    expect(feel('context([{key: "__proto__", value: 1}]).__proto__')).toBe(1);
  });

  it('context put adds or replaces an entry, or one down a path of keys; null where the path leads through no context', () => {
    expect(feel('context put({x: 1}, "y", 2)')).toEqual({ x: 1, y: 2 });
    expect(feel('context put({x: 1, y: 2}, "x", 3)')).toEqual({ x: 3, y: 2 });
    expect(feel('context put({x: {y: 1}}, ["x", "z"], 2)')).toEqual({ x: { y: 1, z: 2 } });
    expect(feel('context put(context: {a: 1}, keys: ["b"], value: 2)')).toEqual({ a: 1, b: 2 });
    expect(feel('context put({x: 1}, ["q", "z"], 2)')).toBeNull();
    expect(feel('context put({x: 1}, [], 2)')).toBeNull();
    expect(feel('context put(null, "x", 2)')).toBeNull();
  });

  it('context merge lays contexts over each other, the later winning', () => {
    expect(feel('context merge([{x: 1, y: 1}, {y: 2}, {z: 3}])')).toEqual({ x: 1, y: 2, z: 3 });
    expect(feel('context merge({x: 1})')).toEqual({ x: 1 });
    expect(feel('context merge([])')).toEqual({});
    expect(feel('context merge([{x: 1}, 2])')).toBeNull();
  });
});

describe('range() of range text', () => {
  it('reads ranges that run upwards, an end left out only where it is open', () => {
    expect(feel('range("[1..10]")')).toBe('[1..10]');
    expect(feel('range("[1..1]")')).toBe('[1..1]');
    expect(feel('range("(1..10)")')).toBe('(1..10)');
    expect(feel('range("[@\\"2020-01-01\\"..@\\"2021-01-01\\"]")')).toBe('["2020-01-01".."2021-01-01"]');
    expect(feel('range("(..2]")')).not.toBeNull();
  });

  it('is null for a range that runs downwards, an end left out inside a closed bracket, or ends that do not compare', () => {
    expect(feel('range("[3..1]")')).toBeNull();
    expect(feel('range("[..2]")')).toBeNull();
    expect(feel('range("[1..]")')).toBeNull();
    expect(feel('range("(..)")')).toBeNull();
    expect(feel('range("[1..@\\"2020-01-01\\"]")')).toBeNull();
    expect(feel('range("[x..2]")')).toBeNull();
  });
});

describe('lists of one and single values (DMN 1.5 10.3.2.9.4)', () => {
  it('a single value given for a list is a list of one', () => {
    expect(feel('count(1)')).toBe(1);
    expect(feel('count("a")')).toBe(1);
    expect(feel('list contains(1, 1)')).toBe(true);
    expect(feel('append(1, 2)')).toEqual([1, 2]);
    expect(feel('distinct values(1)')).toEqual([1]);
    expect(feel('sum(5)')).toBe(5);
    expect(feel('max(5)')).toBe(5);
    expect(feel('mean(4)')).toBe(4);
  });

  it('a list of one given for a number or a string is its item', () => {
    expect(feel('string length(["abc"])')).toBe(3);
    expect(feel('upper case(["abc"])')).toBe('ABC');
    expect(feel('contains(["abc"], "b")')).toBe(true);
    expect(feel('substring(["abc"], 2)')).toBe('bc');
    expect(feel('floor([1.5])')).toBe(1);
  });

  it('a list of one given for a value of any type stays a list', () => {
    expect(feel('list contains([[1]], [1])')).toBe(true);
    expect(feel('string([1])')).toBe('[1]');
  });

  it('null is not converted', () => {
    expect(feel('count(null)')).toBeNull();
    expect(feel('string length(null)')).toBeNull();
  });
});

describe('date and time functions', () => {
  it('date from text, from parts and from a date and time', () => {
    expect(feel('date("2025-01-31")')).toBe('2025-01-31');
    expect(feel('date(2024, 2, 29)')).toBe('2024-02-29');
    expect(feel('date(date and time("2025-01-31T23:59:00"))')).toBe('2025-01-31');
  });

  it('date of an impossible day gives null with a note', () => {
    expect(run('date("2025-02-29")')).toEqual({ value: null, notes: ['"2025-02-29" is not a date (YYYY-MM-DD)'] });
    expect(run('date(2025, 2, 29)')).toEqual({ value: null, notes: ['date(2025, 2, 29) is not a valid date'] });
    expect(feel('date("2025-13-01")')).toBeNull();
    expect(feel('date("31.01.2025")')).toBeNull();
  });

  it('date and time from text, and from a date and a time', () => {
    expect(feel('date and time("2025-01-31T08:15:00")')).toBe('2025-01-31T08:15:00');
    expect(feel('date and time("2025-01-31T08:15:00.250+01:00")')).toBe('2025-01-31T08:15:00.25+01:00');
    expect(feel('date and time(date("2025-01-31"), time("08:15:00Z"))')).toBe('2025-01-31T08:15:00Z');
    expect(feel('date and time("2025-01-31")')).toBe('2025-01-31T00:00:00');
    expect(feel('date and time("2025-01-31T25:00:00")')).toBeNull();
  });

  it('time from text and from parts, with an offset', () => {
    expect(feel('time("08:15:30")')).toBe('08:15:30');
    expect(feel('time(8, 15, 30)')).toBe('08:15:30');
    expect(feel('time(8, 15, 30, duration("PT1H"))')).toBe('08:15:30+01:00');
  });

  it('duration of both kinds, negative ones included', () => {
    expect(feel('duration("P1Y2M")')).toBe('P1Y2M');
    expect(feel('duration("P14M")')).toBe('P1Y2M');
    expect(feel('duration("P2DT3H")')).toBe('P2DT3H');
    expect(feel('duration("PT36H")')).toBe('P1DT12H');
    expect(feel('duration("-PT90M")')).toBe('-PT1H30M');
    expect(feel('duration("P1Y2D")')).toBeNull();
    expect(feel('duration("1 day")')).toBeNull();
  });

  it('years and months duration between two dates counts whole months', () => {
    expect(feel('years and months duration(date("2020-01-15"), date("2021-03-14"))')).toBe('P1Y1M');
    expect(feel('years and months duration(date("2020-01-15"), date("2021-03-15"))')).toBe('P1Y2M');
    expect(feel('years and months duration(date("2021-03-15"), date("2020-01-15"))')).toBe('-P1Y2M');
  });

  it('day of week, month of year, day of year, week of year, last day of month', () => {
    expect(feel('day of week(date("2025-06-01"))')).toBe('Sunday');
    expect(feel('month of year(date("2025-06-01"))')).toBe('June');
    expect(feel('day of year(date("2024-12-31"))')).toBe(366);
    expect(feel('week of year(date("2021-01-03"))')).toBe(53);
    expect(feel('last day of month(date("2024-02-10"))')).toBe(29);
  });
});

describe('now() and today()', () => {
  // helpers.ts evaluates with the clock 2025-06-01T12:00:00Z.
  it('read the clock of the evaluation', () => {
    expect(feel('now()')).toBe('2025-06-01T12:00:00Z');
    expect(feel('today()')).toBe('2025-06-01');
    expect(run('today()', {}, new Date('2030-12-31T23:59:59.500Z')).value).toBe('2030-12-31');
    expect(run('now()', {}, new Date('2030-12-31T23:59:59.500Z')).value).toBe('2030-12-31T23:59:59.5Z');
  });

  it('read one clock in one evaluation, however often they are called', () => {
    expect(feel('now() = now()')).toBe(true);
    expect(feel('for i in 1..100 return now() - now()')).toEqual(Array(100).fill('PT0S'));
    expect(feel('{a: now(), b: today(), same: date(a) = b}.same')).toBe(true);
  });

  it('compute with dates relative to today', () => {
    expect(feel('today() - date("2025-01-01")')).toBe('P151D');
    expect(feel('years and months duration(date of birth, today()).years >= 18', { 'date of birth': null })).toBeNull();
    expect(feel('date("2007-06-01") <= today() - duration("P18Y")')).toBe(true);
    expect(feel('date("2007-06-02") <= today() - duration("P18Y")')).toBe(false);
  });
});

describe('named parameters', () => {
  it('bind arguments by name, in any order', () => {
    expect(feel('substring(string: "foobar", start position: 3)')).toBe('obar');
    expect(feel('substring(start position: 3, length: 2, string: "foobar")')).toBe('ob');
    expect(feel('round half up(n: 2.5, scale: 0)')).toBe(3);
    expect(feel('starts with(string: "abc", match: "a")')).toBe(true);
    expect(feel('date(year: 2025, month: 6, day: 1)')).toBe('2025-06-01');
  });

  it('leave optional parameters out', () => {
    expect(feel('floor(n: 1.7)')).toBe(1);
  });

  it('give null with a note for an unknown or a missing name', () => {
    expect(run('substring(string: "abc", begin: 2)')).toEqual({ value: null, notes: ['substring takes no parameters named string, begin'] });
    expect(run('substring(start position: 2)').notes).toEqual(['substring takes no parameters named start position']);
  });
});

describe('calls that cannot be made', () => {
  it('calling what is not a function is null, with a note, as DMN 1.5 says: not refused', () => {
    for (const text of ['null()', '123()', '"a"(1)', 'x.y()'])
      expect(run(text, { x: { y: 1 } })).toEqual({ value: null, notes: [expect.stringMatching(/^no function named /)] });
  });

  it('an unknown function gives null with a note', () => {
    expect(run('foo(1)')).toEqual({ value: null, notes: ['no function named "foo"'] });
  });

  it('a wrong number of arguments gives null with a note', () => {
    expect(run('upper case("a", "b")')).toEqual({ value: null, notes: ['upper case does not take 2 arguments'] });
    expect(run('count()')).toEqual({ value: null, notes: ['count does not take 0 arguments'] });
  });
});
