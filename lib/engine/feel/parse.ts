/**
 * FEEL text to the syntax tree of `./ast.ts`, at save time only. The grammar
 * is `lezer-feel` (the one feelin, the bpmn-io FEEL interpreter, uses), so
 * what parses here parses there; this module turns its concrete tree into the
 * small AST the evaluator compiles, and its error nodes into messages with
 * positions. Names may hold spaces (`date of birth`, `string length`): the
 * grammar tells them apart with the names in scope, which callers pass.
 */
import type { SyntaxNode } from '@lezer/common';
import { parser, trackVariables } from 'lezer-feel';
import { parseNumber } from '../../decimal/decimal.ts';
import type { CompareOp, Expr, Iteration, Test, UnaryTests } from './ast.ts';
import { feelLimits } from './limits.ts';
import { plainName } from './names.ts';
import { unescapeString } from './string-literals.ts';

/** A problem in FEEL text: what is wrong and where (0-based offset, 1-based line and column). */
export interface FeelSyntaxProblem {
  message: string;
  offset: number;
  line: number;
  column: number;
}

export class FeelSyntaxError extends Error {
  constructor(readonly problems: FeelSyntaxProblem[]) {
    super(problems.map((p) => `${p.message} (line ${p.line}, column ${p.column})`).join('; '));
    this.name = 'FeelSyntaxError';
  }
}

export { feelLimits };

type Top = 'Expression' | 'UnaryTests';

/**
 * Characters of text with errors that the parses of one definition may
 * recover from, to list every problem of each text. Recovering explores many
 * parses at once, about ten times the work of text without errors, so a
 * definition full of broken text (300 KB of "? ? ?") would take tens of
 * seconds to check; past this, a text reports only where it first goes wrong,
 * found without recovering.
 */
export const maxRecoveredCharacters = 20_000;

/** What is left of `maxRecoveredCharacters` to the parses of one definition. */
export interface ParseBudget {
  recoverable: number;
}

export const parseBudget = (): ParseBudget => ({ recoverable: maxRecoveredCharacters });

const parsers = new Map<string, typeof parser>();

/**
 * The names a parse must be told, for each names list already seen: only
 * those the grammar would not read as one name on its own ("order total",
 * "risk-score", "a.b"). The parser's variable tracker copies what it is told
 * at each binding (`for`, `some`, a context), so a workflow's hundreds of
 * step ids made its FEEL take seconds to check; plain names parse the same
 * without it.
 */
const contextNames = new WeakMap<readonly string[], { key: string; names: string[] }>();

/** The concrete tree; `strict` throws lezer's SyntaxError at the first error instead of recovering. */
function parseTree(text: string, top: Top, names: readonly string[], strict: boolean) {
  let told = contextNames.get(names);
  if (!told) {
    const kept = names.filter((name) => !plainName.test(name));
    contextNames.set(names, (told = { key: kept.join('\u0000'), names: kept }));
  }
  const key = `${top}\u0000${strict}\u0000${told.key}`;
  let configured = parsers.get(key);
  if (!configured) {
    // The tracker only needs to know which names exist; values are irrelevant at parse time.
    const context = Object.fromEntries(told.names.map((name) => [name, null]));
    configured = parser.configure({ top, strict, contextTracker: trackVariables(context) });
    if (parsers.size > 256) parsers.clear();
    parsers.set(key, configured);
  }
  return configured.parse(text);
}

function position(text: string, offset: number): Omit<FeelSyntaxProblem, 'message'> {
  const before = text.slice(0, offset).split('\n');
  return { offset, line: before.length, column: before[before.length - 1]!.length + 1 };
}

function checkBounds(text: string) {
  if (text.length > feelLimits.maxLength)
    throw new FeelSyntaxError([
      { message: `is ${text.length} characters long; at most ${feelLimits.maxLength} are allowed`, ...position(text, feelLimits.maxLength) },
    ]);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      // Skip string literals: brackets inside them do not nest.
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '(' || c === '[' || c === '{') {
      if (++depth > feelLimits.maxDepth)
        throw new FeelSyntaxError([{ message: `nests brackets deeper than ${feelLimits.maxDepth} levels`, ...position(text, i) }]);
    } else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
}

/**
 * The problems reported for one text: the first few say where it goes wrong; text that is wrong at every character
 * (4,000 "?") would otherwise give thousands, each found by a walk of the text before it.
 */
export const maxSyntaxProblems = 10;

function syntaxProblems(text: string, root: SyntaxNode): FeelSyntaxProblem[] {
  const problems: FeelSyntaxProblem[] = [];
  root.cursor().iterate((node) => {
    if (problems.length >= maxSyntaxProblems) return false;
    if (node.type.isError && !problems.some((p) => p.offset === node.from)) {
      const found = text.slice(node.from, Math.max(node.to, node.from + 1)).trim();
      const message = node.from >= text.trimEnd().length ? 'the expression is incomplete' : `unexpected "${found.slice(0, 20)}"`;
      problems.push({ message, ...position(text, node.from) });
    }
  });
  return problems;
}

/** Names as FEEL sees them: the words of a multi-word name joined by single spaces. */
const nameOf = (text: string, node: SyntaxNode) => text.slice(node.from, node.to).trim().replace(/\s+/g, ' ');

const children = (node: SyntaxNode): SyntaxNode[] => {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) if (child.name !== 'LineComment' && child.name !== 'BlockComment') out.push(child);
  return out;
};

const isLogic = (node: SyntaxNode) => node.name === 'Conjunction' || node.name === 'Disjunction';

/** The children that are values (not punctuation or keywords). */
const operands = (node: SyntaxNode) => children(node).filter((c) => !punctuation.has(c.name));
const punctuation = new Set([
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  '.',
  '..',
  ':',
  'if',
  'then',
  'else',
  'for',
  'in',
  'return',
  'some',
  'every',
  'satisfies',
  'and',
  'or',
  'between',
  'instance',
  'of',
  'not',
  'function',
  'external',
]);

/** Where a name read sits in the text it was parsed from. */
export interface NameSpan {
  from: number;
  to: number;
}

class Converter {
  /** With `spans`, every name read is recorded with its place in the text. */
  constructor(
    private readonly text: string,
    private readonly spans?: Map<Expr, NameSpan>,
  ) {}

  private nameRead(node: SyntaxNode, name: string): Expr {
    const read: Expr = { k: 'var', name };
    this.spans?.set(read, { from: node.from, to: node.to });
    return read;
  }

  private fail(node: SyntaxNode, message: string): never {
    throw new FeelSyntaxError([{ message, ...position(this.text, node.from) }]);
  }

  /**
   * `=<`, `=>` and `==` parse as "=" followed by a unary test (`= (< 2)`): the
   * likely intent is `<=`, `>=` or `=`, which is what the message should name.
   */
  private misspeltOperator(test: SyntaxNode): string | undefined {
    const before = this.text.slice(0, test.from).trimEnd();
    const next = this.text[test.from];
    if (!before.endsWith('=') || (next !== '<' && next !== '>' && next !== '=')) return undefined;
    if (next === '=') return '"==" is not an operator: FEEL tests equality with one "=" (in a cell, the value alone also tests equality)';
    return `"=${next}" is not an operator: did you mean "${next}=" (${next === '<' ? 'less' : 'greater'} than or equal)?`;
  }

  private source(node: SyntaxNode) {
    return this.text.slice(node.from, node.to);
  }

  expr(node: SyntaxNode): Expr {
    const parts = operands(node);
    switch (node.name) {
      case 'Expression':
      case 'Expressions':
      case 'ParenthesizedExpression':
      case 'PositiveUnaryTest':
        if (parts.length !== 1) this.fail(node, 'expected one expression');
        return this.expr(parts[0]!);
      case 'null':
        return { k: 'null' };
      case 'NumericLiteral': {
        // The grammar lets space and comments stand between a sign and its digits ("- 1"), which Number() reads as NaN.
        const text = this.source(node).replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|\s+/g, '');
        const v = parseNumber(text);
        if (v === null)
          this.fail(
            node,
            /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)
              ? `the number ${text.slice(0, 20)}${text.length > 20 ? '…' : ''} is too large (numbers are below 1e6145)`
              : `"${text.slice(0, 20)}" is not a number`,
          );
        return { k: 'num', v };
      }
      case 'StringLiteral':
        return { k: 'str', v: unescapeString(this.source(node)) };
      case 'BooleanLiteral':
        return { k: 'bool', v: this.source(node) === 'true' };
      case 'AtLiteral':
        return { k: 'at', v: unescapeString(this.source(parts.find((p) => p.name === 'StringLiteral') ?? this.fail(node, 'expected a string after @'))) };
      case '?':
        return { k: 'var', name: '?' };
      case 'VariableName':
      case 'QualifiedName':
        return this.nameRead(node, nameOf(this.text, node));
      case 'BacktickIdentifier':
        return this.nameRead(node, this.source(node).slice(1, -1));
      case 'PathExpression': {
        const name = parts[parts.length - 1]!;
        return { k: 'path', of: this.expr(parts[0]!), name: name.name === 'PathName' ? nameOf(this.text, name) : this.source(name) };
      }
      case 'FilterExpression':
        return { k: 'filter', of: this.expr(parts[0]!), by: this.expr(parts[1]!) };
      case 'DateTimeLiteral':
        if (parts[0]?.name === 'AtLiteral') return this.expr(parts[0]);
        return this.call(node, parts);
      case 'FunctionInvocation':
        return this.call(node, parts);
      case 'ArithmeticExpression': {
        const all = children(node);
        if (all[0]?.name === 'ArithOp') {
          // FEEL's only prefix operator is negation; the grammar also lets "+5" through, which must not read as -5.
          if (this.source(all[0]).trim() !== '-')
            this.fail(all[0], `"${this.source(all[0]).trim()}" cannot stand before a value: FEEL has no unary plus, write the value alone`);
          return { k: 'neg', of: this.expr(all[1]!) };
        }
        const op = this.source(all.find((c) => c.name === 'ArithOp')!).replace(/\s/g, '');
        return { k: 'arith', op: op as '+', l: this.expr(all[0]!), r: this.expr(all[all.length - 1]!) };
      }
      case 'Comparison':
        return this.comparison(node);
      case 'Conjunction':
      case 'Disjunction': {
        const k = node.name === 'Conjunction' ? 'and' : 'or';
        const items = parts.flatMap((p) => {
          const e = this.expr(p);
          return e.k === k ? e.items : [e];
        });
        return { k, items };
      }
      case 'IfExpression':
        return { k: 'if', cond: this.expr(parts[0]!), then: this.expr(parts[1]!), else: this.expr(parts[2]!) };
      case 'List':
        return { k: 'list', items: parts.map((p) => this.expr(p)) };
      case 'Context':
        return {
          k: 'context',
          entries: parts.map((entry) => {
            const [key, value] = operands(entry);
            const keyNode = operands(key!)[0]!;
            return [keyNode.name === 'StringLiteral' ? unescapeString(this.source(keyNode)) : nameOf(this.text, keyNode), this.expr(value!)] as [string, Expr];
          }),
        };
      case 'Interval':
        return this.interval(node);
      case 'ForExpression':
        return { k: 'for', vars: this.iterations(parts[0]!), body: this.expr(parts[1]!) };
      case 'QuantifiedExpression': {
        const k = children(node)[0]!.name === 'every' ? 'every' : 'some';
        return { k, vars: this.iterations(parts[0]!), body: this.expr(parts[1]!) };
      }
      case 'InstanceOfExpression':
        return { k: 'instanceOf', of: this.expr(parts[0]!), type: nameOf(this.text, parts[parts.length - 1]!) };
      case 'SimplePositiveUnaryTest':
        this.fail(node, this.misspeltOperator(node) ?? 'a unary test (such as "< 18") cannot stand here: compare a value with it, e.g. "x < 18"');
      // falls through: fail never returns
      case 'FunctionDefinition':
        this.fail(node, 'function definitions are not supported');
      // falls through
      default:
        this.fail(node, `unexpected ${node.name}`);
    }
  }

  private call(node: SyntaxNode, parts: SyntaxNode[]): Expr {
    const [callee, params] = parts;
    if (!callee || !params) this.fail(node, 'expected a function call');
    // Calling what is not a function (`null()`, `123()`) is valid FEEL whose value is null: it runs as a call of no known function.
    const fn =
      callee.name === 'DateTimeConstructor' || callee.name === 'SpecialFunctionName' || callee.name === 'VariableName'
        ? nameOf(this.text, callee)
        : this.source(callee).trim();
    if (params.name === 'NamedParameters')
      return {
        k: 'callNamed',
        fn,
        args: operands(params).map((param) => {
          const [name, value] = operands(param);
          return [nameOf(this.text, name!), this.expr(value!)] as [string, Expr];
        }),
      };
    return { k: 'call', fn, args: operands(params).map((p) => this.expr(p)) };
  }

  private comparison(node: SyntaxNode): Expr {
    const all = children(node);
    const opNode = all.find((c) => c.name === 'CompareOp');
    if (opNode) {
      const op = this.source(opNode) as CompareOp;
      return { k: 'cmp', op, l: this.expr(all[0]!), r: this.expr(all[all.length - 1]!) };
    }
    if (all.some((c) => c.name === 'between')) {
      const [of, lo, hi] = operands(node);
      return { k: 'between', of: this.expr(of!), lo: this.expr(lo!), hi: this.expr(hi!) };
    }
    // x in <positive unary test> | x in (<positive unary tests>)
    const [of, tests] = operands(node);
    if (tests!.name === 'PositiveUnaryTests') return { k: 'in', of: this.expr(of!), tests: operands(tests!).flatMap((t) => this.tests(t)) };
    // lezer-feel lets the test swallow the and/or that follows (`x in [1..2] and y` as `x in ([1..2] and y)`, and
    // `x in < 3 or y` as `x in < (3 or y)`); DMN 1.5 gives and/or lower precedence than in: `(x in [1..2]) and y`.
    const ofExpr = this.expr(of!);
    const test = operands(tests!)[0]!;
    if (isLogic(test)) return this.withLeftmost(test, (leaf) => ({ k: 'in', of: ofExpr, tests: this.tests(leaf) }));
    const [op, endpoint] = children(test);
    if (test.name === 'SimplePositiveUnaryTest' && op?.name === 'CompareOp' && endpoint && isLogic(endpoint)) {
      const compareOp = this.source(op) as CompareOp;
      return this.withLeftmost(endpoint, (leaf) => ({ k: 'in', of: ofExpr, tests: [{ k: 'cmp', op: compareOp, r: this.expr(leaf) }] }));
    }
    return { k: 'in', of: ofExpr, tests: this.tests(tests!) };
  }

  /** The and/or of `node` with its leftmost operand made by `make`; the other operands as they are. */
  private withLeftmost(node: SyntaxNode, make: (leaf: SyntaxNode) => Expr): Expr {
    if (!isLogic(node)) return make(node);
    const k = node.name === 'Conjunction' ? 'and' : 'or';
    const [first, ...rest] = operands(node);
    const items = [this.withLeftmost(first!, make), ...rest.map((p) => this.expr(p))];
    return { k, items: items.flatMap((e) => (e.k === k ? e.items : [e])) };
  }

  private interval(node: SyntaxNode): Expr {
    const all = children(node);
    const first = this.source(all[0]!);
    const last = this.source(all[all.length - 1]!);
    const [lo, hi] = operands(node);
    return { k: 'range', lo: this.expr(lo!), hi: this.expr(hi!), loClosed: first === '[', hiClosed: last === ']' };
  }

  private iterations(node: SyntaxNode): Iteration[] {
    return operands(node).map((inExpression) => {
      const [name, context] = operands(inExpression);
      const bounds = operands(context!);
      return { name: nameOf(this.text, name!), of: this.expr(bounds[0]!), ...(bounds[1] && { to: this.expr(bounds[1]) }) };
    });
  }

  /**
   * The tests a positive unary test stands for: one, or, for a list that holds unary tests (`[[2..4], [1..3]]`,
   * `[< 2, 5]`), one per item, any of which may hold. A unary test in parentheses (`(=10)`, `(!= v)`) is that test.
   */
  tests(node: SyntaxNode): Test[] {
    if (node.name === 'PositiveUnaryTest') return this.tests(operands(node)[0]!);
    if (node.name === 'ParenthesizedExpression') {
      const inner = operands(node);
      if (inner.length === 1 && inner[0]!.name === 'SimplePositiveUnaryTest') return this.tests(inner[0]!);
    }
    if (node.name === 'List' && operands(node).some((item) => item.name === 'SimplePositiveUnaryTest'))
      return operands(node).flatMap((item) => this.tests(item));
    if (node.name === 'SimplePositiveUnaryTest') {
      const all = children(node);
      if (all[0]?.name === 'CompareOp') return [{ k: 'cmp', op: this.source(all[0]) as CompareOp, r: this.expr(all[1]!) }];
      if (all[0]?.name === 'Interval') return [{ k: 'expr', e: this.interval(all[0]) }];
      return [{ k: 'expr', e: this.expr(all[0]!) }];
    }
    return [{ k: 'expr', e: this.expr(node) }];
  }

  unaryTests(node: SyntaxNode): UnaryTests {
    const all = children(node);
    if (all[0]?.name === 'Wildcard') return { k: 'any' };
    const negated = all[0]?.name === 'not';
    const tests = all.find((c) => c.name === 'PositiveUnaryTests');
    if (!tests) this.fail(node, 'expected unary tests');
    return { k: 'tests', not: negated, tests: operands(tests).flatMap((t) => this.tests(t)) };
  }
}

/** The one problem a strict parse reports: where no parse goes on. */
function firstProblem(text: string, error: SyntaxError): FeelSyntaxProblem {
  const at = Math.min(Number(/No parse at (\d+)/.exec(error.message)?.[1] ?? 0), text.length);
  const found = text.slice(at).trim().split(/\s/)[0] ?? '';
  return { message: at >= text.trimEnd().length ? 'the expression is incomplete' : `unexpected "${found.slice(0, 20)}"`, ...position(text, at) };
}

/**
 * Parses strictly first (text without errors, the usual case, costs nothing more); text with errors is parsed again
 * with recovery, to report every problem, while `budget` lasts (without one, always).
 */
function parse<T>(
  text: string,
  top: Top,
  names: readonly string[],
  convert: (c: Converter, root: SyntaxNode) => T,
  budget?: ParseBudget,
  spans?: Map<Expr, NameSpan>,
): T {
  checkBounds(text);
  if (!text.trim()) throw new FeelSyntaxError([{ message: 'is empty', ...position(text, 0) }]);
  let root: SyntaxNode;
  try {
    root = parseTree(text, top, names, true).topNode;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    if (budget && budget.recoverable < text.length) throw new FeelSyntaxError([firstProblem(text, error)]);
    if (budget) budget.recoverable -= text.length;
    root = parseTree(text, top, names, false).topNode;
    const problems = syntaxProblems(text, root);
    if (problems.length) throw new FeelSyntaxError(problems);
  }
  return convert(new Converter(text, spans), root);
}

/**
 * Parses a FEEL expression.
 *
 * @param names the names in scope (inputs and context entries), which lets names with spaces parse
 * @param budget shared by the texts of one definition, so that text full of errors cannot make checking it slow
 * @throws FeelSyntaxError with every problem and its position
 * @example
 * parseExpression('order.total >= 50 and customer.age < 18', ['order', 'customer'])
 */
export function parseExpression(text: string, names: readonly string[] = [], budget?: ParseBudget): Expr {
  return parse(text, 'Expression', names, (c, root) => c.expr(root), budget);
}

/**
 * Parses a FEEL expression, telling where each name it reads sits in the
 * text: for tools that rewrite names (`./rename.ts`).
 *
 * @throws FeelSyntaxError with the first problem only (text with errors is not parsed again to find the others)
 */
export function parseExpressionWithSpans(text: string, names: readonly string[] = []): { expr: Expr; spans: ReadonlyMap<Expr, NameSpan> } {
  const spans = new Map<Expr, NameSpan>();
  return { expr: parse(text, 'Expression', names, (c, root) => c.expr(root), { recoverable: 0 }, spans), spans };
}

/**
 * Parses the FEEL unary tests of a decision-table cell: `-`, `< 18`, `[18..65]`, `"gold","silver"`, `not(...)`, or an expression using `?`.
 * An empty cell means any input, as `-` does.
 */
export function parseUnaryTests(text: string, names: readonly string[] = [], budget?: ParseBudget): UnaryTests {
  if (!text.trim()) return { k: 'any' };
  return parse(text, 'UnaryTests', names, (c, root) => c.unaryTests(root), budget);
}
