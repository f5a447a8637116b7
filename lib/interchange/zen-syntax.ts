/**
 * zen's expression language as a syntax tree (core/expression in
 * gorules/zen): its tokens, its operators' precedence, the parser of an
 * expression and of a decision table's cell, and how zen takes a test that is
 * an expression alone. Text zen's grammar does not read has no equivalent
 * either way (`./zen-conversion.ts`); zen text is held to FEEL's bounds
 * before it is read.
 */
import { parseNumber, type Num } from '../decimal/decimal.ts';
import { feelLimits } from '../engine/feel/limits.ts';
import { NoEquivalent } from './zen-conversion.ts';

type ZenCompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in';
type ZenBinaryOp = ZenCompareOp | 'and' | 'or' | '+' | '-' | '*' | '/' | '%' | '^' | '??';

export type ZenNode =
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
export interface ZenTest {
  op?: ZenCompareOp;
  node: ZenNode;
}

/** A zen cell: tests joined left to right. */
interface ZenCell {
  tests: ZenTest[];
  joins: ('and' | 'or')[];
}

type Token = { k: 'num' | 'str' | 'template' | 'word' | 'op'; v: string; at: number };

export const binaryPrecedence: Record<ZenBinaryOp, number> = {
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
export const comparisonOps = new Set<string>(['==', '!=', '<', '<=', '>', '>=', 'in', 'not in']);
export const notPrecedence = 50;
export const signPrecedence = 200;
export const primaryPrecedence = 300;

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
export class ZenParser {
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

/**
 * How zen takes a test that is an expression alone (core/expression's
 * UnaryNodeBehaviour): compared with the input, the input looked up in it,
 * or taken as a condition.
 */
export function zenTestKind(node: ZenNode): 'equal' | 'in' | 'condition' {
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
export const listFunctions = new Set(['flatten', 'merge', 'mergeDeep', 'extract', 'split', 'keys', 'values', 'filter', 'map', 'flatMap']);
