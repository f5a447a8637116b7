/**
 * FEEL's patterns (`matches`, `replace`), as DMN 1.5 defines them: XPath's regular expressions (XQuery and XPath
 * Functions and Operators 3.1, 5.6: XML Schema's, with `^` and `$` anchors, reluctant quantifiers, non-capturing
 * groups and the flags s, m, i, x and q), run in time linear in the input.
 *
 * Not JavaScript's RegExp, for two reasons. Its language is another: XPath subtracts classes (`[A-Z-[OI]]`), names
 * blocks (`\p{IsBasicLatin}`) and XML name characters (`\i`, `\c`), counts symbols as word characters (`\w`), lets
 * `.` take U+2028 and has no `\b`, `\x41` or lookarounds; XPath's i flag leaves `\p{Lu}` alone, and its groups keep,
 * in a repetition, the last text they matched. And RegExp backtracks: for some patterns (`(a+)+$`, `(a|a)*b`,
 * `.*.*.*x`) its time grows exponentially or as a high power of the input's length, so one rule could stall the
 * function that runs it for hours. So a pattern is parsed here by XPath's grammar and compiled to a Thompson
 * automaton, simulated breadth-first (Pike's VM, how RE2, Go and Rust run patterns): every state at most once per
 * character, whatever the pattern, with the leftmost match and the captures a backtracking engine would give.
 *
 * Back-references (`(a)\1`), which no automaton runs in linear time, are refused, as any invalid pattern is: the
 * caller makes a null and a note of it. Categories (`\p{Lu}`) are tested by a RegExp, so they follow the Unicode
 * version of the Node.js that runs; block names are Unicode 14's, with XML Schema 1.0's older names Greek,
 * CombiningMarksforSymbols and PrivateUse.
 */
import type { Budget } from './budget.ts';

/** Bounds on one pattern, so that no pattern compiles to an automaton too large to run. */
export const patternLimits = {
  /** Characters of pattern text. */
  maxLength: 1000,
  /** States of the automaton: a counted repetition copies what it repeats (`(a{100}){100}` is 10,000 states). */
  maxStates: 10_000,
} as const;

/** Why a pattern (or a replacement) cannot be run: the message for a note. */
export class PatternProblem extends Error {}

/** Whether a character, by its code point, is one the pattern's character matches. */
type CharTest = (code: number) => boolean;

type Anchor = '^' | '$';

type Node =
  | { k: 'char'; test: CharTest }
  | { k: 'seq'; items: Node[] }
  | { k: 'alt'; items: Node[] }
  | { k: 'group'; index: number; of: Node }
  | { k: 'repeat'; of: Node; min: number; max: number; lazy: boolean }
  | { k: 'assert'; kind: Anchor };

/** An automaton state: `next` is where a thread goes once the state's character is read or its check holds. */
type Instruction =
  | { op: 'char'; test: CharTest; next: number }
  | { op: 'split'; first: number; second: number }
  | { op: 'jump'; to: number }
  | { op: 'save'; slot: number; next: number }
  | { op: 'assert'; kind: Anchor; next: number }
  | { op: 'fail' }
  | { op: 'match' };

export interface Pattern {
  readonly program: readonly Instruction[];
  /** Scratch for `matchesAnywhere`: two lists of states and a stack, as large as the program needs. */
  readonly lists: { current: Int32Array; next: Int32Array; stack: Int32Array };
  /** Capture groups, the whole match not counted. */
  readonly groups: number;
  readonly multiline: boolean;
  /** Flag q: the pattern was taken as literal text, and so is a replacement. */
  readonly literal: boolean;
}

/** A test remembered per character: category and case tests are slowish, and a text repeats few distinct characters. */
function remembered(test: CharTest): CharTest {
  // 0 not tested yet, 1 no, 2 yes; beyond ASCII, a map bounded so that no text can grow it without end.
  const ascii = new Uint8Array(128);
  const others = new Map<number, boolean>();
  return (code) => {
    if (code < 128) return (ascii[code] ||= test(code) ? 2 : 1) === 2;
    let result = others.get(code);
    if (result === undefined) {
      result = test(code);
      if (others.size < 4_096) others.set(code, result);
    }
    return result;
  };
}

const inRanges =
  (ranges: readonly (readonly [number, number])[]): CharTest =>
  (code) =>
    ranges.some(([low, high]) => code >= low && code <= high);

/** A Unicode general category (`Lu`, `N`), by a RegExp: the engine knows them, for its own Unicode version. */
function category(name: string): CharTest {
  const regexp = new RegExp(`\\p{${name}}`, 'u');
  return (code) => regexp.test(String.fromCodePoint(code));
}

/** The categories XML Schema names: `\p{Cs}` (surrogates) is not one of them. */
const categoryNames = /^(?:L[ultmo]?|M[nce]?|N[dlo]?|P[cdseifo]?|Z[slp]?|S[mcko]?|C[cfon]?)$/;

/** XML's NameStartChar, which `\i` matches (XML 1.0, fifth edition, 2.3). */
const nameStartChars: [number, number][] = [
  [0x3a, 0x3a],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
  [0xc0, 0xd6],
  [0xd8, 0xf6],
  [0xf8, 0x2ff],
  [0x370, 0x37d],
  [0x37f, 0x1fff],
  [0x200c, 0x200d],
  [0x2070, 0x218f],
  [0x2c00, 0x2fef],
  [0x3001, 0xd7ff],
  [0xf900, 0xfdcf],
  [0xfdf0, 0xfffd],
  [0x10000, 0xeffff],
];

/** XML's NameChar, which `\c` matches. */
const nameChars: [number, number][] = [...nameStartChars, [0x2d, 0x2e], [0x30, 0x39], [0xb7, 0xb7], [0x300, 0x36f], [0x203f, 0x2040]];

const notWordChar = /[\p{P}\p{Z}\p{C}]/u;

/** XPath's multi-character escapes, by their lower-case letter; the upper-case one is the complement. */
const multiCharEscapes: Record<string, CharTest> = {
  s: (code) => code === 0x20 || code === 0x9 || code === 0xa || code === 0xd,
  i: inRanges(nameStartChars),
  c: inRanges(nameChars),
  d: category('Nd'),
  // Every character but punctuation, separators and "other" (controls, format, private use, unassigned).
  w: (code) => !notWordChar.test(String.fromCodePoint(code)),
};

/** Single-character escapes: `\n`, `\r`, `\t`, and the metacharacters, which stand for themselves. */
const singleCharEscapes: Record<string, number> = { n: 0xa, r: 0xd, t: 0x9 };
for (const c of '\\|.-^?*+{}()[]$') singleCharEscapes[c] = c.charCodeAt(0);

/**
 * Case-variants, as XPath's `i` flag has them: two characters are when their lower-case forms (fn:lower-case, the
 * full mapping, which is JavaScript's) are the same, or their upper-case forms are. So "k" has "K" and the Kelvin
 * sign, "ß" has "ẞ", and "S" the long s. A character or a range of the pattern matches its characters' variants.
 */
const lowerOf = (code: number) => String.fromCodePoint(code).toLowerCase();
const upperOf = (code: number) => String.fromCodePoint(code).toUpperCase();

/** Characters whose lower-case or upper-case form differs from them, by that form: made on first use. */
let caseGroups: { byLower: Map<string, number[]>; byUpper: Map<string, number[]> } | undefined;

function groupByCase(): NonNullable<typeof caseGroups> {
  const groups = { byLower: new Map<string, number[]>(), byUpper: new Map<string, number[]>() };
  const add = (map: Map<string, number[]>, key: string, code: number) => (map.get(key) ?? map.set(key, []).get(key)!).push(code);
  // Planes 2 and above, the CJK ideographs, Hangul syllables, surrogates and private use have no case.
  for (let code = 0; code < 0x20000; code++) {
    if (code === 0x3400) code = 0xa000;
    if (code === 0xac00) code = 0xf900;
    const [text, lower, upper] = [String.fromCodePoint(code), lowerOf(code), upperOf(code)];
    if (lower === text && upper === text) continue;
    add(groups.byLower, lower, code);
    add(groups.byUpper, upper, code);
  }
  return groups;
}

/**
 * A character's case-variants, for ranges too wide to list their characters' forms. A variant other than the
 * character itself changes case, or is the form another one changes to, which (in Unicode) changes case itself: so
 * the groups of the characters that change case hold them all. Making the groups takes some tens of milliseconds,
 * once.
 */
function caseVariants(code: number): number[] {
  caseGroups ??= groupByCase();
  return [code, ...(caseGroups.byLower.get(lowerOf(code)) ?? []), ...(caseGroups.byUpper.get(upperOf(code)) ?? [])];
}

/** A range wider than this is matched case-blind through `caseVariants` rather than a list of its characters' forms. */
const listedRange = 128;

/** Unicode blocks by their names as XML Schema writes them (spaces and underscores dropped): read on first use. */
let blocks: Map<string, [number, number][]> | undefined;

function blockTest(name: string): CharTest | undefined {
  if (!blocks) {
    blocks = new Map();
    for (const entry of blockTable.trim().split(/\s+/)) {
      const [, block, low, high] = /^(.+):([0-9A-F]+)-([0-9A-F]+)$/.exec(entry)!;
      (blocks.get(block!) ?? blocks.set(block!, []).get(block!)!).push([Number.parseInt(low!, 16), Number.parseInt(high!, 16)]);
    }
  }
  const ranges = blocks.get(name);
  return ranges && inRanges(ranges);
}

/** The pattern without the whitespace the `x` flag removes: all of it but what stands inside a class's brackets. */
function withoutWhitespace(pattern: string): string {
  const space = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  let out = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (depth === 0 && space(c)) continue;
    out += c;
    if (c === '\\') {
      // An escape is read after the removal: `\ s` is `\s`, while `\[` opens no class.
      if (depth === 0) while (space(pattern[i + 1])) i++;
      if (i + 1 < pattern.length) out += pattern[++i];
    } else if (c === '[') depth++;
    else if (c === ']' && depth > 0) depth--;
  }
  return out;
}

/** XPath's grammar (XML Schema 1.1's, Part 2 appendix G, with XPath's additions), read into a tree. */
class Parser {
  private at = 0;
  groups = 0;

  constructor(
    /** The pattern as it was written, for messages. */
    private readonly written: string,
    private readonly source: string,
    private readonly caseless: boolean,
    private readonly dotAll: boolean,
  ) {}

  /** The pattern as literal text (flag q): each character stands for itself, and with the i flag for its case-variants. */
  literal(): Node {
    return { k: 'seq', items: Array.from(this.source, (c) => this.literalChar(c.codePointAt(0)!)) };
  }

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.source.length) this.invalid('")" closes no group');
    return node;
  }

  private invalid(why: string): never {
    throw new PatternProblem(`"${this.written}" is not a valid pattern: ${why}`);
  }

  private peek(offset = 0) {
    return this.source[this.at + offset];
  }

  private alternation(): Node {
    const items = [this.sequence()];
    while (this.peek() === '|') {
      this.at++;
      items.push(this.sequence());
    }
    return items.length === 1 ? items[0]! : { k: 'alt', items };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.quantified(this.atom()));
    return { k: 'seq', items };
  }

  private quantified(of: Node): Node {
    let min: number;
    let max: number;
    const c = this.peek();
    if (c === '*' || c === '+' || c === '?') {
      this.at++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      const quantity = /\{(\d+)(,(\d*))?\}/y;
      quantity.lastIndex = this.at;
      const [text, low, comma, high] = quantity.exec(this.source) ?? this.invalid('"{" must start a quantifier: {n}, {n,} or {n,m}');
      min = Number(low);
      max = comma === undefined ? min : high === '' ? Infinity : Number(high);
      if (max < min) this.invalid(`the quantifier ${text} has its maximum below its minimum`);
      this.at = quantity.lastIndex;
    } else return of;
    // XPath's reluctant quantifiers: `*?`, `{2,}?`.
    const lazy = this.peek() === '?';
    if (lazy) this.at++;
    return { k: 'repeat', of, min, max, lazy };
  }

  private atom(): Node {
    const c = this.peek()!;
    switch (c) {
      case '(':
        return this.group();
      case '^':
      case '$':
        this.at++;
        return { k: 'assert', kind: c };
      case '[':
        return this.char(this.classExpression());
      case '.':
        this.at++;
        // Any character but a newline or carriage return, or with the s flag any at all.
        return this.char(this.dotAll ? () => true : (code) => code !== 0xa && code !== 0xd);
      case '\\': {
        const next = this.peek(1);
        if (next !== undefined && next >= '1' && next <= '9') throw new PatternProblem('backreferences are not supported');
        const escaped = this.escape();
        return typeof escaped === 'number' ? this.literalChar(escaped) : this.char(remembered(escaped));
      }
      case '*':
      case '+':
      case '?':
      case '{':
        return this.invalid(`"${c}" has nothing before it to repeat`);
      case ']':
      case '}':
        return this.invalid(`"${c}" must be escaped as "\\${c}"`);
      default: {
        // One code point: a surrogate pair is one character.
        const code = this.source.codePointAt(this.at)!;
        this.at += code > 0xffff ? 2 : 1;
        return this.literalChar(code);
      }
    }
  }

  private char(test: CharTest): Node {
    return { k: 'char', test };
  }

  /** A character standing for itself; case-blind, its test is remembered, as it finds the case forms of what it reads. */
  private literalChar(code: number): Node {
    return this.char(this.caseless ? remembered(this.single(code)) : this.single(code));
  }

  private group(): Node {
    let index = -1;
    if (this.source.startsWith('(?:', this.at)) this.at += 3;
    else if (this.peek(1) === '?') {
      if (/^\(\?<?[=!]/.test(this.source.slice(this.at, this.at + 4))) throw new PatternProblem('lookahead and lookbehind are not supported');
      this.invalid('"(?" must start a non-capturing group, "(?:"');
    } else {
      index = ++this.groups;
      this.at++;
    }
    const of = this.alternation();
    if (this.peek() !== ')') this.invalid('a "(" is not closed');
    this.at++;
    return index < 0 ? of : { k: 'group', index, of };
  }

  /** A character, with the `i` flag its case-variants too. */
  private single(code: number): CharTest {
    return this.caseless ? this.range(code, code) : (c) => c === code;
  }

  /** The characters from `low` to `high`, with the `i` flag their case-variants too. */
  private range(low: number, high: number): CharTest {
    const within = (c: number) => c >= low && c <= high;
    if (!this.caseless) return within;
    if (high - low >= listedRange) return (c) => within(c) || caseVariants(c).some(within);
    // The lower-case and upper-case forms of the range's characters: a character with one of them is a variant.
    const [lowers, uppers] = [new Set<string>(), new Set<string>()];
    for (let code = low; code <= high; code++) {
      lowers.add(lowerOf(code));
      uppers.add(upperOf(code));
    }
    return (c) => within(c) || lowers.has(lowerOf(c)) || uppers.has(upperOf(c));
  }

  /** The escape at `\`: a single character's code point, or a class's test. */
  private escape(): number | CharTest {
    const kind = this.peek(1);
    if (kind === undefined) return this.invalid('"\\" ends the pattern');
    this.at += 2;
    const single = singleCharEscapes[kind];
    if (single !== undefined) return single;
    const multi = multiCharEscapes[kind.toLowerCase()];
    if (multi) return kind === kind.toLowerCase() ? multi : (code) => !multi(code);
    if (kind !== 'p' && kind !== 'P') return this.invalid(`"\\${kind}" is not an escape XPath knows`);
    const braced = /\{([^}]*)\}/y;
    braced.lastIndex = this.at;
    const [, name] = braced.exec(this.source) ?? this.invalid(`"\\${kind}" must name a category or block in braces`);
    this.at = braced.lastIndex;
    // XPath's i flag leaves categories and blocks as they are: `\p{Lu}` stays upper-case letters.
    const test = categoryNames.test(name!)
      ? category(name!)
      : /^Is[a-zA-Z0-9-]+$/.test(name!)
        ? (blockTest(name!.slice(2)) ?? this.invalid(`"${name}" names no Unicode block`))
        : this.invalid(`"${name}" names no Unicode category`);
    return kind === 'p' ? test : (code) => !test(code);
  }

  /**
   * A class in brackets (the "[" is next): its characters, or those it leaves out after "^", less those of a class
   * subtracted after "-" (`[A-Z-[OI]]`).
   */
  private classExpression(): CharTest {
    this.at++;
    const negated = this.peek() === '^';
    if (negated) this.at++;
    const parts: CharTest[] = [];
    let subtracted: CharTest | undefined;
    for (;;) {
      const c = this.peek();
      if (c === ']' || (c === '-' && this.peek(1) === '[')) {
        if (parts.length === 0) this.invalid('a class must hold at least one character');
        if (c === '-') {
          this.at++;
          subtracted = this.classExpression();
          if (this.peek() !== ']') this.invalid('a subtracted class must end the class it is subtracted from');
        }
        this.at++;
        break;
      }
      parts.push(this.classPart());
    }
    const group = parts.length === 1 ? parts[0]! : (code: number) => parts.some((part) => part(code));
    const kept = negated ? (code: number) => !group(code) : group;
    return remembered(subtracted ? (code) => kept(code) && !subtracted(code) : kept);
  }

  /**
   * One part of a class: a character, a range or a class escape. A "-" after a character makes a range with the next,
   * unless it ends the class or comes before a subtraction, where it is itself (XML Schema 1.1's rule, so `[a-]`,
   * `[0-9-.]` and `[a--[b]]` hold a hyphen, while `[--z]` and `[a--]` are invalid).
   */
  private classPart(): CharTest {
    const first = this.classChar();
    if (typeof first === 'function') return first;
    if (this.peek() !== '-' || this.peek(1) === '[' || this.peek(1) === ']' || this.source.startsWith('-[', this.at + 1)) return this.single(first.code);
    this.at++;
    const last = this.classChar();
    if (typeof last === 'function') return this.invalid('a range must end with a character, not a class escape');
    if (first.hyphen || last.hyphen) this.invalid('a range cannot start or end with an unescaped "-" (write "\\-")');
    if (last.code < first.code) this.invalid(`the range ${String.fromCodePoint(first.code)}-${String.fromCodePoint(last.code)} runs backwards`);
    return this.range(first.code, last.code);
  }

  /** One character of a class (and whether it is an unescaped "-"), or a class escape's test. */
  private classChar(): { code: number; hyphen: boolean } | CharTest {
    const c = this.peek();
    if (c === undefined) return this.invalid('a "[" is not closed');
    if (c === '[' || c === ']') return this.invalid(`"${c}" must be escaped inside a class`);
    if (c === '\\') {
      const next = this.peek(1);
      // Neither a back-reference nor, as elsewhere, an octal escape.
      if (next !== undefined && next >= '0' && next <= '9') this.invalid(`"\\${next}" cannot stand in a class`);
      const escaped = this.escape();
      return typeof escaped === 'number' ? { code: escaped, hyphen: false } : escaped;
    }
    const code = this.source.codePointAt(this.at)!;
    this.at += code > 0xffff ? 2 : 1;
    return { code, hyphen: c === '-' };
  }
}

class Compiler {
  readonly program: Instruction[] = [];

  private emit<I extends Instruction>(instruction: I): I {
    if (this.program.length >= patternLimits.maxStates)
      throw new PatternProblem(`the pattern needs more than ${patternLimits.maxStates} states (counted repetitions copy what they repeat)`);
    this.program.push(instruction);
    return instruction;
  }

  private get here() {
    return this.program.length;
  }

  compile(node: Node): void {
    switch (node.k) {
      case 'char':
        this.emit({ op: 'char', test: node.test, next: this.here + 1 });
        return;
      case 'assert':
        this.emit({ op: 'assert', kind: node.kind, next: this.here + 1 });
        return;
      case 'seq':
        for (const item of node.items) this.compile(item);
        return;
      case 'group':
        this.emit({ op: 'save', slot: 2 * node.index, next: this.here + 1 });
        this.compile(node.of);
        this.emit({ op: 'save', slot: 2 * node.index + 1, next: this.here + 1 });
        return;
      case 'alt': {
        const jumps: { to: number }[] = [];
        node.items.forEach((item, i) => {
          if (i === node.items.length - 1) return this.compile(item);
          const split = this.emit({ op: 'split', first: this.here + 1, second: -1 });
          this.compile(item);
          jumps.push(this.emit({ op: 'jump', to: -1 }));
          split.second = this.here;
        });
        for (const jump of jumps) jump.to = this.here;
        return;
      }
      case 'repeat':
        return this.repeat(node);
    }
  }

  /**
   * An iteration that fails when it reads nothing, as backtracking engines (Perl's, Java's, JavaScript's) have every
   * iteration past the minimum, and XPath leaves to the implementation: compiled twice over, as "nothing read yet", which fails at its end, and "something read", which each character of the first
   * leads into. The read-nothing state is a state of its own, so that two threads in one iteration's states at one
   * position never differ but for captures, which is what running each state once per position needs.
   */
  private readingIteration(of: Node): void {
    const nothingRead = this.here;
    this.compile(of);
    const size = this.here - nothingRead;
    this.emit({ op: 'fail' });
    const somethingRead = this.here;
    this.compile(of);
    // Both copies have one layout: a character read in the first leads to the state after it in the second.
    for (let at = nothingRead; at < nothingRead + size; at++) {
      const instruction = this.program[at]!;
      if (instruction.op === 'char') instruction.next += somethingRead - nothingRead;
    }
  }

  /** `of` `min` times, then up to `max - min` more or, when `max` is unbounded, a loop; greedy takes more first, lazy fewer. */
  private repeat({ of, min, max, lazy }: Extract<Node, { k: 'repeat' }>): void {
    // No state clears the groups inside: as XPath has it, a group keeps the last text it matched in any iteration.
    for (let i = 0; i < min; i++) this.compile(of);
    const splits: { first: number; second: number }[] = [];
    const more = () => {
      const split = this.emit({ op: 'split', first: -1, second: -1 });
      if (lazy) split.second = this.here;
      else split.first = this.here;
      splits.push(split);
      this.readingIteration(of);
    };
    if (max === Infinity) {
      const loop = this.here;
      more();
      this.emit({ op: 'jump', to: loop });
    } else for (let i = min; i < max; i++) more();
    for (const split of splits) lazy ? (split.first = this.here) : (split.second = this.here);
  }
}

/**
 * Compiles a pattern with XPath's flags: s (`.` takes newlines too), m (`^` and `$` at lines), i (case-variants
 * match), x (whitespace outside classes removed) and q (the whole pattern is literal text; m, s and x then do
 * nothing), each any number of times, in any order.
 *
 * @throws PatternProblem when it is too long, not valid, uses back-references, or needs too many states
 */
export function compilePattern(pattern: string, flags: string): Pattern {
  if (pattern.length > patternLimits.maxLength) throw new PatternProblem(`a pattern may be at most ${patternLimits.maxLength} characters`);
  if (!/^[smixq]*$/.test(flags)) throw new PatternProblem(`unknown pattern flags "${flags}"`);
  const literal = flags.includes('q');
  const parser = new Parser(pattern, flags.includes('x') && !literal ? withoutWhitespace(pattern) : pattern, flags.includes('i'), flags.includes('s'));
  const tree = literal ? parser.literal() : parser.parse();
  const compiler = new Compiler();
  compiler.compile({ k: 'group', index: 0, of: tree });
  compiler.program.push({ op: 'match' });
  const size = compiler.program.length;
  return {
    program: compiler.program,
    lists: { current: new Int32Array(size), next: new Int32Array(size), stack: new Int32Array(2 * size + 1) },
    groups: parser.groups,
    multiline: flags.includes('m') && !literal,
    literal,
  };
}

type Captures = (number | undefined)[];

/** The code point that starts at `at`, or -1 at the end. */
const codeAt = (input: string, at: number) => (at < input.length ? input.codePointAt(at)! : -1);

/** Where the character at `at` ends. */
const after = (code: number, at: number) => at + (code > 0xffff ? 2 : 1);

/**
 * Whether an anchor holds at `at`. Without the m flag, `^` is the start and `$` the end of the input. With it, lines
 * end at newlines (U+000A, no other character) as XPath 3.1 counts them: a newline that ends the input ends the last
 * line rather than starting an empty one, so `^` holds after every newline but that one, and `$` before every newline
 * and at the end unless a newline is the input's last character.
 */
function holds(pattern: Pattern, kind: Anchor, input: string, at: number): boolean {
  if (kind === '^') return at === 0 || (pattern.multiline && at < input.length && input.charCodeAt(at - 1) === 0xa);
  if (!pattern.multiline) return at === input.length;
  return input.charCodeAt(at) === 0xa || (at === input.length && input.charCodeAt(at - 1) !== 0xa);
}

/**
 * The leftmost match at or after `from`, as a backtracking engine would choose it, with its captures (slot 2n and
 * 2n+1 are group n's start and end; 0 and 1 the whole match's), or null. Spends a step on `budget` for every state
 * visited, so one search costs at most (characters × states) steps.
 */
function search(pattern: Pattern, input: string, from: number, budget: Budget): Captures | null {
  const { program } = pattern;
  const slots = 2 * (pattern.groups + 1);
  // A state is entered once per position: marked with the position's round.
  const entered = new Int32Array(program.length).fill(-1);
  let round = 0;
  let current: { pc: number; captures: Captures }[] = [];
  let next: { pc: number; captures: Captures }[] = [];
  let found: Captures | null = null;

  /** Adds the thread at `pc` and every state it reaches without reading a character, in priority order. */
  const add = (list: typeof current, pc: number, captures: Captures, at: number) => {
    const stack: { pc: number; captures: Captures }[] = [{ pc, captures }];
    while (stack.length) {
      const thread = stack.pop()!;
      if (entered[thread.pc] === round) continue;
      entered[thread.pc] = round;
      budget.spend(1);
      const instruction = program[thread.pc]!;
      switch (instruction.op) {
        case 'jump':
          stack.push({ pc: instruction.to, captures: thread.captures });
          break;
        case 'split':
          stack.push({ pc: instruction.second, captures: thread.captures }, { pc: instruction.first, captures: thread.captures });
          break;
        case 'save': {
          const saved = thread.captures.slice();
          saved[instruction.slot] = at;
          stack.push({ pc: instruction.next, captures: saved });
          break;
        }
        case 'assert':
          if (holds(pattern, instruction.kind, input, at)) stack.push({ pc: instruction.next, captures: thread.captures });
          break;
        case 'fail':
          break;
        default:
          list.push(thread);
      }
    }
  };

  for (let at = from; ;) {
    // Until a match is found, a thread starts at every position, after (below) those that started earlier.
    if (found === null) add(current, 0, new Array<number | undefined>(slots), at);
    else if (current.length === 0) break;
    const code = codeAt(input, at);
    const end = after(code, at);
    round++;
    for (const thread of current) {
      const instruction = program[thread.pc]!;
      budget.spend(1);
      if (instruction.op === 'match') {
        // Threads after this one have lower priority: the match stands unless one before it matches later.
        found = thread.captures;
        break;
      }
      if (instruction.op === 'char' && code >= 0 && instruction.test(code)) add(next, instruction.next, thread.captures, end);
    }
    [current, next] = [next, []];
    if (code < 0) break;
    at = end;
  }
  return found;
}

/** States entered at the current position, marked with its generation: shared, as evaluation never runs two searches at once. */
let marks = new Int32Array(1_024);
let generation = 0;

function nextGeneration() {
  if (++generation === 0x7fffffff) {
    marks.fill(0);
    generation = 1;
  }
}

/** The search `matchesAnywhere` runs: its lists, so that `enter` reads them without a closure made per call. */
const scan: { pattern?: Pattern; input: string; next: Int32Array; nextCount: number; entered: number } = {
  input: '',
  next: new Int32Array(0),
  nextCount: 0,
  entered: 0,
};

/** Puts the character states reachable from `pc` at `at` without reading into `scan.next`: true once the match state is. */
function enter(pc: number, at: number): boolean {
  const { program, lists } = scan.pattern!;
  const stack = lists.stack;
  let depth = 0;
  stack[depth++] = pc;
  while (depth > 0) {
    const state = stack[--depth]!;
    if (marks[state] === generation) continue;
    marks[state] = generation;
    scan.entered++;
    const instruction = program[state]!;
    switch (instruction.op) {
      case 'jump':
        stack[depth++] = instruction.to;
        break;
      case 'split':
        stack[depth++] = instruction.second;
        stack[depth++] = instruction.first;
        break;
      case 'save':
        stack[depth++] = instruction.next;
        break;
      case 'assert':
        if (holds(scan.pattern!, instruction.kind, scan.input, at)) stack[depth++] = instruction.next;
        break;
      case 'char':
        scan.next[scan.nextCount++] = state;
        break;
      case 'match':
        return true;
    }
  }
  return false;
}

/**
 * Whether the pattern matches anywhere in `input`: the same automaton, without the captures and priorities a yes or
 * no does not need, on state lists made once per pattern, so that a call allocates nothing. Spends a step on `budget`
 * for every state entered.
 */
export function matchesAnywhere(pattern: Pattern, input: string, budget: Budget): boolean {
  const { program, lists } = pattern;
  if (marks.length < program.length) marks = new Int32Array(program.length);
  Object.assign(scan, { pattern, input, next: lists.next, nextCount: 0, entered: 0 });
  let current = lists.current;
  nextGeneration();
  for (let at = 0; ;) {
    // `scan.next` holds the states the last character led to; a thread starting here joins them.
    if (enter(0, at)) return true;
    const currentCount = scan.nextCount;
    const reached = scan.next;
    scan.next = current;
    scan.nextCount = 0;
    current = reached;
    budget.spend(scan.entered + 1);
    scan.entered = 0;
    const code = codeAt(input, at);
    if (code < 0) return false;
    const end = after(code, at);
    nextGeneration();
    for (let i = 0; i < currentCount; i++) {
      const instruction = program[current[i]!] as Extract<Instruction, { op: 'char' }>;
      if (instruction.test(code) && enter(instruction.next, end)) return true;
    }
    at = end;
  }
}

/**
 * `input` with every match replaced, as XPath's fn:replace has it: the matches do not overlap, and in the replacement
 * `$N` is the text of group N (`$0` the whole match; the longest run of digits that names a group, or else a single
 * digit, whose group, if the pattern has none such, gives no text), `\$` a dollar and `\\` a backslash. With the q
 * flag the replacement is literal text.
 *
 * @throws PatternProblem when the pattern matches the empty string (XPath's FORX0003: where would it replace?), or the
 * replacement has a `$` not before a digit or a `\` not before `$` or `\` (FORX0004)
 */
export function replaceAll(pattern: Pattern, input: string, replacement: string, budget: Budget): string {
  const parts = pattern.literal ? [replacement] : replacementParts(replacement, pattern.groups);
  budget.spend(replacement.length);
  let out = '';
  let copied = 0;
  for (const captures of nonEmptyMatches(pattern, input, budget, 'replace')) {
    const start = captures[0]!;
    const substitution = parts.map((part) => (typeof part === 'string' ? part : groupText(captures, part, input))).join('');
    budget.spend(start - copied + substitution.length);
    out += input.slice(copied, start) + substitution;
    copied = captures[1]!;
  }
  return out + input.slice(copied);
}

/**
 * `input` cut at every match, as XPath's fn:tokenize has it (DMN 1.5's `split`): the texts before, between and after
 * the matches, empty ones included (`split("a;;b", ";")` is `["a", "", "b"]`); an empty input gives none.
 *
 * @throws PatternProblem when the pattern matches the empty string (XPath's FORX0003)
 */
export function splitAll(pattern: Pattern, input: string, budget: Budget): string[] {
  const parts: string[] = [];
  let copied = 0;
  for (const captures of nonEmptyMatches(pattern, input, budget, 'split')) {
    parts.push(input.slice(copied, captures[0]));
    copied = captures[1]!;
  }
  budget.spend(input.length);
  return input === '' ? [] : [...parts, input.slice(copied)];
}

/**
 * The matches of a pattern in `input`, left to right, not overlapping: what `replace` and `split` cut at.
 *
 * @throws PatternProblem when the pattern matches the empty string: XPath refuses it, as no cut would be made
 */
function* nonEmptyMatches(pattern: Pattern, input: string, budget: Budget, fn: string): Generator<Captures> {
  if (matchesAnywhere(pattern, '', budget)) throw new PatternProblem(`${fn} takes no pattern that matches the empty string`);
  for (let at = 0; at <= input.length;) {
    const captures = search(pattern, input, at, budget);
    if (!captures) return;
    yield captures;
    // No match is empty: the next search starts where this match ends.
    at = captures[1]!;
  }
}

/** The text group `n` matched, or nothing when it took no part in the match. */
const groupText = (captures: Captures, n: number, input: string) =>
  captures[2 * n] === undefined || captures[2 * n + 1] === undefined ? '' : input.slice(captures[2 * n], captures[2 * n + 1]);

/** A replacement read into literal texts and group numbers. */
function replacementParts(replacement: string, groups: number): (string | number)[] {
  const parts: (string | number)[] = [];
  let text = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c === '\\') {
      const next = replacement[i + 1];
      if (next !== '\\' && next !== '$') throw new PatternProblem('in a replacement, "\\" must come before "$" or "\\" (write "\\\\" for a backslash)');
      text += next;
      i++;
    } else if (c === '$') {
      const digits = /\d+/y;
      digits.lastIndex = i + 1;
      const run = digits.exec(replacement)?.[0];
      if (run === undefined) throw new PatternProblem('in a replacement, "$" must come before a group number (write "\\$" for a dollar)');
      // XPath: all the digits, less the last while they make a number past both the groups and 9. Leading zeros
      // count for nothing, and past 16 digits no number names a group.
      let taken = run.slice(0, run.length - run.replace(/^0+/, '').length + 16);
      while (Number(taken) > Math.max(groups, 9)) taken = taken.slice(0, -1);
      parts.push(text, Number(taken) <= groups ? Number(taken) : '');
      text = run.slice(taken.length);
      i += run.length;
    } else text += c;
  }
  parts.push(text);
  return parts;
}

/**
 * Unicode 14's blocks (Blocks.txt), each as name:first-last in hex, with the names XML Schema 1.0 gave three of them
 * (from Unicode 3.1) after: a block named more than once is all its ranges.
 */
const blockTable = `
BasicLatin:0-7F Latin-1Supplement:80-FF LatinExtended-A:100-17F LatinExtended-B:180-24F IPAExtensions:250-2AF SpacingModifierLetters:2B0-2FF
CombiningDiacriticalMarks:300-36F GreekandCoptic:370-3FF Cyrillic:400-4FF CyrillicSupplement:500-52F Armenian:530-58F Hebrew:590-5FF Arabic:600-6FF
Syriac:700-74F ArabicSupplement:750-77F Thaana:780-7BF NKo:7C0-7FF Samaritan:800-83F Mandaic:840-85F SyriacSupplement:860-86F ArabicExtended-B:870-89F
ArabicExtended-A:8A0-8FF Devanagari:900-97F Bengali:980-9FF Gurmukhi:A00-A7F Gujarati:A80-AFF Oriya:B00-B7F Tamil:B80-BFF Telugu:C00-C7F
Kannada:C80-CFF Malayalam:D00-D7F Sinhala:D80-DFF Thai:E00-E7F Lao:E80-EFF Tibetan:F00-FFF Myanmar:1000-109F Georgian:10A0-10FF HangulJamo:1100-11FF
Ethiopic:1200-137F EthiopicSupplement:1380-139F Cherokee:13A0-13FF UnifiedCanadianAboriginalSyllabics:1400-167F Ogham:1680-169F Runic:16A0-16FF
Tagalog:1700-171F Hanunoo:1720-173F Buhid:1740-175F Tagbanwa:1760-177F Khmer:1780-17FF Mongolian:1800-18AF
UnifiedCanadianAboriginalSyllabicsExtended:18B0-18FF Limbu:1900-194F TaiLe:1950-197F NewTaiLue:1980-19DF KhmerSymbols:19E0-19FF Buginese:1A00-1A1F
TaiTham:1A20-1AAF CombiningDiacriticalMarksExtended:1AB0-1AFF Balinese:1B00-1B7F Sundanese:1B80-1BBF Batak:1BC0-1BFF Lepcha:1C00-1C4F
OlChiki:1C50-1C7F CyrillicExtended-C:1C80-1C8F GeorgianExtended:1C90-1CBF SundaneseSupplement:1CC0-1CCF VedicExtensions:1CD0-1CFF
PhoneticExtensions:1D00-1D7F PhoneticExtensionsSupplement:1D80-1DBF CombiningDiacriticalMarksSupplement:1DC0-1DFF LatinExtendedAdditional:1E00-1EFF
GreekExtended:1F00-1FFF GeneralPunctuation:2000-206F SuperscriptsandSubscripts:2070-209F CurrencySymbols:20A0-20CF
CombiningDiacriticalMarksforSymbols:20D0-20FF LetterlikeSymbols:2100-214F NumberForms:2150-218F Arrows:2190-21FF MathematicalOperators:2200-22FF
MiscellaneousTechnical:2300-23FF ControlPictures:2400-243F OpticalCharacterRecognition:2440-245F EnclosedAlphanumerics:2460-24FF BoxDrawing:2500-257F
BlockElements:2580-259F GeometricShapes:25A0-25FF MiscellaneousSymbols:2600-26FF Dingbats:2700-27BF MiscellaneousMathematicalSymbols-A:27C0-27EF
SupplementalArrows-A:27F0-27FF BraillePatterns:2800-28FF SupplementalArrows-B:2900-297F MiscellaneousMathematicalSymbols-B:2980-29FF
SupplementalMathematicalOperators:2A00-2AFF MiscellaneousSymbolsandArrows:2B00-2BFF Glagolitic:2C00-2C5F LatinExtended-C:2C60-2C7F Coptic:2C80-2CFF
GeorgianSupplement:2D00-2D2F Tifinagh:2D30-2D7F EthiopicExtended:2D80-2DDF CyrillicExtended-A:2DE0-2DFF SupplementalPunctuation:2E00-2E7F
CJKRadicalsSupplement:2E80-2EFF KangxiRadicals:2F00-2FDF IdeographicDescriptionCharacters:2FF0-2FFF CJKSymbolsandPunctuation:3000-303F
Hiragana:3040-309F Katakana:30A0-30FF Bopomofo:3100-312F HangulCompatibilityJamo:3130-318F Kanbun:3190-319F BopomofoExtended:31A0-31BF
CJKStrokes:31C0-31EF KatakanaPhoneticExtensions:31F0-31FF EnclosedCJKLettersandMonths:3200-32FF CJKCompatibility:3300-33FF
CJKUnifiedIdeographsExtensionA:3400-4DBF YijingHexagramSymbols:4DC0-4DFF CJKUnifiedIdeographs:4E00-9FFF YiSyllables:A000-A48F YiRadicals:A490-A4CF
Lisu:A4D0-A4FF Vai:A500-A63F CyrillicExtended-B:A640-A69F Bamum:A6A0-A6FF ModifierToneLetters:A700-A71F LatinExtended-D:A720-A7FF
SylotiNagri:A800-A82F CommonIndicNumberForms:A830-A83F Phags-pa:A840-A87F Saurashtra:A880-A8DF DevanagariExtended:A8E0-A8FF KayahLi:A900-A92F
Rejang:A930-A95F HangulJamoExtended-A:A960-A97F Javanese:A980-A9DF MyanmarExtended-B:A9E0-A9FF Cham:AA00-AA5F MyanmarExtended-A:AA60-AA7F
TaiViet:AA80-AADF MeeteiMayekExtensions:AAE0-AAFF EthiopicExtended-A:AB00-AB2F LatinExtended-E:AB30-AB6F CherokeeSupplement:AB70-ABBF
MeeteiMayek:ABC0-ABFF HangulSyllables:AC00-D7AF HangulJamoExtended-B:D7B0-D7FF HighSurrogates:D800-DB7F HighPrivateUseSurrogates:DB80-DBFF
LowSurrogates:DC00-DFFF PrivateUseArea:E000-F8FF CJKCompatibilityIdeographs:F900-FAFF AlphabeticPresentationForms:FB00-FB4F
ArabicPresentationForms-A:FB50-FDFF VariationSelectors:FE00-FE0F VerticalForms:FE10-FE1F CombiningHalfMarks:FE20-FE2F CJKCompatibilityForms:FE30-FE4F
SmallFormVariants:FE50-FE6F ArabicPresentationForms-B:FE70-FEFF HalfwidthandFullwidthForms:FF00-FFEF Specials:FFF0-FFFF LinearBSyllabary:10000-1007F
LinearBIdeograms:10080-100FF AegeanNumbers:10100-1013F AncientGreekNumbers:10140-1018F AncientSymbols:10190-101CF PhaistosDisc:101D0-101FF
Lycian:10280-1029F Carian:102A0-102DF CopticEpactNumbers:102E0-102FF OldItalic:10300-1032F Gothic:10330-1034F OldPermic:10350-1037F
Ugaritic:10380-1039F OldPersian:103A0-103DF Deseret:10400-1044F Shavian:10450-1047F Osmanya:10480-104AF Osage:104B0-104FF Elbasan:10500-1052F
CaucasianAlbanian:10530-1056F Vithkuqi:10570-105BF LinearA:10600-1077F LatinExtended-F:10780-107BF CypriotSyllabary:10800-1083F
ImperialAramaic:10840-1085F Palmyrene:10860-1087F Nabataean:10880-108AF Hatran:108E0-108FF Phoenician:10900-1091F Lydian:10920-1093F
MeroiticHieroglyphs:10980-1099F MeroiticCursive:109A0-109FF Kharoshthi:10A00-10A5F OldSouthArabian:10A60-10A7F OldNorthArabian:10A80-10A9F
Manichaean:10AC0-10AFF Avestan:10B00-10B3F InscriptionalParthian:10B40-10B5F InscriptionalPahlavi:10B60-10B7F PsalterPahlavi:10B80-10BAF
OldTurkic:10C00-10C4F OldHungarian:10C80-10CFF HanifiRohingya:10D00-10D3F RumiNumeralSymbols:10E60-10E7F Yezidi:10E80-10EBF OldSogdian:10F00-10F2F
Sogdian:10F30-10F6F OldUyghur:10F70-10FAF Chorasmian:10FB0-10FDF Elymaic:10FE0-10FFF Brahmi:11000-1107F Kaithi:11080-110CF SoraSompeng:110D0-110FF
Chakma:11100-1114F Mahajani:11150-1117F Sharada:11180-111DF SinhalaArchaicNumbers:111E0-111FF Khojki:11200-1124F Multani:11280-112AF
Khudawadi:112B0-112FF Grantha:11300-1137F Newa:11400-1147F Tirhuta:11480-114DF Siddham:11580-115FF Modi:11600-1165F MongolianSupplement:11660-1167F
Takri:11680-116CF Ahom:11700-1174F Dogra:11800-1184F WarangCiti:118A0-118FF DivesAkuru:11900-1195F Nandinagari:119A0-119FF ZanabazarSquare:11A00-11A4F
Soyombo:11A50-11AAF UnifiedCanadianAboriginalSyllabicsExtended-A:11AB0-11ABF PauCinHau:11AC0-11AFF Bhaiksuki:11C00-11C6F Marchen:11C70-11CBF
MasaramGondi:11D00-11D5F GunjalaGondi:11D60-11DAF Makasar:11EE0-11EFF LisuSupplement:11FB0-11FBF TamilSupplement:11FC0-11FFF Cuneiform:12000-123FF
CuneiformNumbersandPunctuation:12400-1247F EarlyDynasticCuneiform:12480-1254F Cypro-Minoan:12F90-12FFF EgyptianHieroglyphs:13000-1342F
EgyptianHieroglyphFormatControls:13430-1343F AnatolianHieroglyphs:14400-1467F BamumSupplement:16800-16A3F Mro:16A40-16A6F Tangsa:16A70-16ACF
BassaVah:16AD0-16AFF PahawhHmong:16B00-16B8F Medefaidrin:16E40-16E9F Miao:16F00-16F9F IdeographicSymbolsandPunctuation:16FE0-16FFF Tangut:17000-187FF
TangutComponents:18800-18AFF KhitanSmallScript:18B00-18CFF TangutSupplement:18D00-18D7F KanaExtended-B:1AFF0-1AFFF KanaSupplement:1B000-1B0FF
KanaExtended-A:1B100-1B12F SmallKanaExtension:1B130-1B16F Nushu:1B170-1B2FF Duployan:1BC00-1BC9F ShorthandFormatControls:1BCA0-1BCAF
ZnamennyMusicalNotation:1CF00-1CFCF ByzantineMusicalSymbols:1D000-1D0FF MusicalSymbols:1D100-1D1FF AncientGreekMusicalNotation:1D200-1D24F
MayanNumerals:1D2E0-1D2FF TaiXuanJingSymbols:1D300-1D35F CountingRodNumerals:1D360-1D37F MathematicalAlphanumericSymbols:1D400-1D7FF
SuttonSignWriting:1D800-1DAAF LatinExtended-G:1DF00-1DFFF GlagoliticSupplement:1E000-1E02F NyiakengPuachueHmong:1E100-1E14F Toto:1E290-1E2BF
Wancho:1E2C0-1E2FF EthiopicExtended-B:1E7E0-1E7FF MendeKikakui:1E800-1E8DF Adlam:1E900-1E95F IndicSiyaqNumbers:1EC70-1ECBF
OttomanSiyaqNumbers:1ED00-1ED4F ArabicMathematicalAlphabeticSymbols:1EE00-1EEFF MahjongTiles:1F000-1F02F DominoTiles:1F030-1F09F
PlayingCards:1F0A0-1F0FF EnclosedAlphanumericSupplement:1F100-1F1FF EnclosedIdeographicSupplement:1F200-1F2FF
MiscellaneousSymbolsandPictographs:1F300-1F5FF Emoticons:1F600-1F64F OrnamentalDingbats:1F650-1F67F TransportandMapSymbols:1F680-1F6FF
AlchemicalSymbols:1F700-1F77F GeometricShapesExtended:1F780-1F7FF SupplementalArrows-C:1F800-1F8FF SupplementalSymbolsandPictographs:1F900-1F9FF
ChessSymbols:1FA00-1FA6F SymbolsandPictographsExtended-A:1FA70-1FAFF SymbolsforLegacyComputing:1FB00-1FBFF CJKUnifiedIdeographsExtensionB:20000-2A6DF
CJKUnifiedIdeographsExtensionC:2A700-2B73F CJKUnifiedIdeographsExtensionD:2B740-2B81F CJKUnifiedIdeographsExtensionE:2B820-2CEAF
CJKUnifiedIdeographsExtensionF:2CEB0-2EBEF CJKCompatibilityIdeographsSupplement:2F800-2FA1F CJKUnifiedIdeographsExtensionG:30000-3134F
Tags:E0000-E007F VariationSelectorsSupplement:E0100-E01EF SupplementaryPrivateUseArea-A:F0000-FFFFF SupplementaryPrivateUseArea-B:100000-10FFFF
Greek:370-3FF CombiningMarksforSymbols:20D0-20FF PrivateUse:E000-F8FF PrivateUse:F0000-FFFFD PrivateUse:100000-10FFFD
`;
