/**
 * The printers of both languages' trees, for the conversions between zen and
 * FEEL (`./zen-conversion.ts`): zen text from zen's tree (`./zen-syntax.ts`),
 * with brackets where zen's precedence needs them and strings in the quote
 * they do not hold; FEEL text from the engine's tree, for what zen converts
 * to.
 */
import { toDecimal, type Num } from '../decimal/decimal.ts';
import type { Expr, Test } from '../engine/feel/ast.ts';
import { plainName } from '../engine/feel/names.ts';
import { NoEquivalent } from './zen-conversion.ts';
import { binaryPrecedence, notPrecedence, primaryPrecedence, signPrecedence, type ZenNode } from './zen-syntax.ts';

// ---------------------------------------------------------------------------
// Printing zen

const zenWord = /^[A-Za-z_][A-Za-z0-9_]*$/;
const zenKeywords = new Set(['and', 'or', 'in', 'not', 'true', 'false', 'null']);
export const isZenName = (name: string) => zenWord.test(name) && !zenKeywords.has(name);

/** A number as text both languages read: JavaScript's (`1e+30` past 21 digits). */
export const numberLiteral = (n: Num) => (typeof n === 'number' ? String(n + 0) : toDecimal(n).toString());

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
export function zenPrecedence(node: ZenNode): number {
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
export function printZen(node: ZenNode, cell: boolean): string {
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
export function printFeel(e: Expr): string {
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

export const printTest = (t: Test) => (t.k === 'cmp' ? `${t.op} ${printFeel(t.r)}` : printFeel(t.e));
