/**
 * FEEL to zen, as a JDM file is written: a FEEL expression (an output entry,
 * a condition, an input's expression) as a zen expression, and FEEL unary
 * tests as a zen cell, whose tests zen joins left to right with no brackets.
 * The engine's tree is converted to zen's (`./zen-syntax.ts`) and printed
 * (`./zen-print.ts`); what zen cannot hold is refused with the reason
 * (`./zen-conversion.ts`), and the writer carries the FEEL beside the cell.
 */
import { toDecimal, type Num } from '../decimal/decimal.ts';
import type { Expr, Test, UnaryTests } from '../engine/feel/ast.ts';
import { parseExpression, parseUnaryTests } from '../engine/feel/parse.ts';
import { converted, NoEquivalent, readsInput, sameFunctions, type Conversion } from './zen-conversion.ts';
import { isZenName, numberLiteral, printFeel, printZen, zenPrecedence } from './zen-print.ts';
import { binaryPrecedence, zenTestKind, type ZenNode } from './zen-syntax.ts';

const zenOfFeelFunction = new Map([
  ...sameFunctions.map(([zen, feel]) => [feel, zen] as const),
  ['string length', 'len'],
  ['count', 'len'],
  ['list contains', 'contains'],
  ['contains', 'contains'],
  ['date and time', 'date'],
]);

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
