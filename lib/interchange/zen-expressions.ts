/**
 * GoRules zen's expression language to FEEL and back, for the JDM format
 * (`./jdm.ts`). The two languages are close: both compare, add, call
 * `date(...)`, test ranges `[1..10]` and lists. They differ where a regular
 * expression cannot follow them, so both directions go through syntax trees:
 * FEEL text is read by the engine's parser (`lib/engine/feel/parse.ts`), zen
 * text by the small parser below (zen's grammar, core/expression in
 * gorules/zen), and each tree is printed in the other language.
 *
 * What differs, and what is decided here:
 * - A cell. zen reads a cell as tests joined by `,`, `or` and `and`, taken left
 *   to right with no precedence (`a or b and c` is `(a or b) and c`), each test
 *   either a comparison that starts with its operator (`> 5`), a value the input
 *   is compared with (`'gold'`, `$`), a list or interval the input is looked up
 *   in (`[1, 2]`, `[1..5]`), or a condition on `$` (the input: FEEL's `?`).
 *   zen cannot group `and` and `or` with brackets in a cell, so a FEEL cell whose
 *   conditions nest them other than left to right has no zen equivalent.
 *   FEEL's `not(a, b)` is written `!= a and != b` (or `not(... )` of each test).
 * - Strings. zen's have no escapes: a string ends at its next quote, `'`, `"`
 *   or a backtick. A string holding all three is written as a sum of parts.
 * - Names of functions: `len` is FEEL's `string length` or `count` (told by the
 *   argument's type where it is known, else both, chosen when it runs), `upper`
 *   is `upper case`, `startsWith` is `starts with`, `ceil` is `ceiling`, `avg`
 *   is `mean`, `round(x)` is `round half up(x, 0)`; zen's `date(...)` holds a
 *   date and time, so a date literal is `date("2025-01-31")` in both.
 * - Indexes: zen counts from 0, FEEL from 1.
 * - zen's `%` takes the dividend's sign and FEEL's `modulo` the divisor's; zen's
 *   `len` of a string counts UTF-8 bytes, FEEL characters; zen's `matches` reads
 *   Rust's regular expressions, FEEL XPath's. Each is converted and noted.
 *
 * What has no equivalent (closures over `#`, methods such as `.year()`, template
 * strings with `${...}`, FEEL's `for`, `some`, `instance of`, filters,
 * durations and times) is refused with the reason: an import lists it as a
 * problem; an export carries the FEEL text beside the cell (see `./jdm.ts`).
 */
import { negate, parseNumber, toDecimal, type Num } from '../decimal/decimal.ts';
import type { ValueType } from '../engine/definitions.ts';
import type { CompareOp, Expr, Test, UnaryTests } from '../engine/feel/ast.ts';
import { freeNames, plainName } from '../engine/feel/names.ts';
import { feelLimits } from '../engine/feel/limits.ts';
import { FeelSyntaxError, parseExpression, parseUnaryTests } from '../engine/feel/parse.ts';

/** A conversion: the text in the other language, with what differs in meaning noted; or why there is none. */
export type Conversion = { ok: true; text: string; notes: string[] } | { ok: false; reason: string };

/** Why a text has no equivalent in the other language. */
class NoEquivalent extends Error {}

// ---------------------------------------------------------------------------
// zen's syntax tree and parser

type ZenCompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in';
type ZenBinaryOp = ZenCompareOp | 'and' | 'or' | '+' | '-' | '*' | '/' | '%' | '^' | '??';

type ZenNode =
  | { k: 'null' }
  | { k: 'bool'; v: boolean }
  | { k: 'num'; v: Num }
  | { k: 'str'; v: string }
  /** A template string with `${...}` in it. */
  | { k: 'template'; raw: string }
  /** `$`: the column's value in a cell, the node's input elsewhere. */
  | { k: 'root' }
  /** `#`, `$root` and names a closure binds. */
  | { k: 'special'; name: string }
  | { k: 'id'; name: string }
  | { k: 'member'; of: ZenNode; name: string }
  | { k: 'index'; of: ZenNode; by: ZenNode }
  | { k: 'call'; fn: string; args: ZenNode[] }
  | { k: 'method'; of: ZenNode; name: string }
  | { k: 'unary'; op: '-' | '+' | 'not'; of: ZenNode }
  | { k: 'binary'; op: ZenBinaryOp; l: ZenNode; r: ZenNode }
  | { k: 'cond'; c: ZenNode; t: ZenNode; f: ZenNode }
  | { k: 'array'; items: ZenNode[] }
  | { k: 'object'; entries: [string, ZenNode][] }
  | { k: 'interval'; lo: ZenNode; hi: ZenNode; loClosed: boolean; hiClosed: boolean }
  | { k: 'paren'; of: ZenNode };

/** One test of a zen cell: an expression, or an operator and the expression it compares the input with. */
interface ZenTest {
  op?: ZenCompareOp;
  node: ZenNode;
}

/** A zen cell: tests joined left to right. */
interface ZenCell {
  tests: ZenTest[];
  joins: ('and' | 'or')[];
}

type Token = { k: 'num' | 'str' | 'template' | 'word' | 'op'; v: string; at: number };

const binaryPrecedence: Record<ZenBinaryOp, number> = {
  or: 10,
  and: 15,
  '==': 20,
  '!=': 20,
  '<': 20,
  '<=': 20,
  '>': 20,
  '>=': 20,
  in: 20,
  'not in': 20,
  '+': 30,
  '-': 30,
  '*': 60,
  '/': 60,
  '%': 60,
  '^': 70,
  '??': 80,
};
const comparisonOps = new Set<string>(['==', '!=', '<', '<=', '>', '>=', 'in', 'not in']);
const notPrecedence = 50;
const signPrecedence = 200;
const primaryPrecedence = 300;

/** zen text is held to FEEL's bounds (`lib/engine/feel/limits.ts`) before it is read: its length, and nesting, which reading spends stack on. */
const maxNesting = 4 * feelLimits.maxDepth;

const numberToken = /[0-9][0-9_]*(?:\.(?!\.)[0-9_]*)?(?:[eE][+-]?[0-9]+)?/y;
const wordToken = /[A-Za-z$_#][A-Za-z0-9$_#]*/y;
const operatorToken = /\.\.|\?\?|==|!=|<=|>=|[-+*/%^<>!=?:,.()[\]{}]/y;

function tokenize(text: string): Token[] {
  if (text.length > feelLimits.maxLength) throw new NoEquivalent(`is ${text.length} characters long; at most ${feelLimits.maxLength} are read`);
  const tokens: Token[] = [];
  let at = 0;
  const match = (pattern: RegExp) => {
    pattern.lastIndex = at;
    return pattern.exec(text)?.[0];
  };
  while (at < text.length) {
    const c = text[at]!;
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r') {
      at++;
    } else if (c === '"' || c === "'" || c === '`') {
      const end = text.indexOf(c, at + 1);
      if (end < 0) throw new NoEquivalent(`the string at character ${at + 1} is not closed`);
      const content = text.slice(at + 1, end);
      tokens.push({ k: c === '`' && content.includes('${') ? 'template' : 'str', v: content, at });
      at = end + 1;
    } else {
      const token = match(numberToken) ?? match(wordToken);
      const kind = token === undefined ? 'op' : /[0-9]/.test(c) ? 'num' : 'word';
      const found = token ?? match(operatorToken);
      if (found === undefined) throw new NoEquivalent(`zen has no "${c}" (character ${at + 1})`);
      tokens.push({ k: kind, v: found, at });
      at += found.length;
    }
  }
  return tokens;
}

/**
 * zen's parser, as core/expression's: operators by precedence, `cond ? a : b`,
 * intervals tried before brackets, postfix member and index access. In a cell
 * (`cell` true), `,`, `and` and `or` outside brackets join tests.
 */
class ZenParser {
  private position = 0;
  /** While reading an interval's upper end, `[` closes the interval (`]1..5[`) rather than indexing. */
  private closingInterval = false;
  /** Expressions being read, one inside another: bounded, so that no text exhausts the stack. */
  private nesting = 0;
  private constructor(
    private readonly tokens: Token[],
    private readonly text: string,
  ) {}

  static expression(text: string): ZenNode {
    const parser = new ZenParser(tokenize(text), text);
    const node = parser.expression(0, false);
    parser.expectEnd();
    return node;
  }

  static cell(text: string): ZenCell {
    const parser = new ZenParser(tokenize(text), text);
    const cell: ZenCell = { tests: [parser.test()], joins: [] };
    while (parser.peek()) {
      const join = parser.next()!.v;
      if (join !== ',' && join !== 'and' && join !== 'or') throw new NoEquivalent(`"${join}" cannot join the tests of a cell`);
      cell.joins.push(join === 'and' ? 'and' : 'or');
      cell.tests.push(parser.test());
    }
    return cell;
  }

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.position + offset];
  }

  private next(): Token | undefined {
    return this.tokens[this.position++];
  }

  private is(value: string): boolean {
    const token = this.peek();
    return token !== undefined && token.k !== 'str' && token.k !== 'template' && token.v === value;
  }

  private expect(value: string) {
    if (!this.is(value)) this.fail(`expected "${value}"`);
    this.position++;
  }

  private expectEnd() {
    if (this.peek()) this.fail('unexpected text');
  }

  private fail(message: string): never {
    const token = this.peek();
    throw new NoEquivalent(token ? `${message} at "${this.text.slice(token.at, token.at + 20)}"` : `${message} at the end`);
  }

  /** The binary operator at the cursor (`not in` is two words). */
  private binaryOperator(): { op: ZenBinaryOp; width: number } | undefined {
    const token = this.peek();
    if (!token || token.k === 'str' || token.k === 'template' || token.k === 'num') return undefined;
    if (token.v === 'not' && this.peek(1)?.v === 'in') return { op: 'not in', width: 2 };
    return token.v in binaryPrecedence ? { op: token.v as ZenBinaryOp, width: 1 } : undefined;
  }

  private test(): ZenTest {
    const operator = this.binaryOperator();
    if (operator && comparisonOps.has(operator.op)) {
      this.position += operator.width;
      return { op: operator.op as ZenCompareOp, node: this.expression(0, true) };
    }
    return { node: this.expression(0, true) };
  }

  /** An expression of operators binding at least `min`; in a cell, `and`, `or` and `,` end it. */
  private expression(min: number, cell: boolean): ZenNode {
    if (++this.nesting > maxNesting) this.fail(`nests deeper than ${maxNesting} levels`);
    try {
      return this.operators(this.prefix(cell), min, cell);
    } finally {
      this.nesting--;
    }
  }

  private operators(first: ZenNode, min: number, cell: boolean): ZenNode {
    let left = first;
    for (;;) {
      const operator = this.binaryOperator();
      if (!operator || (cell && (operator.op === 'and' || operator.op === 'or'))) break;
      const precedence = binaryPrecedence[operator.op];
      if (precedence < min) break;
      this.position += operator.width;
      const right = this.expression(operator.op === '^' ? precedence : precedence + 1, cell);
      left = { k: 'binary', op: operator.op, l: left, r: right };
    }
    if (min === 0 && this.is('?')) {
      this.position++;
      const t = this.expression(0, cell);
      this.expect(':');
      left = { k: 'cond', c: left, t, f: this.expression(0, cell) };
    }
    return left;
  }

  private prefix(cell: boolean): ZenNode {
    const token = this.peek();
    if (token?.k === 'op' && (token.v === '-' || token.v === '+')) {
      this.position++;
      return { k: 'unary', op: token.v, of: this.expression(signPrecedence, cell) };
    }
    if ((token?.k === 'op' && token.v === '!') || (token?.k === 'word' && token.v === 'not')) {
      this.position++;
      return { k: 'unary', op: 'not', of: this.expression(notPrecedence, cell) };
    }
    return this.postfix(this.primary());
  }

  private primary(): ZenNode {
    const token = this.next();
    if (!token) this.fail('an expression is missing');
    switch (token.k) {
      case 'num':
        return { k: 'num', v: parseNumber(token.v.replace(/_/g, '')) ?? this.fail(`the number ${token.v} is out of range`) };
      case 'str':
        return { k: 'str', v: token.v };
      case 'template':
        return { k: 'template', raw: token.v };
      case 'word':
        return this.word(token.v);
    }
    if ((token.v === '[' || token.v === '(' || token.v === ']') && this.rangeAhead()) return this.interval(token.v);
    if (token.v === '(') {
      const of = this.expression(0, false);
      this.expect(')');
      return { k: 'paren', of };
    }
    if (token.v === '[') return { k: 'array', items: this.list(']', () => this.expression(0, false)) };
    if (token.v === '{') return { k: 'object', entries: this.list('}', () => this.property()) };
    this.position--;
    return this.fail('unexpected operator');
  }

  private word(word: string): ZenNode {
    if (word === 'null') return { k: 'null' };
    if (word === 'true' || word === 'false') return { k: 'bool', v: word === 'true' };
    if (word === '$') return { k: 'root' };
    if (word.includes('$') || word.includes('#')) return { k: 'special', name: word };
    if (!this.is('(')) return { k: 'id', name: word };
    this.position++;
    return { k: 'call', fn: word, args: this.list(')', () => this.expression(0, false)) };
  }

  /** Items up to `close`, separated by commas (a trailing one allowed, as zen does). */
  private list<T>(close: string, item: () => T): T[] {
    const items: T[] = [];
    while (!this.is(close)) {
      items.push(item());
      if (!this.is(',')) break;
      this.position++;
    }
    this.expect(close);
    return items;
  }

  private property(): [string, ZenNode] {
    const key = this.next();
    if (!key || (key.k !== 'word' && key.k !== 'str')) this.fail('expected a key');
    this.expect(':');
    return [key.v, this.expression(0, false)];
  }

  /** Whether the bracket just read opens an interval: a `..` comes before its contents close (so nothing is read twice). */
  private rangeAhead(): boolean {
    let depth = 0;
    for (let at = this.position; at < this.tokens.length; at++) {
      const token = this.tokens[at]!;
      if (token.k !== 'op') continue;
      if (token.v === '..' && depth === 0) return true;
      if (token.v === '(' || token.v === '[' || token.v === '{') depth++;
      else if (token.v === ')' || token.v === ']' || token.v === '}') if (depth-- === 0) return false;
    }
    return false;
  }

  /** `[a..b]`, `(a..b)`, `]a..b[` and their mixtures, the opening bracket read. */
  private interval(open: string): ZenNode {
    const lo = this.expression(0, false);
    this.expect('..');
    this.closingInterval = true;
    const hi = this.expression(0, false);
    this.closingInterval = false;
    const close = this.next();
    if (close?.k !== 'op' || (close.v !== ']' && close.v !== ')' && close.v !== '[')) {
      this.position--;
      this.fail('expected the end of the interval');
    }
    return { k: 'interval', lo, hi, loClosed: open === '[', hiClosed: close.v === ']' };
  }

  private postfix(node: ZenNode): ZenNode {
    for (;;) {
      if (this.is('.') && this.peek(1)?.k === 'word') {
        this.position++;
        const name = this.next()!.v;
        if (this.is('(')) {
          this.position++;
          this.list(')', () => this.expression(0, false));
          node = { k: 'method', of: node, name };
        } else node = { k: 'member', of: node, name };
      } else if (this.is('[') && !this.closingInterval) {
        this.position++;
        const by = this.expression(0, false);
        this.expect(']');
        node = { k: 'index', of: node, by };
      } else return node;
    }
  }
}

// ---------------------------------------------------------------------------
// Printing zen

const zenWord = /^[A-Za-z_][A-Za-z0-9_]*$/;
const zenKeywords = new Set(['and', 'or', 'in', 'not', 'true', 'false', 'null']);
const isZenName = (name: string) => zenWord.test(name) && !zenKeywords.has(name);

/** A number as text both languages read: JavaScript's (`1e+30` past 21 digits). */
const numberLiteral = (n: Num) => (typeof n === 'number' ? String(n + 0) : toDecimal(n).toString());

/** A zen string literal: zen has no escapes, so the quote is one the text does not hold; text holding all three is a sum of parts. */
function zenString(text: string): string {
  if (!text.includes('"')) return `"${text}"`;
  if (!text.includes("'")) return `'${text}'`;
  if (!text.includes('`') && !text.includes('${')) return `\`${text}\``;
  return text
    .split('"')
    .map((part) => `"${part}"`)
    .join(` + '"' + `);
}

/** Whether a zen node reads as an operand at `precedence` without brackets. */
function zenPrecedence(node: ZenNode): number {
  switch (node.k) {
    case 'binary':
      return binaryPrecedence[node.op];
    case 'cond':
      return 1;
    case 'unary':
      return node.op === 'not' ? notPrecedence : signPrecedence;
    case 'num':
      return toDecimal(node.v).coefficient < 0n ? signPrecedence : primaryPrecedence;
    case 'str':
      return zenString(node.v).includes(' + ') ? binaryPrecedence['+'] : primaryPrecedence;
    default:
      return primaryPrecedence;
  }
}

/** zen text of a node; in a cell, `and` and `or` cannot appear inside a test, bracketed or not. */
function printZen(node: ZenNode, cell: boolean): string {
  const operand = (child: ZenNode, min: number) => {
    const text = printZen(child, cell);
    return zenPrecedence(child) < min ? `(${text})` : text;
  };
  switch (node.k) {
    case 'null':
      return 'null';
    case 'bool':
      return String(node.v);
    case 'num':
      return numberLiteral(node.v);
    case 'str':
      return zenString(node.v);
    case 'root':
      return '$';
    case 'id':
      return node.name;
    case 'member':
      return isZenName(node.name) ? `${operand(node.of, primaryPrecedence)}.${node.name}` : `${operand(node.of, primaryPrecedence)}[${zenString(node.name)}]`;
    case 'index':
      return `${operand(node.of, primaryPrecedence)}[${printZen(node.by, cell)}]`;
    case 'call':
      return `${node.fn}(${node.args.map((arg) => printZen(arg, cell)).join(', ')})`;
    case 'unary':
      return node.op === 'not' ? `not(${printZen(node.of, cell)})` : `${node.op}${operand(node.of, signPrecedence)}`;
    case 'binary': {
      if (cell && (node.op === 'and' || node.op === 'or')) throw new NoEquivalent(`zen cannot hold "${node.op}" inside a test of a cell`);
      const precedence = binaryPrecedence[node.op];
      const rightAssociative = node.op === '^';
      // Comparisons are left-associative in zen but not in FEEL: a comparison's operands are bracketed.
      const comparison = precedence === binaryPrecedence['=='];
      const left = operand(node.l, rightAssociative || comparison ? precedence + 1 : precedence);
      return `${left} ${node.op} ${operand(node.r, rightAssociative ? precedence : precedence + 1)}`;
    }
    case 'cond':
      return `${operand(node.c, 2)} ? ${operand(node.t, 1)} : ${operand(node.f, 1)}`;
    case 'array':
      return `[${node.items.map((item) => printZen(item, cell)).join(', ')}]`;
    case 'object':
      return `{${node.entries.map(([key, value]) => `${isZenName(key) ? key : zenString(key)}: ${printZen(value, cell)}`).join(', ')}}`;
    case 'interval':
      return `${node.loClosed ? '[' : '('}${printZen(node.lo, cell)}..${printZen(node.hi, cell)}${node.hiClosed ? ']' : ')'}`;
    case 'paren':
      return `(${printZen(node.of, cell)})`;
    case 'template':
    case 'special':
    case 'method':
      throw new NoEquivalent('not written from FEEL');
  }
}

/**
 * How zen takes a test that is an expression alone (core/expression's
 * UnaryNodeBehaviour): compared with the input, the input looked up in it,
 * or taken as a condition.
 */
function zenTestKind(node: ZenNode): 'equal' | 'in' | 'condition' {
  switch (node.k) {
    case 'array':
    case 'interval':
      return 'in';
    case 'unary':
    case 'paren':
      return zenTestKind(node.of);
    case 'binary':
      if (node.op === 'and' || node.op === 'or' || comparisonOps.has(node.op)) return 'condition';
      if (node.op === '??') return 'equal';
      return zenTestKind(node.l) === zenTestKind(node.r) ? zenTestKind(node.l) : 'equal';
    case 'cond':
      return zenTestKind(node.t) === zenTestKind(node.f) ? zenTestKind(node.t) : 'equal';
    case 'call':
      return conditionFunctions.has(node.fn) ? 'condition' : listFunctions.has(node.fn) ? 'in' : 'equal';
    default:
      return 'equal';
  }
}
const conditionFunctions = new Set(['contains', 'startsWith', 'endsWith', 'matches', 'isNumeric', 'all', 'some', 'none', 'one']);
const listFunctions = new Set(['flatten', 'merge', 'mergeDeep', 'extract', 'split', 'keys', 'values', 'filter', 'map', 'flatMap']);

// ---------------------------------------------------------------------------
// Printing FEEL

const feelPrecedence = (e: Expr): number => {
  switch (e.k) {
    case 'if':
      return 1;
    case 'or':
      return 2;
    case 'and':
      return 3;
    case 'cmp':
    case 'in':
    case 'instanceOf':
      return 4;
    case 'arith':
      return e.op === '+' || e.op === '-' ? 5 : e.op === '**' ? 7 : 6;
    case 'neg':
      return 8;
    case 'num':
      return toDecimal(e.v).coefficient < 0n ? 8 : 9;
    default:
      return 9;
  }
};

/** A FEEL string literal: quotes, backslashes and line breaks escaped. */
const feelString = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;

/** FEEL text of the expressions zen converts to. */
function printFeel(e: Expr): string {
  const operand = (child: Expr, min: number) => (feelPrecedence(child) < min ? `(${printFeel(child)})` : printFeel(child));
  switch (e.k) {
    case 'null':
      return 'null';
    case 'num':
      return numberLiteral(e.v);
    case 'str':
      return feelString(e.v);
    case 'bool':
      return String(e.v);
    case 'var':
      return e.name;
    case 'path':
      return `${operand(e.of, 9)}.${e.name}`;
    case 'filter':
      return `${operand(e.of, 9)}[${printFeel(e.by)}]`;
    case 'call':
      return `${e.fn}(${e.args.map(printFeel).join(', ')})`;
    case 'neg':
      return `-${operand(e.of, 9)}`;
    case 'arith': {
      const precedence = feelPrecedence(e);
      return `${operand(e.l, e.op === '**' ? precedence + 1 : precedence)} ${e.op} ${operand(e.r, precedence + 1)}`;
    }
    case 'cmp':
      return `${operand(e.l, 5)} ${e.op} ${operand(e.r, 5)}`;
    case 'in':
      return `${operand(e.of, 5)} in ${e.tests.length === 1 ? printTest(e.tests[0]!) : `(${e.tests.map(printTest).join(', ')})`}`;
    case 'instanceOf':
      return `${operand(e.of, 5)} instance of ${e.type}`;
    case 'and':
    case 'or':
      return e.items.map((item) => operand(item, feelPrecedence(e) + 1)).join(` ${e.k} `);
    case 'if':
      return `if ${printFeel(e.cond)} then ${printFeel(e.then)} else ${printFeel(e.else)}`;
    case 'list':
      return `[${e.items.map(printFeel).join(', ')}]`;
    case 'context':
      return `{${e.entries.map(([key, value]) => `${plainName.test(key) ? key : feelString(key)}: ${printFeel(value)}`).join(', ')}}`;
    case 'range':
      return `${e.loClosed ? '[' : '('}${e.lo ? printFeel(e.lo) : ''}..${e.hi ? printFeel(e.hi) : ''}${e.hiClosed ? ']' : ')'}`;
    default:
      throw new NoEquivalent(`FEEL's ${e.k} is not written from zen`);
  }
}

const printTest = (t: Test) => (t.k === 'cmp' ? `${t.op} ${printFeel(t.r)}` : printFeel(t.e));

// ---------------------------------------------------------------------------
// zen to FEEL

/** Functions named alike, or differently, with the same meaning: [zen, FEEL]. */
const sameFunctions: [string, string][] = [
  ['date', 'date'],
  ['upper', 'upper case'],
  ['lower', 'lower case'],
  ['startsWith', 'starts with'],
  ['endsWith', 'ends with'],
  ['matches', 'matches'],
  ['abs', 'abs'],
  ['floor', 'floor'],
  ['ceil', 'ceiling'],
  ['avg', 'mean'],
  ['median', 'median'],
  ['sum', 'sum'],
  ['min', 'min'],
  ['max', 'max'],
  ['string', 'string'],
  ['number', 'number'],
];
const feelOfZenFunction = new Map(sameFunctions);
const zenOfFeelFunction = new Map([
  ...sameFunctions.map(([zen, feel]) => [feel, zen] as const),
  ['string length', 'len'],
  ['count', 'len'],
  ['list contains', 'contains'],
  ['contains', 'contains'],
  ['date and time', 'date'],
]);

/** What a zen value is known to be, for the functions whose FEEL name depends on it (`len`, `contains`). */
type Kind = 'string' | 'list' | 'unknown';

class ZenToFeel {
  readonly notes = new Set<string>();
  constructor(
    /** In a cell, `$` is the column's value (FEEL's `?`), of its type when the column has one; elsewhere zen's `$` (the node's input) has no equivalent. */
    private readonly cell: { type?: ValueType } | undefined,
  ) {}

  kindOf(node: ZenNode): Kind {
    if (node.k === 'str' || node.k === 'template' || (node.k === 'call' && ['upper', 'lower', 'string', 'trim'].includes(node.fn))) return 'string';
    if (node.k === 'array' || (node.k === 'call' && listFunctions.has(node.fn))) return 'list';
    const type = this.cell?.type;
    if (node.k === 'root') return type === 'string' ? 'string' : type === 'list' || type === 'array' ? 'list' : 'unknown';
    return node.k === 'paren' ? this.kindOf(node.of) : 'unknown';
  }

  /** A FEEL function of a string or a list, chosen by the argument's kind, or when it runs. */
  private byKind(of: ZenNode, args: Expr[], forString: string, forList: string): Expr {
    const kind = this.kindOf(of);
    if (kind !== 'unknown') return { k: 'call', fn: kind === 'string' ? forString : forList, args };
    return {
      k: 'if',
      cond: { k: 'instanceOf', of: args[0]!, type: 'string' },
      then: { k: 'call', fn: forString, args },
      else: { k: 'call', fn: forList, args },
    };
  }

  expr(node: ZenNode): Expr {
    switch (node.k) {
      case 'null':
      case 'bool':
      case 'num':
      case 'str':
        return node;
      case 'template':
        throw new NoEquivalent('a template string with ${...} has no FEEL equivalent here');
      case 'root':
        if (!this.cell) throw new NoEquivalent('"$" (the results of the expressions before) has no equivalent in a simple rule');
        return { k: 'var', name: '?' };
      case 'special':
        throw new NoEquivalent(`"${node.name}" has no FEEL equivalent`);
      case 'id':
        return { k: 'var', name: node.name };
      case 'member':
        if (!plainName.test(node.name)) throw new NoEquivalent(`the name "${node.name}" is not one FEEL reads after "."`);
        return { k: 'path', of: this.expr(node.of), name: node.name };
      case 'index':
        return this.index(node.of, node.by);
      case 'call':
        return this.call(node);
      case 'method':
        throw new NoEquivalent(`the method ".${node.name}()" has no FEEL equivalent here`);
      case 'unary':
        if (node.op === '+') return this.expr(node.of);
        if (node.op === 'not') return { k: 'call', fn: 'not', args: [this.expr(node.of)] };
        return node.of.k === 'num' ? { k: 'num', v: negate(node.of.v) } : { k: 'neg', of: this.expr(node.of) };
      case 'binary':
        return this.binary(node);
      case 'cond':
        return { k: 'if', cond: this.expr(node.c), then: this.expr(node.t), else: this.expr(node.f) };
      case 'array':
        return { k: 'list', items: node.items.map((item) => this.expr(item)) };
      case 'object':
        return { k: 'context', entries: node.entries.map(([key, value]) => [key, this.expr(value)]) };
      case 'interval':
        return { k: 'range', lo: this.expr(node.lo), hi: this.expr(node.hi), loClosed: node.loClosed, hiClosed: node.hiClosed };
      case 'paren':
        return this.expr(node.of);
    }
  }

  private index(of: ZenNode, by: ZenNode): Expr {
    if (by.k === 'str') {
      if (!plainName.test(by.v)) throw new NoEquivalent(`the key "${by.v}" is not one FEEL reads after "."`);
      return { k: 'path', of: this.expr(of), name: by.v };
    }
    if (by.k === 'num' && Number.isInteger(by.v) && (by.v as number) >= 0) return { k: 'filter', of: this.expr(of), by: { k: 'num', v: (by.v as number) + 1 } };
    throw new NoEquivalent('an index other than a whole number from 0 has no FEEL equivalent here');
  }

  private call(node: Extract<ZenNode, { k: 'call' }>): Expr {
    const args = node.args.map((arg) => this.expr(arg));
    if (node.fn === 'len' && args.length === 1) {
      if (this.kindOf(node.args[0]!) !== 'list') this.notes.add("zen's len counts a string's UTF-8 bytes, FEEL's string length its characters");
      return this.byKind(node.args[0]!, args, 'string length', 'count');
    }
    if (node.fn === 'contains' && args.length === 2) return this.byKind(node.args[0]!, args, 'contains', 'list contains');
    if (node.fn === 'round' && args.length === 1) return { k: 'call', fn: 'round half up', args: [args[0]!, { k: 'num', v: 0 }] };
    if (node.fn === 'date' && args.length === 1 && args[0]!.k === 'str' && args[0]!.v.includes('T')) return { k: 'call', fn: 'date and time', args };
    const feel = feelOfZenFunction.get(node.fn);
    if (!feel) throw new NoEquivalent(`zen's function ${node.fn}() has no FEEL equivalent here`);
    if (node.fn === 'matches') this.notes.add("zen's matches reads Rust's regular expressions, FEEL's XPath's: most patterns read alike");
    return { k: 'call', fn: feel, args };
  }

  private binary(node: Extract<ZenNode, { k: 'binary' }>): Expr {
    const l = this.expr(node.l);
    // zen's strings have no escapes, so a text with every quote is written as a sum: one string literal in FEEL.
    if (node.op === '+' && l.k === 'str' && node.r.k === 'str') return { k: 'str', v: l.v + node.r.v };
    const r = this.expr(node.r);
    switch (node.op) {
      case 'and':
      case 'or':
        return { k: node.op, items: [...(l.k === node.op ? l.items : [l]), r] };
      case '==':
        return { k: 'cmp', op: '=', l, r };
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=':
        return { k: 'cmp', op: node.op, l, r };
      case 'in':
        return { k: 'in', of: l, tests: [{ k: 'expr', e: r }] };
      case 'not in':
        return { k: 'call', fn: 'not', args: [{ k: 'in', of: l, tests: [{ k: 'expr', e: r }] }] };
      case '^':
        return { k: 'arith', op: '**', l, r };
      case '%':
        this.notes.add("zen's % takes the sign of the dividend, FEEL's modulo that of the divisor: they differ for negative numbers");
        return { k: 'call', fn: 'modulo', args: [l, r] };
      case '??':
        return { k: 'if', cond: { k: 'cmp', op: '!=', l, r: { k: 'null' } }, then: l, else: r };
      default:
        return { k: 'arith', op: node.op, l, r };
    }
  }

  /** One test of a cell as a FEEL test, or a negated one, or a condition (FEEL with `?`). */
  test(test: ZenTest): { test: Test } | { negated: Test } | { condition: Expr } {
    const { op, node } = test;
    if (op === 'in' || op === 'not in') {
      const target = this.expr(node);
      const asTest: Test = { k: 'expr', e: target };
      return op === 'in' ? { test: asTest } : { negated: asTest };
    }
    if (op === '!=') return { negated: this.valueTest(node) };
    if (op === '==') return { test: this.valueTest(node) };
    if (op) return { test: { k: 'cmp', op, r: this.expr(node) } };
    const kind = zenTestKind(node);
    if (kind === 'equal') return { test: { k: 'expr', e: this.expr(node) } };
    if (kind === 'in' && (node.k === 'array' || node.k === 'interval')) return { test: { k: 'expr', e: this.expr(node) } };
    if (kind === 'in') return { condition: { k: 'in', of: { k: 'var', name: '?' }, tests: [{ k: 'expr', e: this.expr(node) }] } };
    const negated = node.k === 'unary' && node.op === 'not' ? this.negatedTest(unbracket(node.of)) : undefined;
    return negated ? { negated } : { condition: this.expr(node) };
  }

  /** `== v`: the FEEL test `v`, unless v is a list or range, which FEEL would look the input up in. */
  private valueTest(node: ZenNode): Test {
    const e = this.expr(node);
    return e.k === 'list' || e.k === 'range' ? { k: 'cmp', op: '=', r: e } : { k: 'expr', e };
  }

  /** `not($ == v)`, `not($ in x)`, `not($ < v)`: the test negated. */
  private negatedTest(node: ZenNode): Test | undefined {
    if (node.k !== 'binary' || node.l.k !== 'root' || !comparisonOps.has(node.op) || node.op === 'not in') return undefined;
    if (node.op === 'in') return { k: 'expr', e: this.expr(node.r) };
    if (node.op === '==') return this.valueTest(node.r);
    return { k: 'cmp', op: node.op as CompareOp, r: this.expr(node.r) };
  }
}

const unbracket = (node: ZenNode): ZenNode => (node.k === 'paren' ? unbracket(node.of) : node);

/** Whether a FEEL expression reads `?`. */
const readsInput = (e: Expr): boolean => freeNames(e).has('?');

/** A test as a condition on `?`. */
function asCondition(test: Test): Expr {
  const input: Expr = { k: 'var', name: '?' };
  if (test.k === 'cmp') return { k: 'cmp', op: test.op, l: input, r: test.r };
  if (readsInput(test.e)) return test.e;
  return test.e.k === 'list' || test.e.k === 'range' ? { k: 'in', of: input, tests: [test] } : { k: 'cmp', op: '=', l: input, r: test.e };
}

function converted(run: (notes: Set<string>) => string): Conversion {
  const notes = new Set<string>();
  try {
    return { ok: true, text: run(notes), notes: [...notes] };
  } catch (error) {
    if (error instanceof NoEquivalent) return { ok: false, reason: error.message };
    if (error instanceof FeelSyntaxError) return { ok: false, reason: `FEEL this engine cannot read: ${error.message}` };
    throw error;
  }
}

/** A zen expression (an output cell, an expression node's value, an input's field) as FEEL. */
export function zenExpressionToFeel(text: string): Conversion {
  return converted((notes) => {
    const reader = new ZenToFeel(undefined);
    const feel = printFeel(reader.expr(ZenParser.expression(text)));
    reader.notes.forEach((note) => notes.add(note));
    return feel;
  });
}

/**
 * A zen cell as FEEL unary tests: `-` for an empty cell; tests joined by `,`
 * or `or` as FEEL's list of tests; negations joined by `and` as `not(...)`;
 * anything else as one condition (reading `?` or not: the engine takes a
 * boolean as the answer, as zen takes a condition), the joins grouped left to right as
 * zen takes them.
 */
export function zenCellToFeel(text: string, inputType: ValueType | undefined): Conversion {
  return converted((notes) => {
    if (!text.trim()) return '-';
    const reader = new ZenToFeel({ type: inputType });
    const cell = ZenParser.cell(text);
    const tests = cell.tests.map((test) => reader.test(test));
    reader.notes.forEach((note) => notes.add(note));
    if (cell.joins.every((join) => join === 'or') && tests.every((t) => 'test' in t)) return tests.map((t) => printTest((t as { test: Test }).test)).join(', ');
    if (cell.joins.every((join) => join === 'and') && tests.every((t) => 'negated' in t))
      return `not(${tests.map((t) => printTest((t as { negated: Test }).negated)).join(', ')})`;
    const conditions = tests.map((t): Expr => {
      if ('condition' in t) return t.condition;
      if ('test' in t) return asCondition(t.test);
      return { k: 'call', fn: 'not', args: [asCondition(t.negated)] };
    });
    return printFeel(
      conditions.slice(1).reduce<Expr>((left, right, i) => {
        const join = cell.joins[i]!;
        return { k: join, items: [...(left.k === join ? left.items : [left]), right] };
      }, conditions[0]!),
    );
  });
}

// ---------------------------------------------------------------------------
// FEEL to zen

/** zen's numbers (Rust's decimal): 28 significant digits, at most 28 after the point. */
const zenDigits = 28;
function zenHolds(n: Num): boolean {
  const { coefficient, exponent } = toDecimal(n);
  const digits = (coefficient < 0n ? -coefficient : coefficient).toString().replace(/0+$/, '');
  const scale = exponent + ((coefficient < 0n ? -coefficient : coefficient).toString().length - digits.length);
  return digits.length + Math.max(0, scale) <= zenDigits && scale >= -zenDigits;
}

/** FEEL functions of a list, or of several values, whose zen twins take only a list. */
const listArgument = new Set(['sum', 'min', 'max', 'mean', 'median']);

class FeelToZen {
  constructor(private readonly cell: boolean) {}

  node(e: Expr): ZenNode {
    switch (e.k) {
      case 'num':
        if (!zenHolds(e.v)) throw new NoEquivalent(`zen's numbers hold ${zenDigits} digits: ${numberLiteral(e.v)} is past them`);
        return e;
      case 'null':
      case 'bool':
      case 'str':
        return e;
      case 'at':
        if (/^-?\d{4,}-\d\d-\d\d(T[^P]*)?$/.test(e.v)) return { k: 'call', fn: 'date', args: [{ k: 'str', v: e.v }] };
        throw new NoEquivalent(`zen has no time or duration literal like @"${e.v}"`);
      case 'var':
        if (e.name === '?' && this.cell) return { k: 'root' };
        if (!isZenName(e.name)) throw new NoEquivalent(`the name "${e.name}" is not one zen reads`);
        return { k: 'id', name: e.name };
      case 'path':
        return { k: 'member', of: this.node(e.of), name: e.name };
      case 'filter':
        if (e.by.k === 'num' && Number.isInteger(e.by.v) && (e.by.v as number) >= 1)
          return { k: 'index', of: this.node(e.of), by: { k: 'num', v: (e.by.v as number) - 1 } };
        throw new NoEquivalent('a filter other than a whole-number index from 1 has no zen equivalent here');
      case 'call':
        return this.call(e.fn, e.args);
      case 'neg':
        return { k: 'unary', op: '-', of: this.node(e.of) };
      case 'arith':
        return { k: 'binary', op: e.op === '**' ? '^' : e.op, l: this.node(e.l), r: this.node(e.r) };
      case 'cmp':
        return { k: 'binary', op: e.op === '=' ? '==' : e.op, l: this.node(e.l), r: this.node(e.r) };
      case 'between':
        return { k: 'binary', op: 'in', l: this.node(e.of), r: { k: 'interval', lo: this.node(e.lo), hi: this.node(e.hi), loClosed: true, hiClosed: true } };
      case 'in':
        return e.tests.map((test) => this.membership(this.node(e.of), test)).reduce((l, r) => ({ k: 'paren', of: { k: 'binary', op: 'or', l, r } }));
      case 'and':
      case 'or':
        return e.items.map((item) => this.node(item)).reduce((l, r) => ({ k: 'binary', op: e.k, l, r }));
      case 'if':
        return this.byKind(e) ?? { k: 'cond', c: this.node(e.cond), t: this.node(e.then), f: this.node(e.else) };
      case 'list':
        return { k: 'array', items: e.items.map((item) => this.node(item)) };
      case 'context':
        return { k: 'object', entries: e.entries.map(([key, value]) => [key, this.node(value)]) };
      case 'range':
        if (!e.lo || !e.hi) throw new NoEquivalent('zen has no range open at one end');
        return { k: 'interval', lo: this.node(e.lo), hi: this.node(e.hi), loClosed: e.loClosed, hiClosed: e.hiClosed };
      default:
        throw new NoEquivalent(`zen has no equivalent of FEEL's ${e.k === 'callNamed' ? 'named arguments' : e.k === 'instanceOf' ? 'instance of' : e.k}`);
    }
  }

  /** zen's `len` or `contains`, written in FEEL as a choice by the argument's type (what zen reads as `len(x)` is read so when x's type is unknown). */
  private byKind(e: Extract<Expr, { k: 'if' }>): ZenNode | undefined {
    const { cond, then, else: otherwise } = e;
    if (cond.k !== 'instanceOf' || cond.type !== 'string' || then.k !== 'call' || otherwise.k !== 'call') return undefined;
    const zen = zenOfFeelFunction.get(then.fn);
    const same = (a: Expr[], b: Expr[]) => a.length === b.length && a.every((arg, i) => printFeel(arg) === printFeel(b[i]!));
    if (!zen || zen !== zenOfFeelFunction.get(otherwise.fn) || !same(then.args, otherwise.args) || printFeel(then.args[0]!) !== printFeel(cond.of))
      return undefined;
    return { k: 'call', fn: zen, args: then.args.map((arg) => this.node(arg)) };
  }

  private call(fn: string, args: Expr[]): ZenNode {
    if (fn === 'not' && args.length === 1) return { k: 'unary', op: 'not', of: this.node(args[0]!) };
    if (listArgument.has(fn) && args.length !== 1)
      throw new NoEquivalent(`zen's ${zenOfFeelFunction.get(fn)}() takes one list, not ${fn}()'s ${args.length} values`);
    if (fn === 'round half up' && args.length === 2 && args[1]!.k === 'num' && args[1]!.v === 0) return { k: 'call', fn: 'round', args: [this.node(args[0]!)] };
    const zen = zenOfFeelFunction.get(fn);
    if (!zen) throw new NoEquivalent(`zen has no equivalent of FEEL's ${fn}()`);
    return { k: 'call', fn: zen, args: args.map((arg) => this.node(arg)) };
  }

  /** `x in test` as a zen condition. */
  membership(of: ZenNode, test: Test): ZenNode {
    if (test.k === 'cmp') return { k: 'binary', op: test.op === '=' ? '==' : test.op, l: of, r: this.node(test.r) };
    const target = this.node(test.e);
    return { k: 'binary', op: target.k === 'array' || target.k === 'interval' ? 'in' : '==', l: of, r: target };
  }
}

/** A FEEL expression (an output entry, a condition, an input's expression) as zen. `names` are the declared inputs, for names with spaces. */
export function feelExpressionToZen(text: string, names: readonly string[]): Conversion {
  return converted(() => printZen(new FeelToZen(false).node(parseExpression(text, names)), false));
}

/** How two tests of a zen cell are joined: `,` and `or` alike. */
type Join = ',' | 'or' | 'and';
const sameJoin = (a: Join, b: Join) => (a === 'and') === (b === 'and');

/** Tests of a zen cell, joined left to right. */
interface Chain {
  tests: string[];
  joins: Join[];
}

const single = (test: string): Chain => ({ tests: [test], joins: [] });

/**
 * Tests joined by one operator as a zen chain. zen takes a chain left to
 * right, so at most one part may itself be a chain (of the other operator),
 * and it goes first: `a or b and c` is written `b and c or a`.
 */
function joinChains(parts: Chain[], join: Join): Chain {
  const nested = parts.filter((part) => part.joins.some((j) => !sameJoin(j, join)));
  if (nested.length > 1) throw new NoEquivalent('zen reads "and" and "or" in a cell left to right, with no brackets: these conditions cannot be written so');
  const ordered = [...nested, ...parts.filter((part) => !nested.includes(part))];
  return ordered.reduce((chain, part) => ({ tests: [...chain.tests, ...part.tests], joins: [...chain.joins, join, ...part.joins] }));
}

/** Writes the tests of one FEEL cell as zen's. */
class CellToZen {
  private readonly convert = new FeelToZen(true);

  private print(node: ZenNode): string {
    return printZen(node, true);
  }

  /** What a test compares the input with, after its operator: bracketed when it is a comparison itself, for the reader. */
  private operand(e: Expr): string {
    const node = this.convert.node(e);
    return zenPrecedence(node) <= binaryPrecedence['=='] ? `(${this.print(node)})` : this.print(node);
  }

  /** A condition on `?`, its `and` and `or` as joins of the chain; each other part a condition in zen's eyes. */
  private condition(e: Expr): Chain {
    if (e.k === 'and' || e.k === 'or')
      return joinChains(
        e.items.map((item) => this.condition(item)),
        e.k,
      );
    const node = this.convert.node(e);
    return single(this.print(zenTestKind(node) === 'condition' ? node : { k: 'binary', op: '==', l: node, r: { k: 'bool', v: true } }));
  }

  positive(test: Test): Chain {
    if (test.k === 'cmp') return single(`${test.op === '=' ? '==' : test.op} ${this.operand(test.r)}`);
    // An expression using `?` is a condition when it is one; otherwise FEEL compares the input with its value, as zen does with a value.
    if (readsInput(test.e)) return test.e.k === 'and' || test.e.k === 'or' ? this.condition(test.e) : single(this.print(this.convert.node(test.e)));
    // The engine takes a value that is a boolean as the test's answer, and zen a condition as one: either way, written as it is.
    return single(this.print(this.convert.node(test.e)));
  }

  negative(test: Test): Chain {
    if (test.k === 'cmp' && (test.op === '=' || test.op === '!=')) return single(`${test.op === '=' ? '!=' : '=='} ${this.operand(test.r)}`);
    if (test.k === 'expr' && !readsInput(test.e) && zenTestKind(this.convert.node(test.e)) === 'equal') return single(`!= ${this.operand(test.e)}`);
    const condition = test.k === 'expr' && readsInput(test.e) ? this.convert.node(test.e) : this.convert.membership({ k: 'root' }, test);
    return single(this.print({ k: 'unary', op: 'not', of: condition }));
  }
}

/**
 * FEEL unary tests as a zen cell: `-` is an empty cell; a list of tests is
 * joined by `,`; `not(a, b)` is `!= a and != b`, or `not(...)` of each test;
 * a condition on `?` is a chain of conditions on `$`.
 */
export function feelCellToZen(text: string, names: readonly string[]): Conversion {
  return converted(() => {
    const tests: UnaryTests = parseUnaryTests(text, names);
    if (tests.k === 'any') return '';
    const cell = new CellToZen();
    const chain = tests.not
      ? joinChains(
          tests.tests.map((test) => cell.negative(test)),
          'and',
        )
      : joinChains(
          tests.tests.map((test) => cell.positive(test)),
          ',',
        );
    return chain.tests.reduce((text, test, i) => `${text}${chain.joins[i - 1] === ',' ? ',' : ` ${chain.joins[i - 1]}`} ${test}`);
  });
}
