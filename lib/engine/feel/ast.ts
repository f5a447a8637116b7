/**
 * The syntax tree of FEEL (DMN 1.5) expressions and unary tests, as plain
 * JSON: made once when a rule is saved (`./parse.ts`, which needs the parser)
 * and kept with it, so that a function that only evaluates compiles it
 * (`./compile.ts`) without bundling the parser.
 */
import { negate, type Num } from '../../decimal/decimal.ts';

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';
export type ArithOp = '+' | '-' | '*' | '/' | '**';

export type Expr =
  | { k: 'null' }
  /** A number literal: exact (`0.1` is one tenth), kept in JSON with all its digits. */
  | { k: 'num'; v: Num }
  | { k: 'str'; v: string }
  | { k: 'bool'; v: boolean }
  /** `@"2025-01-31"`: a date, time, date and time or duration written as a string. */
  | { k: 'at'; v: string }
  /** A name in scope: an input, a context entry, a loop variable, or `?` (the input value of a unary test). */
  | { k: 'var'; name: string }
  | { k: 'path'; of: Expr; name: string }
  | { k: 'filter'; of: Expr; by: Expr }
  | { k: 'call'; fn: string; args: Expr[] }
  | { k: 'callNamed'; fn: string; args: [string, Expr][] }
  | { k: 'neg'; of: Expr }
  | { k: 'arith'; op: ArithOp; l: Expr; r: Expr }
  | { k: 'cmp'; op: CompareOp; l: Expr; r: Expr }
  | { k: 'between'; of: Expr; lo: Expr; hi: Expr }
  /** `x in <tests>`: true when any test holds for x. */
  | { k: 'in'; of: Expr; tests: Test[] }
  | { k: 'and'; items: Expr[] }
  | { k: 'or'; items: Expr[] }
  | { k: 'if'; cond: Expr; then: Expr; else: Expr }
  | { k: 'list'; items: Expr[] }
  | { k: 'context'; entries: [string, Expr][] }
  | { k: 'range'; lo: Expr | null; hi: Expr | null; loClosed: boolean; hiClosed: boolean }
  | { k: 'for'; vars: Iteration[]; body: Expr }
  | { k: 'some' | 'every'; vars: Iteration[]; body: Expr }
  | { k: 'instanceOf'; of: Expr; type: string };

/** `name in list` or `name in from..to` of a for or quantified expression. */
export interface Iteration {
  name: string;
  of: Expr;
  to?: Expr;
}

/** One positive unary test: `< 18`, `[1..5]`, or an expression that the input is compared with (or that uses `?`). */
export type Test = { k: 'cmp'; op: CompareOp; r: Expr } | { k: 'expr'; e: Expr };

/** A unary-tests cell: `-` (any input), or tests of which one must hold, optionally negated by `not(...)`. */
export type UnaryTests = { k: 'any' } | { k: 'tests'; not: boolean; tests: Test[] };

/** The number a constant expression stands for (`5`, `-2.5`), null for an absent range end, undefined for anything else. */
export const constantNumber = (e: Expr | null): Num | null | undefined =>
  e === null ? null : e.k === 'num' ? e.v : e.k === 'neg' && e.of.k === 'num' ? negate(e.of.v) : undefined;
