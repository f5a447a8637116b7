/**
 * The unary tests of decision-table input cells (DMN 1.5 section 10.3.2.9):
 * every form a cell can take, with inputs of each type, and the rule that a
 * test that cannot be decided (null, or values of different types) does not
 * match, with a note saying why.
 */
import { describe, expect, it } from 'vitest';
import { date, dateTime, duration, feel, matches, time } from './helpers.ts';

describe('any input', () => {
  it.each([42, 'x', null, [1], { a: 1 }])('"-" matches %j', (input) => {
    expect(matches('-', input)).toBe(true);
  });

  it.each(['', '   '])('an empty cell %j matches anything, null included', (cell) => {
    expect(matches(cell, 'x')).toBe(true);
    expect(matches(cell, null)).toBe(true);
  });
});

describe('literals', () => {
  it('a number matches an equal number only', () => {
    expect(matches('18', 18)).toBe(true);
    expect(matches('18', 18.0)).toBe(true);
    expect(matches('18', 19)).toBe(false);
    expect(matches('-2.5', -2.5)).toBe(true);
  });

  it('a string matches that exact string', () => {
    expect(matches('"gold"', 'gold')).toBe(true);
    expect(matches('"gold"', 'Gold')).toBe(false);
    expect(matches('"a \\"quoted\\" word"', 'a "quoted" word')).toBe(true);
  });

  it('a boolean matches that boolean', () => {
    expect(matches('true', true)).toBe(true);
    expect(matches('true', false)).toBe(false);
    expect(matches('false', false)).toBe(true);
  });

  it('a date, date and time, time or duration matches an equal value', () => {
    expect(matches('@"2025-01-31"', date('2025-01-31'))).toBe(true);
    expect(matches('date("2025-01-31")', date('2025-01-31'))).toBe(true);
    expect(matches('@"2025-01-31"', date('2025-02-01'))).toBe(false);
    expect(matches('@"2025-01-31T10:00:00Z"', dateTime('2025-01-31T11:00:00+01:00'))).toBe(true);
    expect(matches('@"10:00:00"', time('10:00:00'))).toBe(true);
    expect(matches('@"P1Y"', duration('P12M'))).toBe(true);
  });

  it('a literal of another type does not match, with a note', () => {
    const notes: string[] = [];
    expect(matches('"18"', 18, {}, notes)).toBe(false);
    expect(notes).toEqual(['cannot compare number 18 with "18"']);
  });
});

describe('comparisons', () => {
  it('< 18', () => {
    expect(matches('< 18', 17)).toBe(true);
    expect(matches('< 18', 18)).toBe(false);
  });

  it('>= 2.5', () => {
    expect(matches('>= 2.5', 2.5)).toBe(true);
    expect(matches('>= 2.5', 2.49)).toBe(false);
  });

  it('<= and >, and = and != written out', () => {
    expect(matches('<= 10', 10)).toBe(true);
    expect(matches('> 10', 10)).toBe(false);
    expect(matches('= 10', 10)).toBe(true);
    expect(matches('!= 10', 10)).toBe(false);
    expect(matches('!= 10', 11)).toBe(true);
  });

  it('compares strings and dates', () => {
    expect(matches('< "m"', 'apple')).toBe(true);
    expect(matches('>= @"2025-01-01"', date('2025-06-01'))).toBe(true);
    expect(matches('< date("2025-01-01")', date('2025-06-01'))).toBe(false);
  });

  it('compares with a variable', () => {
    expect(matches('< limit', 5, { limit: 10 })).toBe(true);
    expect(matches('< limit', 15, { limit: 10 })).toBe(false);
  });

  it('does not match a value of another type, with a note', () => {
    const notes: string[] = [];
    expect(matches('< 18', 'seventeen', {}, notes)).toBe(false);
    expect(notes).toEqual(['cannot order "seventeen" and number 18']);
  });
});

describe('ranges', () => {
  const cases: [string, number, boolean][] = [
    ['[18..65]', 18, true],
    ['[18..65]', 65, true],
    ['[18..65]', 66, false],
    ['[18..65]', 17, false],
    ['(0..100]', 0, false],
    ['(0..100]', 0.5, true],
    ['(0..100]', 100, true],
    [']1..10[', 1, false],
    [']1..10[', 5, true],
    [']1..10[', 10, false],
    ['[1..10)', 10, false],
    ['[1..10)', 1, true],
    ['[1..10[', 9.99, true],
  ];
  it.each(cases)('%s with %d is %s', (range, input, expected) => {
    expect(matches(range, input)).toBe(expected);
  });

  it('ranges over dates and strings', () => {
    expect(matches('[@"2025-01-01"..@"2025-12-31"]', date('2025-07-01'))).toBe(true);
    expect(matches('[@"2025-01-01"..@"2025-12-31"]', date('2026-01-01'))).toBe(false);
    expect(matches('["a".."f"]', 'cat')).toBe(true);
  });

  it('in a list, each item a test of its own, any of which may hold; in parentheses, the test itself (DMN TCK 0072)', () => {
    expect(feel('1 in [[2..4], [1..3]]')).toBe(true);
    expect(feel('5 in [[2..4], [1..3]]')).toBe(false);
    expect(feel('5 in [< 2, 5]')).toBe(true);
    expect(feel('10 in (=10)')).toBe(true);
    expect(feel('x in (!= 3)', { x: 3 })).toBe(false);
    expect(feel('x in (> 2)', { x: 4 })).toBe(true);
    expect(feel('[1, 2] in [[1, 2]]')).toBe(true);
    expect(matches('[[2..4], [1..3]]', 1)).toBe(true);
    expect(matches('[[2..4], [1..3]]', 5)).toBe(false);
    expect(matches('(!= "a")', 'b')).toBe(true);
  });

  it('takes its ends from variables', () => {
    expect(matches('[low..high]', 5, { low: 1, high: 10 })).toBe(true);
  });

  it('with an end that is null holds nothing and leaves nothing out, as the DMN TCK has it (0071, 0072): in is null, a cell does not match', () => {
    expect(feel('5 in (null..10]')).toBeNull();
    expect(feel('5 in [1..high]', { high: null })).toBeNull();
    expect(feel('2 between null and 10')).toBeNull();
    expect(matches('(null..10]', 5)).toBe(false);
    expect(matches('[low..10]', 5, { low: null })).toBe(false);
  });

  it('does not match a value that cannot be compared with the ends', () => {
    expect(matches('[1..10]', 'five')).toBe(false);
    expect(matches('[1..10]', null)).toBe(false);
  });
});

describe('lists of tests', () => {
  it('"gold","silver" matches either', () => {
    expect(matches('"gold","silver"', 'gold')).toBe(true);
    expect(matches('"gold","silver"', 'silver')).toBe(true);
    expect(matches('"gold","silver"', 'bronze')).toBe(false);
  });

  it('lists of ranges and comparisons', () => {
    expect(matches('[1..10],[20..30]', 25)).toBe(true);
    expect(matches('[1..10],[20..30]', 15)).toBe(false);
    expect(matches('< 0, > 100', -1)).toBe(true);
    expect(matches('< 0, > 100', 50)).toBe(false);
  });

  it('mixes tests of different types', () => {
    expect(matches('"none", < 10', 5)).toBe(true);
    expect(matches('"none", < 10', 'none')).toBe(true);
  });
});

describe('not(...)', () => {
  it('negates one test', () => {
    expect(matches('not("gold")', 'silver')).toBe(true);
    expect(matches('not("gold")', 'gold')).toBe(false);
    expect(matches('not(< 18)', 18)).toBe(true);
  });

  it('negates a list of tests: none may hold', () => {
    expect(matches('not("gold", "silver")', 'bronze')).toBe(true);
    expect(matches('not("gold", "silver")', 'silver')).toBe(false);
    expect(matches('not([1..10], [20..30])', 15)).toBe(true);
  });
});

describe('null', () => {
  it('the test null matches only null', () => {
    expect(matches('null', null)).toBe(true);
    expect(matches('null', 0)).toBe(false);
    expect(matches('null', '')).toBe(false);
  });

  it('not(null) matches every value but null', () => {
    expect(matches('not(null)', 0)).toBe(true);
    expect(matches('not(null)', null)).toBe(false);
  });

  it('a null input matches no comparison, range or literal', () => {
    expect(matches('< 18', null)).toBe(false);
    expect(matches('>= 0', null)).toBe(false);
    expect(matches('[0..100]', null)).toBe(false);
    expect(matches('"gold"', null)).toBe(false);
    expect(matches('18', null)).toBe(false);
  });

  it('a test whose value is null matches no input but null', () => {
    expect(matches('< limit', 5, { limit: null })).toBe(false);
    expect(matches('limit', 5, { limit: null })).toBe(false);
    expect(matches('limit', null, { limit: null })).toBe(true);
  });
});

describe('expressions using ?', () => {
  it('matches when the expression is true', () => {
    expect(matches('? > 5 and ? < 50', 30)).toBe(true);
    expect(matches('? > 5 and ? < 50', 60)).toBe(false);
    expect(matches('string length(?) > 3', 'abcd')).toBe(true);
    expect(matches('starts with(?, "ab")', 'abc')).toBe(true);
    expect(matches('?.age >= 18', { age: 20 })).toBe(true);
  });

  it('does not match when the expression is null and the input is not', () => {
    expect(matches('? > 5', 'x')).toBe(false);
    expect(matches('?.age >= 18', { name: 'no age' })).toBe(false);
  });

  it('matches a null input when the expression is null too (DMN 1.5 7.3.2 a: the input equals the value), as feelin and feel-scala do', () => {
    expect(matches('? > 5', null)).toBe(true);
  });

  it('compares the input with an expression that is not boolean', () => {
    expect(matches('x + 1', 6, { x: 5 })).toBe(true);
    expect(matches('upper case("ab")', 'AB')).toBe(true);
  });
});

describe('list values and variables', () => {
  it('a list literal matches any of its items', () => {
    expect(matches('[1, 2, 3]', 2)).toBe(true);
    expect(matches('[1, 2, 3]', 4)).toBe(false);
  });

  it('a variable holding a value matches that value', () => {
    expect(matches('tier', 'gold', { tier: 'gold' })).toBe(true);
    expect(matches('tier', 'silver', { tier: 'gold' })).toBe(false);
  });

  it('a variable holding a list matches any of its items', () => {
    expect(matches('allowed', 'b', { allowed: ['a', 'b'] })).toBe(true);
    expect(matches('allowed', 'c', { allowed: ['a', 'b'] })).toBe(false);
  });

  it('a variable with a space in its name', () => {
    expect(matches('>= minimum age', 21, { 'minimum age': 18 })).toBe(true);
  });
});
