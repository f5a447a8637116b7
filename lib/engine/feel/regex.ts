/**
 * FEEL's patterns (`matches`, `replace`), run in time linear in the input.
 * JavaScript's RegExp backtracks: for some patterns (`(a+)+$`, `(a|a)*b`,
 * `.*.*.*x`) its time grows exponentially or as a high power of the input's
 * length, so one rule could stall the function that runs it for hours. Here a
 * pattern is compiled to a Thompson automaton and simulated breadth-first
 * (Pike's VM, how RE2, Go and Rust run patterns): every state at most once per
 * character, whatever the pattern, with the leftmost match and the captures a
 * backtracking engine would give.
 *
 * The syntax and the characters are JavaScript's (`u` mode, as the engine
 * always used): the whole pattern is first checked by RegExp, and each single
 * character of it (a literal, a class, an escape, `.`) is tested by a RegExp
 * with the pattern's flags, so that what one matches is what it matches in
 * JavaScript. Backreferences and lookarounds, which no automaton runs in
 * linear time, are refused.
 */
import type { Budget } from './budget.ts';

/** Bounds on one pattern, so that no pattern compiles to an automaton too large to run. */
export const patternLimits = {
  /** Characters of pattern text. */
  maxLength: 1000,
  /** States of the automaton: a counted repetition copies what it repeats (`(a{100}){100}` is 10,000 states). */
  maxStates: 10_000,
} as const;

/** Why a pattern cannot be run: the message for a note. */
export class PatternProblem extends Error {}

/** Whether a character, by its code point, is one the pattern's character matches. */
type CharTest = (code: number) => boolean;

type Node =
  | { k: 'char'; test: CharTest }
  | { k: 'seq'; items: Node[] }
  | { k: 'alt'; items: Node[] }
  | { k: 'group'; index: number; of: Node }
  | { k: 'repeat'; of: Node; min: number; max: number; lazy: boolean }
  | { k: 'assert'; kind: '^' | '$' | 'b' | 'B' };

/** An automaton state: `next` is where a thread goes once the state's character is read or its check holds. */
type Instruction =
  | { op: 'char'; test: CharTest; next: number }
  | { op: 'split'; first: number; second: number }
  | { op: 'jump'; to: number }
  | { op: 'save'; slot: number; next: number }
  | { op: 'reset'; from: number; to: number; next: number }
  | { op: 'assert'; kind: '^' | '$' | 'b' | 'B'; next: number }
  | { op: 'fail' }
  | { op: 'match' };

export interface Pattern {
  readonly program: readonly Instruction[];
  /** Scratch for `matchesAnywhere`: two lists of states and a stack, as large as the program needs. */
  readonly lists: { current: Int32Array; next: Int32Array; stack: Int32Array };
  /** Capture groups, the whole match not counted. */
  readonly groups: number;
  readonly names: ReadonlyMap<string, number>;
  readonly multiline: boolean;
  readonly isWordChar: CharTest;
}

const lineTerminators = new Set(['\n', '\r', '\u2028', '\u2029']);

/** A test of one character by a RegExp of its source, remembered per character (texts repeat few distinct ones). */
function charTest(source: string, flags: string): CharTest {
  const single = new RegExp(`^(?:${source})$`, flags);
  // 0 not tested yet, 1 no, 2 yes; beyond ASCII, a map bounded so that no text can grow it without end.
  const ascii = new Uint8Array(128);
  const others = new Map<number, boolean>();
  return (code) => {
    if (code < 128) return (ascii[code] ||= single.test(String.fromCharCode(code)) ? 2 : 1) === 2;
    let result = others.get(code);
    if (result === undefined) {
      result = single.test(String.fromCodePoint(code));
      if (others.size < 4_096) others.set(code, result);
    }
    return result;
  };
}

class Parser {
  private at = 0;
  groups = 0;
  readonly names = new Map<string, number>();

  constructor(
    private readonly source: string,
    private readonly flags: string,
  ) {}

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.source.length) throw new PatternProblem(`unexpected "${this.source[this.at]}" at ${this.at + 1}`);
    return node;
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
      // RegExp checked the syntax: in `u` mode a "{" here is always a quantifier.
      const close = this.source.indexOf('}', this.at);
      const [low, high] = this.source.slice(this.at + 1, close).split(',');
      min = Number(low);
      max = high === undefined ? min : high === '' ? Infinity : Number(high);
      this.at = close + 1;
    } else return of;
    const lazy = this.peek() === '?';
    if (lazy) this.at++;
    return { k: 'repeat', of, min, max, lazy };
  }

  private atom(): Node {
    const c = this.peek()!;
    if (c === '(') return this.group();
    if (c === '^' || c === '$') {
      this.at++;
      return { k: 'assert', kind: c };
    }
    if (c === '[') return this.char(this.classEnd());
    if (c === '\\') {
      const next = this.peek(1);
      if (next === 'b' || next === 'B') {
        this.at += 2;
        return { k: 'assert', kind: next };
      }
      if (next === 'k' || (next !== undefined && next >= '1' && next <= '9')) throw new PatternProblem('backreferences are not supported');
      return this.char(this.escapeEnd());
    }
    // One code point: a surrogate pair is one character in `u` mode.
    return this.char(this.at + String.fromCodePoint(this.source.codePointAt(this.at)!).length);
  }

  private char(end: number): Node {
    const text = this.source.slice(this.at, end);
    this.at = end;
    return { k: 'char', test: charTest(text, this.flags) };
  }

  private group(): Node {
    let index = -1;
    if (this.source.startsWith('(?:', this.at)) this.at += 3;
    else if (this.source.startsWith('(?<', this.at) && this.peek(3) !== '=' && this.peek(3) !== '!') {
      const close = this.source.indexOf('>', this.at);
      index = ++this.groups;
      this.names.set(this.source.slice(this.at + 3, close), index);
      this.at = close + 1;
    } else if (this.peek(1) === '?') throw new PatternProblem('lookahead and lookbehind are not supported');
    else {
      index = ++this.groups;
      this.at++;
    }
    const of = this.alternation();
    this.at++; // the ")"
    return index < 0 ? of : { k: 'group', index, of };
  }

  /** Where the class that starts here ends (after its "]"). */
  private classEnd(): number {
    let i = this.at + 1;
    if (this.source[i] === '^') i++;
    for (; this.source[i] !== ']'; i++) if (this.source[i] === '\\') i++;
    return i + 1;
  }

  /** Where the escape that starts here ends. */
  private escapeEnd(): number {
    const kind = this.source[this.at + 1]!;
    const braced = (from: number) => this.source.indexOf('}', from) + 1;
    switch (kind) {
      case 'p':
      case 'P':
        return braced(this.at);
      case 'x':
        return this.at + 4;
      case 'c':
        return this.at + 3;
      case 'u': {
        if (this.source[this.at + 2] === '{') return braced(this.at);
        // A lead surrogate escape followed by a trail surrogate escape is one character in `u` mode.
        const lead = Number.parseInt(this.source.slice(this.at + 2, this.at + 6), 16);
        const trail = /^\\u([0-9a-fA-F]{4})/.exec(this.source.slice(this.at + 6))?.[1];
        const isPair = lead >= 0xd800 && lead <= 0xdbff && trail !== undefined && Number.parseInt(trail, 16) >= 0xdc00 && Number.parseInt(trail, 16) <= 0xdfff;
        return this.at + (isPair ? 12 : 6);
      }
      default:
        return this.at + 1 + String.fromCodePoint(this.source.codePointAt(this.at + 1)!).length;
    }
  }
}

/** The capture groups inside a node, as the slots they use: [from, to), or undefined when it has none. */
function slotsIn(node: Node): [number, number] | undefined {
  let [low, high] = [Infinity, -Infinity];
  const walk = (n: Node) => {
    if (n.k === 'group') [low, high] = [Math.min(low, n.index), Math.max(high, n.index)];
    if (n.k === 'seq' || n.k === 'alt') n.items.forEach(walk);
    else if (n.k === 'group' || n.k === 'repeat') walk(n.of);
  };
  walk(node);
  return low <= high ? [2 * low, 2 * high + 2] : undefined;
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

  /** One iteration: as JavaScript has it, the groups inside start each iteration without a value. */
  private iteration(of: Node, slots: [number, number] | undefined) {
    if (slots) this.emit({ op: 'reset', from: slots[0], to: slots[1], next: this.here + 1 });
    this.compile(of);
  }

  /**
   * An iteration that fails when it reads nothing, as JavaScript has every iteration past the minimum: compiled twice
   * over, as "nothing read yet", which fails at its end, and "something read", which each character of the first
   * leads into. The read-nothing state is a state of its own, so that two threads in one iteration's states at one
   * position never differ but for captures, which is what running each state once per position needs.
   */
  private readingIteration(of: Node, slots: [number, number] | undefined): void {
    const nothingRead = this.here;
    this.iteration(of, slots);
    const size = this.here - nothingRead;
    this.emit({ op: 'fail' });
    const somethingRead = this.here;
    this.iteration(of, slots);
    // Both copies have one layout: a character read in the first leads to the state after it in the second.
    for (let at = nothingRead; at < nothingRead + size; at++) {
      const instruction = this.program[at]!;
      if (instruction.op === 'char') instruction.next += somethingRead - nothingRead;
    }
  }

  /** `of` `min` times, then up to `max - min` more or, when `max` is unbounded, a loop; greedy takes more first, lazy fewer. */
  private repeat({ of, min, max, lazy }: Extract<Node, { k: 'repeat' }>): void {
    const slots = slotsIn(of);
    for (let i = 0; i < min; i++) this.iteration(of, slots);
    const splits: { first: number; second: number }[] = [];
    const more = () => {
      const split = this.emit({ op: 'split', first: -1, second: -1 });
      if (lazy) split.second = this.here;
      else split.first = this.here;
      splits.push(split);
      this.readingIteration(of, slots);
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
 * Compiles a pattern with FEEL's flags (i, m, s, x).
 *
 * @throws PatternProblem when it is too long, not valid, uses backreferences or lookarounds, or needs too many states
 */
export function compilePattern(pattern: string, flags: string): Pattern {
  if (pattern.length > patternLimits.maxLength) throw new PatternProblem(`a pattern may be at most ${patternLimits.maxLength} characters`);
  if (!/^[imsx]*$/.test(flags)) throw new PatternProblem(`unknown pattern flags "${flags}"`);
  const source = flags.includes('x') ? pattern.replace(/\s+/g, '') : pattern;
  const jsFlags = `u${flags.replace(/[mx]/g, '')}`;
  try {
    new RegExp(source, jsFlags);
  } catch {
    throw new PatternProblem(`"${pattern}" is not a valid pattern`);
  }
  const parser = new Parser(source, jsFlags);
  const tree = parser.parse();
  const compiler = new Compiler();
  compiler.compile({ k: 'group', index: 0, of: tree });
  compiler.program.push({ op: 'match' });
  const size = compiler.program.length;
  return {
    program: compiler.program,
    lists: { current: new Int32Array(size), next: new Int32Array(size), stack: new Int32Array(2 * size + 1) },
    groups: parser.groups,
    names: parser.names,
    multiline: flags.includes('m'),
    isWordChar: charTest('\\w', jsFlags),
  };
}

type Captures = (number | undefined)[];

/** The code point that starts at `at`, or -1 at the end. */
const codeAt = (input: string, at: number) => (at < input.length ? input.codePointAt(at)! : -1);

/** The code point that ends at `at`, or -1 at the start. */
function codeBefore(input: string, at: number): number {
  if (at === 0) return -1;
  const last = input.charCodeAt(at - 1);
  const lead = at > 1 ? input.charCodeAt(at - 2) : 0;
  return last >= 0xdc00 && last <= 0xdfff && lead >= 0xd800 && lead <= 0xdbff ? input.codePointAt(at - 2)! : last;
}

/** Where the character at `at` ends. */
const after = (code: number, at: number) => at + (code > 0xffff ? 2 : 1);

function holds(pattern: Pattern, kind: '^' | '$' | 'b' | 'B', input: string, at: number): boolean {
  switch (kind) {
    case '^':
      return at === 0 || (pattern.multiline && lineTerminators.has(input[at - 1]!));
    case '$':
      return at === input.length || (pattern.multiline && lineTerminators.has(input[at]!));
    default: {
      const [before, next] = [codeBefore(input, at), codeAt(input, at)];
      const boundary = (before >= 0 && pattern.isWordChar(before)) !== (next >= 0 && pattern.isWordChar(next));
      return boundary === (kind === 'b');
    }
  }
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
        case 'reset': {
          const cleared = thread.captures.slice();
          cleared.fill(undefined, instruction.from, instruction.to);
          stack.push({ pc: instruction.next, captures: cleared });
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
      case 'reset':
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
 * `input` with every match replaced, as String.prototype.replace with a global
 * pattern has it: `$1`, `$<name>`, `$&`, `` $` ``, `$'` and `$$` in the
 * replacement, and after an empty match the search goes on one character later.
 */
export function replaceAll(pattern: Pattern, input: string, replacement: string, budget: Budget): string {
  let out = '';
  let copied = 0;
  for (let at = 0; at <= input.length;) {
    const captures = search(pattern, input, at, budget);
    if (!captures) break;
    const [start, end] = [captures[0]!, captures[1]!];
    const substitution = substitute(pattern, replacement, captures, input);
    budget.spend(start - copied + substitution.length);
    out += input.slice(copied, start) + substitution;
    copied = end;
    at = end > start ? end : after(codeAt(input, end), end);
  }
  return out + input.slice(copied);
}

/** The replacement with its `$` forms filled in from one match (ECMA-262 GetSubstitution). */
function substitute(pattern: Pattern, replacement: string, captures: Captures, input: string): string {
  const group = (n: number) => (captures[2 * n] === undefined || captures[2 * n + 1] === undefined ? '' : input.slice(captures[2 * n], captures[2 * n + 1]));
  return replacement.replace(/\$(\$|&|`|'|\d{1,2}|<[^>]*>)/g, (form: string, what: string) => {
    if (what === '$') return '$';
    if (what === '&') return group(0);
    if (what === '`') return input.slice(0, captures[0]);
    if (what === "'") return input.slice(captures[1]);
    if (what.startsWith('<')) {
      if (pattern.names.size === 0) return form;
      const index = pattern.names.get(what.slice(1, -1));
      return index === undefined ? '' : group(index);
    }
    // Two digits when they name a group, else one digit and the next character as it is.
    const two = Number(what);
    if (what.length === 2 && two >= 1 && two <= pattern.groups) return group(two);
    const one = Number(what[0]);
    if (one >= 1 && one <= pattern.groups) return group(one) + what.slice(1);
    return form;
  });
}
