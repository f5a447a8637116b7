/**
 * `matches` and `replace` speak XPath's regular expressions, as DMN 1.5 has them (XPath and XQuery Functions and
 * Operators 3.1, 5.6), not JavaScript's: the flags s, m, i, x and q, class subtraction, XML Schema's escapes and
 * blocks, fn:replace's `$N` and its errors. The cases follow what the DMN TCK (1109 and 1111, taken from the W3C's
 * QT3 suite) and the XPath specification expect. Patterns reach FEEL as variables here, so that the TypeScript text is
 * the pattern as the function reads it, with no FEEL string escapes in between; a few are FEEL literals too.
 */
import { describe, expect, it } from 'vitest';
import { run, type Outcome } from './helpers.ts';

const matches = (input: string, pattern: string, flags: string | null = null): Outcome => run('matches(input, pattern, flags)', { input, pattern, flags });

const replace = (input: string, pattern: string, replacement: string, flags: string | null = null): Outcome =>
  run('replace(input, pattern, replacement, flags)', { input, pattern, replacement, flags });

/** The value, where no note is expected. */
const matched = (input: string, pattern: string, flags: string | null = null) => {
  const { value, notes } = matches(input, pattern, flags);
  expect(notes).toEqual([]);
  return value;
};

const replaced = (input: string, pattern: string, replacement: string, flags: string | null = null) => {
  const { value, notes } = replace(input, pattern, replacement, flags);
  expect(notes).toEqual([]);
  return value;
};

/** Null, with one note matching `why`. */
function refused(outcome: Outcome, why: RegExp) {
  expect(outcome.value).toBeNull();
  expect(outcome.notes).toEqual([expect.stringMatching(why)]);
}

describe('flags', () => {
  it('takes s, m, i, x and q, in any order and repeated; no flags and null flags are the same', () => {
    expect(matched('abracadabra', 'bra', null)).toBe(true);
    expect(matched('abracadabra', 'bra', '')).toBe(true);
    expect(matched('ABC', 'abc', 'iii')).toBe(true);
    expect(matched('ABC', '^a.c$', 'smixq')).toBe(false);
  });

  it('refuses any other letter, a space or an upper-case flag, with a note', () => {
    for (const flags of ['p', ' ', 'X', 'g', 'u', 'i;'])
      expect(matches('input', 'pattern', flags)).toEqual({ value: null, notes: [`unknown pattern flags "${flags}"`] });
  });

  it('s: "." takes a newline and a carriage return only with it', () => {
    expect(matched('Mary\rJones', 'Mary.Jones')).toBe(false);
    expect(matched('Mary\nJones', 'Mary.Jones')).toBe(false);
    expect(matched('Mary\nJones', 'Mary.Jones', 's')).toBe(true);
    // Unlike JavaScript's, XPath's "." takes the other line separators.
    expect(matched('Mary\u2028Jones', 'Mary.Jones')).toBe(true);
    expect(replaced('a.b.c.', '[a-z]', '#', 's')).toBe('#.#.#.');
  });

  it('m: "^" and "$" hold at lines, which newlines end, one that ends the input included', () => {
    expect(matched('a\nb', '^b$')).toBe(false);
    expect(matched('a\nb', '^b$', 'm')).toBe(true);
    expect(matched('\nabcd\ndefg\n', '^$', 'm')).toBe(true);
    expect(matched('abcd\n\ndefg\n ', '^$', 'm')).toBe(true);
    // A final newline ends the last line: no empty line starts after it (XPath 3.1).
    expect(matched('abcd\n', '^$', 'm')).toBe(false);
    expect(replaced('ab\ncd\n', '.$', '!', 'm')).toBe('a!\nc!\n');
    expect(replaced('ab\ncd\n', '^.', '!', 'm')).toBe('!b\n!d\n');
    // Only U+000A ends a line.
    expect(matched('a\rb', '^b', 'm')).toBe(false);
  });

  it('i: a character or range matches its case-variants, by fn:lower-case and fn:upper-case', () => {
    expect(matched('abc', 'ABC', 'i')).toBe(true);
    expect(matched('abZ', '^[A-Z]*$', 'i')).toBe(true);
    expect(matched('abZ', '^[a-z]*$', 'i')).toBe(true);
    // The Kelvin sign's lower case is "k"; the long s's upper case is "S".
    expect(matched('\u212A', 'k', 'i')).toBe(true);
    expect(matched('K', '[a-z]', 'i')).toBe(true);
    expect(matched('\u017F', 'S', 'i')).toBe(true);
    expect(matched('ẞ', 'ß', 'i')).toBe(true);
    // Narrow ranges and wide ones (matched by another path) alike: the Kelvin sign is in both.
    expect(matched('k', '[\u2100-\u214F]', 'i')).toBe(true);
    expect(matched('k', '[\u0100-\u2FFF]', 'i')).toBe(true);
    expect(matched('a', '[\u0100-\u2FFF]', 'i')).toBe(false);
    expect(matched('ǆ', '[\u01C4-\u01C4]', 'i')).toBe(true);
    expect(replaced('abc', '[A-Z]', '#', 'i')).toBe('###');
    expect(replaced('abc', '[A-Z]', '#')).toBe('abc');
  });

  it('i: a negated or subtracted class leaves out the variants of what it leaves out', () => {
    expect(matched('Q', '[^Q]', 'i')).toBe(false);
    expect(matched('q', '[^Q]', 'i')).toBe(false);
    expect(matched('x', '[A-Z-[OI]]', 'i')).toBe(true);
    expect(matched('X', '[A-Z-[OI]]', 'i')).toBe(true);
    expect(matched('O', '[A-Z-[OI]]', 'i')).toBe(false);
    expect(matched('i', '[A-Z-[OI]]', 'i')).toBe(false);
  });

  it('i: categories, blocks and multi-character escapes are as they are', () => {
    expect(matched('a', '\\p{Lu}', 'i')).toBe(false);
    expect(matched('A', '\\P{Lu}', 'i')).toBe(false);
    expect(matched('\u212A', '\\p{IsBasicLatin}', 'i')).toBe(false);
  });

  it('x: whitespace goes, outside classes only, before the pattern is read', () => {
    expect(matched('helloworld', 'hello world', 'x')).toBe(true);
    expect(matched('hello world', 'hello world', 'x')).toBe(false);
    expect(matched('helloworld', 'hello[ ]world', 'x')).toBe(false);
    expect(matched('hello world', ' hello[ ]world ', 'x')).toBe(true);
    expect(matched('hello world', 'he ll o[ ]worl d', 'x')).toBe(true);
    // `\ s` is `\s`; inside the braces of `\p{...}` is outside a class.
    expect(matched('hello world', 'hello\\ sworld', 'x')).toBe(true);
    expect(matched('hello world', '^\\p{ I s B a s i c L a t i n }+$', 'x')).toBe(true);
    expect(matched('aaa', 'a{1, 3}', 'x')).toBe(true);
    expect(replaced('a b c d ', '[a-z]', '#', 'x')).toBe('# # # # ');
    refused(matches('hello world', '\\p{ IsBasicLatin}+'), /names no Unicode category/);
  });

  it('q: the pattern is literal text, with i still its case-variants, and m, s and x nothing', () => {
    expect(matched('abracadabra', 'bra', 'q')).toBe(true);
    expect(matched('abracadabra', '(?:abra(?:cad)?)*', 'q')).toBe(false);
    expect(matched('x[y-z]', 'x[y-z]', 'q')).toBe(true);
    expect(matched('x[Y-z]', 'X[y-Z]', 'qi')).toBe(true);
    expect(matched('abcd', '.*', 'q')).toBe(false);
    expect(matched('Mr. B. Obama', 'B. OBAMA', 'iq')).toBe(true);
    expect(matched('a b', 'a b', 'qx')).toBe(true);
    expect(matched('a\nb', '^b', 'qm')).toBe(false);
    // A pattern that is not one is text with q.
    expect(matched('(a', '(a', 'q')).toBe(true);
  });
});

describe('syntax', () => {
  it('subtracts a class from a class, nested too, after a positive or a negative group', () => {
    expect(matched('B', '^[A-Z-[OI]]$')).toBe(true);
    expect(matched('O', '[A-Z-[OI]]')).toBe(false);
    expect(matched('c', '[a-z-[b-d-[c]]]')).toBe(true);
    expect(matched('b', '[a-z-[b-d-[c]]]')).toBe(false);
    expect(matched('5', '[^a-z-[0-4]]')).toBe(true);
    expect(matched('3', '[^a-z-[0-4]]')).toBe(false);
    expect(matched('e', '[\\w-[\\p{Lu}aeiou]]')).toBe(false);
    expect(matched('x', '[\\w-[\\p{Lu}aeiou]]')).toBe(true);
    refused(matches('a', '[-[a]]'), /a class must hold at least one character/);
    refused(matches('a', '[a-[b]c]'), /a subtracted class must end the class/);
  });

  it('reads "-" in a class as XML Schema 1.1 does: a range between characters, else itself', () => {
    expect(matched('input', '[0-9-.]*/')).toBe(false);
    expect(matched('-', '^[0-9-.]$')).toBe(true);
    expect(matched('-', '[a-]')).toBe(true);
    expect(matched('-', '[-a]')).toBe(true);
    expect(matched('-', '[a\\-z]')).toBe(true);
    expect(matched('-', '[a-z]')).toBe(false);
    expect(matched('-', '[a--[b]]')).toBe(true);
    refused(matches('a', '[--z]'), /unescaped "-"/);
    refused(matches('a', '[a--]'), /unescaped "-"/);
    refused(matches('a', '[z-a]'), /runs backwards/);
    refused(matches('a', '[a-\\d]'), /a range must end with a character/);
    refused(matches('a', '[^]'), /at least one character/);
    refused(matches('a', '[]a]'), /at least one character/);
    refused(matches('a', '[a[b]'), /must be escaped inside a class/);
  });

  it('knows XML Schema\'s escapes: \\s is four characters, \\w all but punctuation, separators and "other", \\d every decimal digit', () => {
    expect(matched('\u00A0', '\\s')).toBe(false);
    expect(matched('\t', '\\s')).toBe(true);
    expect(matched('$', '\\w')).toBe(true);
    expect(matched('+', '\\w')).toBe(true);
    expect(matched('-', '\\w')).toBe(false);
    expect(matched(' ', '\\W')).toBe(true);
    expect(matched('٣', '^\\d$')).toBe(true);
    expect(matched('a', '\\D')).toBe(true);
    expect(matched('a-b.c', '[\\n\\r\\t\\\\\\|\\.\\?\\*\\+\\(\\)\\{\\}\\-\\[\\]\\^\\$]')).toBe(true);
  });

  it('\\i and \\c are the characters that start and continue XML names, \\I and \\C the others', () => {
    expect(matched('_x.1-é', '^\\i\\c*$')).toBe(true);
    expect(matched(':a', '^\\i\\c*$')).toBe(true);
    expect(matched('1a', '^\\i')).toBe(false);
    expect(matched('-a', '^\\I')).toBe(true);
    expect(matched('a b', '\\C')).toBe(true);
    expect(matched('ab', '\\C')).toBe(false);
  });

  it("knows Unicode categories and blocks, by XML Schema's names", () => {
    expect(matched('hello world', '^\\p{IsBasicLatin}+$')).toBe(true);
    expect(matched('héllo', '^\\p{IsBasicLatin}+$')).toBe(false);
    expect(matched('é', '\\p{IsLatin-1Supplement}')).toBe(true);
    expect(matched('α', '\\p{IsGreekandCoptic}')).toBe(true);
    // XML Schema 1.0's names for blocks Unicode renamed.
    expect(matched('α', '\\p{IsGreek}')).toBe(true);
    expect(matched('\uE000', '\\p{IsPrivateUse}')).toBe(true);
    expect(matched('a', '\\P{IsBasicLatin}')).toBe(false);
    expect(matched('Ab', '^\\p{Lu}\\p{Ll}$')).toBe(true);
    expect(matched('a', '[\\p{L}-[\\p{Ll}]]')).toBe(false);
    expect(matched('1', '\\p{N}')).toBe(true);
    refused(matches('a', '\\p{IsNoSuchBlock}'), /"IsNoSuchBlock" names no Unicode block/);
    refused(matches('a', '\\p{Latin}'), /"Latin" names no Unicode category/);
    refused(matches('a', '\\p{Cs}'), /names no Unicode category/);
  });

  it('has anchors, reluctant quantifiers and non-capturing groups, as XPath adds them', () => {
    expect(matched('abc', '^abc$')).toBe(true);
    expect(matched('xabc', '^abc')).toBe(false);
    expect(replaced('abracadabra', 'a.*?a', '*')).toBe('*c*bra');
    expect(replaced('abracadabra', 'a.*a', '*')).toBe('*');
    expect(replaced('AAAA', 'A+?', 'b')).toBe('bbbb');
    expect(replaced('AAAA', 'A{2,}?', 'b')).toBe('bb');
    expect(replaced('abab', '(?:a)(b)', '$1')).toBe('bb');
    expect(matched('aa', '^a{2}$')).toBe(true);
    expect(matched('aaa', '^a{1,2}$')).toBe(false);
  });

  it('refuses what JavaScript has and XPath does not, with a note', () => {
    for (const [pattern, why] of [
      ['\\bword', /"\\b" is not an escape XPath knows/],
      ['\\x41', /"\\x" is not an escape XPath knows/],
      ['\\u0041', /"\\u" is not an escape XPath knows/],
      ['\\/', /"\\\/" is not an escape XPath knows/],
      ['(?<name>a)', /"\(\?" must start a non-capturing group/],
      ['a(?=b)', /lookahead and lookbehind are not supported/],
      ['a{,3}', /"\{" must start a quantifier/],
      ['a{3,1}', /its maximum below its minimum/],
      ['a]', /"\]" must be escaped/],
      ['a}', /"\}" must be escaped/],
      ['*a', /"\*" has nothing before it to repeat/],
      ['a**', /"\*" has nothing before it to repeat/],
      ['(a', /a "\(" is not closed/],
      ['a)', /"\)" closes no group/],
      ['a\\', /"\\" ends the pattern/],
    ] as const)
      refused(matches('a', pattern), why);
  });

  it('refuses back-references, which no automaton runs in linear time; in a class "\\" and a digit is invalid', () => {
    refused(matches('aA', '(a)\\1', 'i'), /backreferences are not supported/);
    refused(matches('h', '(.)\\3'), /backreferences are not supported/);
    refused(matches('abcd', '(asd)[\\1]'), /"\\1" cannot stand in a class/);
    refused(matches('abcd', '1[asd\\0]'), /"\\0" cannot stand in a class/);
    refused(matches('abcd', '\\0'), /"\\0" is not an escape XPath knows/);
  });

  it('reads a pattern given as a FEEL literal the same way', () => {
    expect(run('matches("x", "[A-Z-[OI]]", "i")')).toEqual({ value: true, notes: [] });
    expect(run('[matches("a", "a[^b]"), matches("a ", "a[^b]")]')).toEqual({ value: [false, true], notes: [] });
    expect(run('replace("abc", "(b)", "[$1]")')).toEqual({ value: 'a[b]c', notes: [] });
    expect(run('replace("0123456789", "(\\\\d{3})(\\\\d{3})(\\\\d{4})", "($1) $2-$3")')).toEqual({ value: '(012) 345-6789', notes: [] });
  });
});

describe('replace', () => {
  it('puts group N for $N, $0 for the whole match, and nothing for a group that took no part', () => {
    expect(replaced('abcd', '(ab)|(a)', '[1=$1][2=$2]')).toBe('[1=ab][2=]cd');
    expect(replaced('facetiously', '[iouy]', '[$0]')).toBe('facet[i][o][u]sl[y]');
    expect(replaced('abracadabra', 'a(.)', 'a$1$1')).toBe('abbraccaddabbra');
    expect(replaced('darted', '^(.*?)d(.*)$', '$1c$2')).toBe('carted');
    expect(replaced('0123456789', '(\\d{3})(\\d{3})(\\d{4})', '($1) $2-$3')).toBe('(012) 345-6789');
    expect(replaced('abracadabra', 'bra', '*')).toBe('a*cada*');
    expect(replaced('abracadabra', 'a', '')).toBe('brcdbr');
    expect(replaced('abc', 'def', '#')).toBe('abc');
  });

  it('reads $ and digits as XPath does: as many digits as name a group, and a group past those there are is empty', () => {
    expect(replaced('abc', '(b)', '$23')).toBe('a3c');
    expect(replaced('abc', '(b)', '$10')).toBe('ab0c');
    expect(replaced('abc', '(b)', '$5')).toBe('ac');
    expect(replaced('abcdefghijkl', '(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)', '$12$1$121')).toBe('lal1');
    expect(replaced('abc', '(b)', '$01')).toBe('abc');
  });

  it('reads \\$ as a dollar and \\\\ as a backslash; a lone $ or \\ is an error', () => {
    expect(replaced('abc', '(b)', '\\$1\\\\')).toBe('a$1\\c');
    refused(replace('abc', 'b', '$'), /"\$" must come before a group number/);
    refused(replace('abc', 'b', 'x$y'), /"\$" must come before a group number/);
    refused(replace('abc', 'b', '\\n'), /"\\" must come before "\$" or "\\"/);
    refused(replace('abc', 'b', 'x\\'), /"\\" must come before "\$" or "\\"/);
    // Even where nothing matches: the replacement is wrong for any input.
    refused(replace('abc', 'z', '$'), /"\$" must come before a group number/);
  });

  it('takes the replacement as literal text with the q flag', () => {
    expect(replaced('a\\b\\c', '\\', '\\\\', 'q')).toBe('a\\\\b\\\\c');
    expect(replaced('a/b/c', '/', '$', 'q')).toBe('a$b$c');
    expect(replaced('a.b.c', '.', '$0', 'q')).toBe('a$0b$0c');
  });

  it('refuses a pattern that matches the empty string, as XPath does', () => {
    for (const pattern of ['', 'x*', '^', '$', 'a?', '(a|)', '^.*?$'])
      refused(replace('abc', pattern, '-'), /replace takes no pattern that matches the empty string/);
    expect(replaced('abc', '.^[d-z]*', 'smix')).toBe('abc');
    expect(replaced('foobar', '^fo*b*', '#')).toBe('#ar');
  });

  it('gives a group in a repetition the last text it matched, in whichever iteration', () => {
    expect(replaced('ab', '(?:(a)|b)+', '[$1]')).toBe('[a]');
    expect(replaced('bab', '(?:(a)|(b))+', '[$1$2]')).toBe('[ab]');
    expect(replaced('abc!', '(\\w)+', '$1')).toBe('c!');
  });
});

describe('patterns written as FEEL string literals', () => {
  it("keep a backslash that is not one of FEEL's escapes, so a literal reads as the TCK writes it", () => {
    expect(run(String.raw`matches("a1", "^a\d$")`).value).toBe(true);
    expect(run(String.raw`replace("a.b", "\.", "\\\\")`).value).toBe(String.raw`a\b`);
    expect(run(String.raw`string length("\d")`).value).toBe(2);
    expect(run(String.raw`"\"q\"\n"`).value).toBe('"q"\n');
  });
});

describe('split cuts at a pattern, as XPath fn:tokenize (DMN 1.5)', () => {
  it('at each match, keeping empty texts between matches, none for an empty input', () => {
    expect(run(String.raw`split("John Doe", "\s")`).value).toEqual(['John', 'Doe']);
    expect(run('split("a;b;c;;", ";")').value).toEqual(['a', 'b', 'c', '', '']);
    expect(run(String.raw`split("2025-01-31T10:30", "[-T:]")`).value).toEqual(['2025', '01', '31', '10', '30']);
    expect(run('split("abc", ",")').value).toEqual(['abc']);
    expect(run('split("", ",")').value).toEqual([]);
  });

  it('is null with a note for a delimiter that matches the empty string or is no pattern, and refused at save when written so', () => {
    const empty = run('split("abc", "x*")');
    expect(empty.value).toBeNull();
    expect(empty.notes[0]).toMatch(/split takes no pattern that matches the empty string/);
    expect(run('split("abc", "(")').value).toBeNull();
    expect(run('split(null, ",")').value).toBeNull();
  });
});
