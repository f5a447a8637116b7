/**
 * FEEL expressions, family by family (DMN 1.5 chapter 10.3.2): what each
 * operator gives, how null and type errors flow through it (null, with a note
 * saying why), and how scope works in contexts, filters and iterations.
 */
import { describe, expect, it } from 'vitest';
import { date, duration, feel, run } from './helpers.ts';

describe('arithmetic', () => {
  it('adds, subtracts, multiplies, divides and exponentiates numbers', () => {
    expect(feel('1 + 2 * 3')).toBe(7);
    expect(feel('(1 + 2) * 3')).toBe(9);
    expect(feel('10 - 4 - 3')).toBe(3);
    expect(feel('7 / 2')).toBe(3.5);
    expect(feel('2 ** 10')).toBe(1024);
  });

  it('negates numbers and variables', () => {
    expect(feel('-5 + 2')).toBe(-3);
    expect(feel('-x', { x: 4 })).toBe(-4);
    expect(feel('1 - -1')).toBe(2);
  });

  it('computes with decimals as doubles', () => {
    expect(feel('2.5 * 4')).toBe(10);
    expect(feel('0.1 + 0.2')).toBeCloseTo(0.3, 12);
  });

  it('concatenates strings with +', () => {
    expect(feel('"foo" + "bar"')).toBe('foobar');
  });

  it('gives null for arithmetic with null', () => {
    expect(feel('1 + null')).toBeNull();
    expect(feel('null * 3')).toBeNull();
    expect(feel('-null')).toBeNull();
    expect(feel('x - 1', { x: null })).toBeNull();
  });

  it('gives null with a note for division by zero', () => {
    expect(run('1 / 0')).toEqual({ value: null, notes: ['division by zero'] });
  });

  it('gives null with a note for a number too large', () => {
    const { value, notes } = run('10 ** 6145');
    expect(value).toBeNull();
    expect(notes[0]).toMatch(/beyond decimal128's range/);
  });

  it('gives null with a note when the operands have the wrong types', () => {
    const { value, notes } = run('"a" + 1');
    expect(value).toBeNull();
    expect(notes).toEqual(['cannot apply + to "a" and number 1']);
    expect(run('true * 2').notes[0]).toMatch(/cannot apply \* to boolean true and number 2/);
    expect(run('-"a"').notes[0]).toMatch(/cannot negate/);
  });
});

describe('comparison', () => {
  it('orders numbers, strings and dates', () => {
    expect(feel('1 < 2')).toBe(true);
    expect(feel('2 <= 2')).toBe(true);
    expect(feel('3 > 4')).toBe(false);
    expect(feel('4 >= 5')).toBe(false);
    expect(feel('"apple" < "banana"')).toBe(true);
    expect(feel('@"2025-01-01" < @"2025-01-02"')).toBe(true);
  });

  it('tests equality of scalars, lists and contexts', () => {
    expect(feel('1 = 1.0')).toBe(true);
    expect(feel('"a" != "b"')).toBe(true);
    expect(feel('[1, [2, 3]] = [1, [2, 3]]')).toBe(true);
    expect(feel('[1, 2] = [2, 1]')).toBe(false);
    expect(feel('{a: 1, b: "x"} = {b: "x", a: 1}')).toBe(true);
    expect(feel('{a: 1} = {a: 1, b: 2}')).toBe(false);
  });

  it('gives null for an ordering with null', () => {
    expect(feel('null < 1')).toBeNull();
    expect(feel('1 >= null')).toBeNull();
    expect(feel('x > 18', { x: null })).toBeNull();
  });

  it('tests null with = and != (null equals only null)', () => {
    expect(feel('null = null')).toBe(true);
    expect(feel('null = 1')).toBe(false);
    expect(feel('x != null', { x: 'set' })).toBe(true);
  });

  it('gives null with a note for values of different types', () => {
    const ordering = run('"a" < 1');
    expect(ordering.value).toBeNull();
    expect(ordering.notes).toEqual(['cannot order "a" and number 1']);
    expect(run('1 = "1"')).toEqual({ value: null, notes: ['cannot compare number 1 with "1"'] });
    expect(feel('true < false')).toBeNull();
  });
});

describe('three-valued and/or', () => {
  const cases: [string, boolean | null][] = [
    ['true and true', true],
    ['true and false', false],
    ['true and null', null],
    ['false and null', false],
    ['null and false', false],
    ['null and null', null],
    ['true or false', true],
    ['false or false', false],
    ['false or null', null],
    ['true or null', true],
    ['null or true', true],
    ['null or null', null],
  ];
  it.each(cases)('%s is %s', (text, expected) => {
    expect(feel(text)).toBe(expected);
  });

  it('treats a value that is not a boolean as unknown', () => {
    expect(feel('1 and true')).toBeNull();
    expect(feel('"yes" or false')).toBeNull();
    expect(feel('"yes" and false')).toBe(false);
  });

  it('chains more than two operands', () => {
    expect(feel('a and b and c', { a: true, b: true, c: true })).toBe(true);
    expect(feel('a or b or c', { a: false, b: false, c: true })).toBe(true);
  });

  it('negates with not(), null staying null', () => {
    expect(feel('not(true)')).toBe(false);
    expect(feel('not(null)')).toBeNull();
  });
});

describe('if', () => {
  it('chooses then or else', () => {
    expect(feel('if x > 10 then "big" else "small"', { x: 11 })).toBe('big');
    expect(feel('if x > 10 then "big" else "small"', { x: 1 })).toBe('small');
  });

  it('takes else when the condition is null or not a boolean', () => {
    expect(feel('if null then 1 else 2')).toBe(2);
    expect(feel('if x > 1 then 1 else 2', { x: null })).toBe(2);
    expect(feel('if "true" then 1 else 2')).toBe(2);
  });

  it('nests', () => {
    expect(feel('if a then if b then 1 else 2 else 3', { a: true, b: false })).toBe(2);
  });
});

describe('in', () => {
  it('tests membership of a list, a range and a comparison', () => {
    expect(feel('2 in [1, 2, 3]')).toBe(true);
    expect(feel('5 in [1..5]')).toBe(true);
    expect(feel('5 in [1..5)')).toBe(false);
    expect(feel('5 in < 10')).toBe(true);
    expect(feel('"b" in ("a", "b")')).toBe(true);
    expect(feel('5 in (< 3, > 4)')).toBe(true);
    expect(feel('4 in (< 3, > 4)')).toBe(false);
  });

  it('compares a list value with the lists in a list', () => {
    expect(feel('[1, 2] in [[1, 2], [3]]')).toBe(true);
    expect(feel('1 in [[1, 2]]')).toBe(false);
  });

  it('matches null only against null', () => {
    expect(feel('null in [null]')).toBe(true);
    expect(feel('null in [1, 2]')).toBe(false);
  });

  it('binds tighter than and and or', () => {
    expect(feel('x in [1..10] and y', { x: 5, y: true })).toBe(true);
    expect(feel('x in [1..10] and y', { x: 50, y: true })).toBe(false);
    expect(feel('x in (1, 2) or y', { x: 5, y: true })).toBe(true);
  });

  it('gives null when the value cannot be placed in a range', () => {
    expect(feel('null in [1..2]')).toBeNull();
    expect(feel('"x" in [1..3]')).toBeNull();
  });
});

describe('between', () => {
  it('includes both ends', () => {
    expect(feel('5 between 1 and 10')).toBe(true);
    expect(feel('1 between 1 and 10')).toBe(true);
    expect(feel('10 between 1 and 10')).toBe(true);
    expect(feel('11 between 1 and 10')).toBe(false);
  });

  it('works for strings and dates', () => {
    expect(feel('"b" between "a" and "c"')).toBe(true);
    expect(feel('@"2025-02-01" between @"2025-01-01" and @"2025-12-31"')).toBe(true);
  });

  it('gives null with a null operand or end', () => {
    expect(feel('null between 1 and 10')).toBeNull();
    expect(feel('5 between null and 10')).toBeNull();
    expect(feel('5 between "a" and "z"')).toBeNull();
  });
});

describe('path access', () => {
  const order = {
    customer: { name: 'Ada', 'date of birth': date('1990-05-01') },
    lines: [
      { sku: 'A', qty: 2 },
      { sku: 'B', qty: 5 },
    ],
  };

  it('reads a context entry, and nested entries', () => {
    expect(feel('order.customer.name', { order })).toBe('Ada');
    expect(feel('{a: {b: 3}}.a.b')).toBe(3);
  });

  it('maps a path over a list of contexts', () => {
    expect(feel('order.lines.qty', { order })).toEqual([2, 5]);
    expect(feel('sum(order.lines.qty)', { order })).toBe(7);
  });

  it('reads entries whose names hold spaces', () => {
    expect(feel('order.customer.date of birth.year', { order })).toBe(1990);
  });

  it('reads the parts of dates, times and durations', () => {
    expect(feel('@"2025-03-04".month')).toBe(3);
    expect(feel('@"2025-03-04".weekday')).toBe(2);
    expect(feel('@"2025-03-04T10:20:30".hour')).toBe(10);
    expect(feel('@"10:20:30".second')).toBe(30);
    expect(feel('@"P2DT3H".hours')).toBe(3);
    expect(feel('@"P14M".years')).toBe(1);
  });

  it('gives null with a note for a missing entry', () => {
    expect(run('order.missing', { order })).toEqual({ value: null, notes: ['no entry "missing" in "order"'] });
    expect(run('{a: 1}.b').notes).toEqual(['no entry "b" in the context']);
  });

  it('gives null for a path on null or on a value without that property', () => {
    expect(feel('x.name', { x: null })).toBeNull();
    expect(run('5.name').notes[0]).toMatch(/number has no property "name"/);
  });

  it('does not read what an object inherits', () => {
    expect(feel('x.constructor', { x: {} })).toBeNull();
    expect(feel('x.toString', { x: {} })).toBeNull();
  });
});

describe('filters', () => {
  it('keeps the items for which the condition is true', () => {
    expect(feel('[1, 5, 10][item > 3]')).toEqual([5, 10]);
    expect(feel('[1, null, 10][item > 3]')).toEqual([10]);
  });

  it('reads the entries of context items by name', () => {
    const people = [
      { name: 'Ada', age: 36 },
      { name: 'Bob', age: 17 },
    ];
    expect(feel('people[age >= 18].name', { people })).toEqual(['Ada']);
    expect(feel('people[item.age < 18]', { people })).toEqual([{ name: 'Bob', age: 17 }]);
  });

  it('notes nothing when the condition names entries of the items', () => {
    expect(run('people[age >= 18].name', { people: [{ name: 'Ada', age: 36 }] })).toEqual({ value: ['Ada'], notes: [] });
  });

  it('keeps null items for which the condition is true', () => {
    expect(feel('[null, 1][item = null]')).toEqual([null]);
    expect(feel('[null, 1][item != 2]')).toEqual([null, 1]);
  });

  it('picks by index: 1 is the first, -1 the last', () => {
    expect(feel('[10, 20, 30][1]')).toBe(10);
    expect(feel('[10, 20, 30][-1]')).toBe(30);
    expect(feel('[10, 20, 30][3]')).toBe(30);
  });

  it('gives null for an index out of range, or 0', () => {
    expect(feel('[10, 20, 30][4]')).toBeNull();
    expect(feel('[10, 20, 30][0]')).toBeNull();
    expect(feel('[10, 20, 30][-4]')).toBeNull();
  });

  it('treats a single value as a list of one', () => {
    expect(feel('5[item > 3]')).toEqual([5]);
    expect(feel('null[item > 3]')).toBeNull();
  });

  it('gives an empty list when nothing matches', () => {
    expect(feel('[1, 2][item > 5]')).toEqual([]);
  });
});

describe('lists', () => {
  it('builds lists of any values, nested and empty', () => {
    expect(feel('[1, "a", true, null, [2], {b: 3}]')).toEqual([1, 'a', true, null, [2], { b: 3 }]);
    expect(feel('[]')).toEqual([]);
  });

  it('evaluates the items', () => {
    expect(feel('[x, x + 1]', { x: 1 })).toEqual([1, 2]);
  });
});

describe('contexts', () => {
  it('builds contexts with name, string and spaced keys', () => {
    expect(feel('{a: 1, "b c": 2, d e: 3}')).toEqual({ a: 1, 'b c': 2, 'd e': 3 });
  });

  it('lets later entries see earlier ones', () => {
    expect(feel('{price: 10, qty: 3, total: price * qty}')).toEqual({ price: 10, qty: 3, total: 30 });
    expect(feel('{a: 1, b: {c: a + 1}}.b.c')).toBe(2);
  });

  it('lets an entry shadow an outer name', () => {
    expect(feel('{x: 2, y: x * 10}.y', { x: 5 })).toBe(20);
  });

  it('keeps a key named like a prototype property as an ordinary entry', () => {
    expect(feel('{constructor: 1, __proto__: 2}')).toEqual(JSON.parse('{"constructor": 1, "__proto__": 2}'));
  });
});

describe('for, some and every', () => {
  it('maps with for ... return', () => {
    expect(feel('for x in [1, 2, 3] return x * x')).toEqual([1, 4, 9]);
  });

  it('iterates a numeric range, up or down', () => {
    expect(feel('for i in 1..3 return i')).toEqual([1, 2, 3]);
    expect(feel('for i in 3..1 return i')).toEqual([3, 2, 1]);
  });

  it('iterates several lists as a cross product, later ones seeing earlier ones', () => {
    expect(feel('for a in [1, 2], b in [10, 20] return a + b')).toEqual([11, 21, 12, 22]);
    expect(feel('for a in [1, 2], b in a..2 return [a, b]')).toEqual([
      [1, 1],
      [1, 2],
      [2, 2],
    ]);
  });

  it('gives null when the iterated value is null', () => {
    expect(feel('for x in xs return x', { xs: null })).toBeNull();
  });

  it('tests some and every', () => {
    expect(feel('some x in [1, 5, 10] satisfies x > 8')).toBe(true);
    expect(feel('some x in [1, 5] satisfies x > 8')).toBe(false);
    expect(feel('every x in [1, 5, 10] satisfies x > 0')).toBe(true);
    expect(feel('every x in [1, 5, 10] satisfies x > 1')).toBe(false);
  });

  it('gives false for some and true for every over an empty list', () => {
    expect(feel('some x in [] satisfies x > 0')).toBe(false);
    expect(feel('every x in [] satisfies x > 0')).toBe(true);
  });

  it('refuses a range to iterate that is not whole numbers, with a note', () => {
    const { value, notes } = run('for i in 1..2.5 return i');
    expect(value).toBeNull();
    expect(notes[0]).toMatch(/whole numbers/);
  });
});

describe('instance of', () => {
  const cases: [string, boolean][] = [
    ['1 instance of number', true],
    ['"a" instance of string', true],
    ['true instance of boolean', true],
    ['@"2025-01-01" instance of date', true],
    ['@"2025-01-01T10:00:00" instance of date and time', true],
    ['@"10:00:00" instance of time', true],
    ['@"P1Y" instance of years and months duration', true],
    ['@"P1D" instance of days and time duration', true],
    ['@"P1D" instance of years and months duration', false],
    ['[1] instance of list', true],
    ['{a: 1} instance of context', true],
    ['1 instance of string', false],
    ['null instance of Any', false],
    ['"x" instance of Any', true],
    ['null instance of Null', true],
    ['null instance of number', false],
    // Parameterised types (DMN 1.5): a list's items, a context's named entries (more may be there), in turn.
    ['[1, 2] instance of list<number>', true],
    ['[1, "a"] instance of list<number>', false],
    ['[] instance of list<string>', true],
    ['[[1], [2]] instance of list<list<number>>', true],
    ['[1, "a"] instance of list<Any>', true],
    ['1 instance of list<number>', false],
    ['{a: "x", b: 2} instance of context<a: string>', true],
    ['{a: 1, b: [1]} instance of context<a: number, b: list<number>>', true],
    ['{a: 1} instance of context<a: number, b: string>', false],
    ['{a: 1} instance of context<a: string>', false],
  ];
  it.each(cases)('%s is %s', (text, expected) => {
    expect(feel(text)).toBe(expected);
  });
});

describe('@-literals', () => {
  it('reads dates, date-times, times and durations', () => {
    expect(feel('@"2025-01-31"')).toBe('2025-01-31');
    expect(feel('@"2025-01-31T08:15:00"')).toBe('2025-01-31T08:15:00');
    expect(feel('@"2025-01-31T08:15:00Z"')).toBe('2025-01-31T08:15:00Z');
    expect(feel('@"2025-01-31T08:15:00+02:00"')).toBe('2025-01-31T08:15:00+02:00');
    expect(feel('@"2025-01-31T08:15:00@Europe/Berlin"')).toBe('2025-01-31T08:15:00@Europe/Berlin');
    expect(feel('@"08:15:00"')).toBe('08:15:00');
    expect(feel('@"P1Y2M"')).toBe('P1Y2M');
    expect(feel('@"P2DT3H4M5S"')).toBe('P2DT3H4M5S');
    expect(feel('@"-PT90M"')).toBe('-PT1H30M');
  });

  it('gives null with a note for text that is no temporal value', () => {
    expect(run('@"2025-02-30"')).toEqual({ value: null, notes: ['@"2025-02-30" is not a date, time, date and time or duration'] });
    expect(feel('@"tomorrow"')).toBeNull();
    expect(feel('@"P1Y2D"')).toBeNull();
  });
});

describe('names', () => {
  it('reads names with spaces when they are passed in scope', () => {
    expect(feel('date of birth.year', { 'date of birth': date('1990-05-01') })).toBe(1990);
    expect(feel('monthly income * 12', { 'monthly income': 1000 })).toBe(12000);
  });

  it('gives null with a note for a name not in scope', () => {
    expect(run('missing + 1')).toEqual({ value: null, notes: ['no value named "missing"'] });
  });

  it('reads a name that is a prototype property of objects as an ordinary input', () => {
    expect(feel('constructor', { constructor: 3 })).toBe(3);
    expect(feel('toString')).toBeNull();
  });

  it('binds temporal inputs', () => {
    expect(feel('d + p', { d: date('2025-01-31'), p: duration('P1M') })).toBe('2025-02-28');
  });
});
