/**
 * zen to FEEL, as a JDM file is read: a zen expression (an output cell, an
 * expression node's value, an input's field) as a FEEL expression, and a zen
 * cell as FEEL unary tests. zen's tree (`./zen-syntax.ts`) is converted to
 * the engine's and printed (`./zen-print.ts`); where the two languages
 * differ in meaning the conversion notes it, and what has no FEEL equivalent
 * is refused with the reason (`./zen-conversion.ts`).
 */
import { negate } from '../decimal/decimal.ts';
import type { ValueType } from '../engine/definitions.ts';
import type { CompareOp, Expr, Test } from '../engine/feel/ast.ts';
import { plainName } from '../engine/feel/names.ts';
import { converted, NoEquivalent, readsInput, sameFunctions, type Conversion } from './zen-conversion.ts';
import { printFeel, printTest } from './zen-print.ts';
import { comparisonOps, listFunctions, zenTestKind, ZenParser, type ZenNode, type ZenTest } from './zen-syntax.ts';

const feelOfZenFunction = new Map(sameFunctions);

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

/** A test as a condition on `?`. */
function asCondition(test: Test): Expr {
  const input: Expr = { k: 'var', name: '?' };
  if (test.k === 'cmp') return { k: 'cmp', op: test.op, l: input, r: test.r };
  if (readsInput(test.e)) return test.e;
  return test.e.k === 'list' || test.e.k === 'range' ? { k: 'in', of: input, tests: [test] } : { k: 'cmp', op: '=', l: input, r: test.e };
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
