/**
 * The FEEL syntax tree compiled once into JavaScript closures: evaluating is
 * then calling a function, with no tree walking and no parsing. This module
 * holds no parser, so the functions that only evaluate (execute, scheduled
 * runs, workflows) bundle this and not `./parse.ts`.
 *
 * Type errors never throw: as FEEL has it, the operation's value is null, and
 * when the caller asks for them (a trace), a note says why. Work does: each
 * evaluation has a budget of steps (./budget.ts), which iterations, filters,
 * comparisons of lists and built-ins spend as they go.
 */
import { add, Decimal, divide, isNum, multiply, negate, numberText, subtract, toInteger, type Num } from '../../decimal/decimal.ts';
import { power } from '../../decimal/functions.ts';
import { constantNumber, type ArithOp, type CompareOp, type Expr, type Iteration, type Test, type UnaryTests } from './ast.ts';
import { Budget } from './budget.ts';
import { callBuiltin, hasBuiltin } from './builtins.ts';
import { FeelDate, FeelDateTime, FeelDuration, FeelTime } from './temporal.ts';
import { compare, equal, FeelRange, isContext, setEntry, typeName, type FeelContext, type FeelValue } from './values.ts';

/**
 * The instant `now()` and `today()` read: fixed by the caller, or taken on
 * first use and kept, so that one evaluation sees one instant and one that
 * never asks pays nothing.
 */
export class Clock {
  #at: Date | undefined;
  constructor(at?: Date) {
    this.#at = at;
  }
  now(): Date {
    return (this.#at ??= new Date());
  }
}

/** What an evaluation runs in: the names in scope, one clock, one budget of steps, and where notes go. */
export interface Env {
  readonly vars: FeelContext;
  readonly parent: Env | null;
  readonly clock: Clock;
  readonly budget: Budget;
  /** Present when the caller wants to know why a value came out null. */
  readonly notes: string[] | null;
}

export type Evaluator = (env: Env) => FeelValue;
/** A compiled unary test: whether `input` passes it. */
export type UnaryTest = (input: FeelValue, env: Env) => boolean;

/** An environment for one evaluation over `vars`: a budget of its own unless it shares the caller's (a rule set's rules share one). */
export function rootEnv(vars: FeelContext, options: { clock?: Clock | Date; notes?: string[] | null; budget?: Budget } = {}): Env {
  const clock = options.clock instanceof Clock ? options.clock : new Clock(options.clock);
  return { vars, parent: null, clock, budget: options.budget ?? new Budget(), notes: options.notes ?? null };
}

export const childEnv = (parent: Env, vars: FeelContext): Env => ({ vars, parent, clock: parent.clock, budget: parent.budget, notes: parent.notes });

export function note(env: Env, message: string): null {
  env.notes?.push(message);
  return null;
}

function lookup(env: Env, name: string): FeelValue {
  for (let e: Env | null = env; e; e = e.parent) if (Object.hasOwn(e.vars, name)) return e.vars[name] ?? null;
  return note(env, `no value named "${name}"`);
}

const describe = (value: FeelValue) =>
  typeof value === 'string'
    ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
    : `${typeName(value)}${value === null ? '' : ` ${JSON.stringify(value)?.slice(0, 40)}`}`;

function compareWith(op: CompareOp, a: FeelValue, b: FeelValue, env: Env): boolean | null {
  if (op === '=' || op === '!=') {
    const e = equal(a, b, env.budget);
    if (e === null) return note(env, `cannot compare ${describe(a)} with ${describe(b)}`);
    return op === '=' ? e : !e;
  }
  if (a === null || b === null) return null;
  const c = compare(a, b);
  if (c === null) return note(env, `cannot order ${describe(a)} and ${describe(b)}`);
  switch (op) {
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    default:
      return c >= 0;
  }
}

/** A comparison with a constant number, the commonest cell (`< 18`): a direct test of a double, falling back to the general rule. */
function numberComparison(op: CompareOp, n: Num): (a: FeelValue, env: Env) => boolean | null {
  const general = (a: FeelValue, env: Env) => compareWith(op, a, n, env);
  // Two doubles compare as the decimals they stand for (see lib/decimal).
  if (n instanceof Decimal) return general;
  switch (op) {
    case '<':
      return (a, env) => (typeof a === 'number' ? a < n : general(a, env));
    case '<=':
      return (a, env) => (typeof a === 'number' ? a <= n : general(a, env));
    case '>':
      return (a, env) => (typeof a === 'number' ? a > n : general(a, env));
    case '>=':
      return (a, env) => (typeof a === 'number' ? a >= n : general(a, env));
    case '=':
      return (a, env) => (typeof a === 'number' ? a === n : general(a, env));
    default:
      return (a, env) => (typeof a === 'number' ? a !== n : general(a, env));
  }
}

const numberOperations: Record<ArithOp, (a: Num, b: Num) => Num | null> = { '+': add, '-': subtract, '*': multiply, '/': divide, '**': power };

export function arithmetic(op: ArithOp, a: FeelValue, b: FeelValue, env: Env): FeelValue {
  if (isNum(a) && isNum(b)) {
    const r = numberOperations[op](a, b);
    if (r !== null) return r;
    if (op === '/' && b === 0) return note(env, 'division by zero');
    return note(env, `${op} gives ${op === '/' || op === '**' ? 'no number or ' : ''}a number beyond decimal128's range`);
  }
  if (a === null || b === null) return null;
  const result = temporalArithmetic(op, a, b);
  if (result !== undefined) return result;
  if (op === '+' && typeof a === 'string' && typeof b === 'string') {
    env.budget.spend(a.length + b.length);
    return a + b;
  }
  return note(env, `cannot apply ${op} to ${describe(a)} and ${describe(b)}`);
}

/** Arithmetic of dates, times and durations; undefined when the operands are not such a pair. */
function temporalArithmetic(op: string, a: FeelValue, b: FeelValue): FeelValue | undefined {
  const sign = op === '+' ? 1 : op === '-' ? -1 : 0;
  if (b instanceof FeelDuration && sign) {
    if (a instanceof FeelDuration) return a.plus(b, sign);
    const months = b.kind === 'yearsMonths' ? sign * b.amount : 0;
    const seconds = b.kind === 'daysTime' ? sign * b.amount : 0;
    if (a instanceof FeelDateTime) return months ? a.plusMonths(months) : a.plusSeconds(seconds);
    if (a instanceof FeelDate) return months ? a.plusMonths(months) : a.plusDays(Math.floor(seconds / 86_400));
    if (a instanceof FeelTime) return b.kind === 'daysTime' ? a.plusSeconds(seconds) : null;
  }
  if (a instanceof FeelDuration && op === '+' && (b instanceof FeelDate || b instanceof FeelDateTime || b instanceof FeelTime))
    return temporalArithmetic('+', b, a);
  if (op === '-') {
    const [x, y] = [asDateTime(a), asDateTime(b)];
    if (x && y) {
      const seconds = x.since(y);
      return seconds === null ? null : FeelDuration.daysTime(seconds);
    }
    if (a instanceof FeelTime && b instanceof FeelTime) {
      const [i, j] = [a.timeOffset, b.timeOffset];
      if ((i === null) !== (j === null)) return null;
      return FeelDuration.daysTime(a.seconds - (i?.amount ?? 0) - (b.seconds - (j?.amount ?? 0)));
    }
  }
  if (a instanceof FeelDuration && isNum(b)) {
    if (op === '*') return scaled(a, multiply(a.amount, b));
    if (op === '/') return scaled(a, divide(a.amount, b));
  }
  if (isNum(a) && b instanceof FeelDuration && op === '*') return scaled(b, multiply(b.amount, a));
  if (a instanceof FeelDuration && b instanceof FeelDuration && op === '/' && a.kind === b.kind) return divide(a.amount, b.amount);
  return undefined;
}

/** A duration of the kind of `d` with another amount (computed exactly; months cut to whole ones); null for a division by zero. */
function scaled(d: FeelDuration, amount: Num | null): FeelDuration | null {
  if (amount === null) return null;
  const n = Number(numberText(amount));
  return d.kind === 'yearsMonths' ? FeelDuration.yearsMonths(n) : FeelDuration.daysTime(n);
}

const asDateTime = (value: FeelValue) => (value instanceof FeelDateTime ? value : value instanceof FeelDate ? FeelDateTime.atUtcMidnight(value) : null);

/** A property of a value: a context entry, or a part of a date, time or duration. */
export function property(target: FeelValue, name: string, env: Env): FeelValue {
  if (target === null) return null;
  if (isContext(target)) return Object.hasOwn(target, name) ? (target[name] ?? null) : note(env, `no entry "${name}" in the context`);
  if (Array.isArray(target)) {
    env.budget.spend(target.length);
    return target.map((item) => property(item, name, env));
  }
  const value = temporalProperty(target, name);
  return value === undefined ? note(env, `${typeName(target)} has no property "${name}"`) : value;
}

function temporalProperty(target: FeelValue, name: string): FeelValue | undefined {
  if (target instanceof FeelDate || target instanceof FeelDateTime) {
    const date = target instanceof FeelDate ? target : target.date;
    switch (name) {
      case 'year':
        return date.y;
      case 'month':
        return date.m;
      case 'day':
        return date.d;
      case 'weekday':
        return date.weekday;
    }
  }
  if (target instanceof FeelDateTime || target instanceof FeelTime) {
    const time = target instanceof FeelTime ? target : target.time;
    switch (name) {
      case 'hour':
        return time.hour;
      case 'minute':
        return time.minute;
      case 'second':
        return time.second;
      case 'time offset':
        // A date and time's own offset: its zone's on its date, not on today's as for a time alone.
        if (target instanceof FeelDateTime) return target.effectiveOffset === null ? null : FeelDuration.daysTime(target.effectiveOffset);
        return time.timeOffset;
      case 'timezone':
        return time.zone;
    }
  }
  if (target instanceof FeelDuration && ['years', 'months', 'days', 'hours', 'minutes', 'seconds'].includes(name)) return target[name as 'years'];
  if (target instanceof FeelRange) {
    switch (name) {
      case 'start':
        return target.lo;
      case 'end':
        return target.hi;
      case 'start included':
        return target.loClosed;
      case 'end included':
        return target.hiClosed;
    }
  }
  return undefined;
}

/** Three-valued `and`: false wins, then null. */
function conjunction(items: Evaluator[]): Evaluator {
  return (env) => {
    let unknown = false;
    for (const item of items) {
      const v = item(env);
      if (v === false) return false;
      if (v !== true) unknown = true;
    }
    return unknown ? null : true;
  };
}

function disjunction(items: Evaluator[]): Evaluator {
  return (env) => {
    let unknown = false;
    for (const item of items) {
      const v = item(env);
      if (v === true) return true;
      if (v !== false) unknown = true;
    }
    return unknown ? null : false;
  };
}

/** The lists or ranges an iteration walks, as an array of values (null when one is not a list). */
function iterationValues(iteration: { of: Evaluator; to?: Evaluator }, env: Env): FeelValue[] | null {
  const from = iteration.of(env);
  if (!iteration.to) return Array.isArray(from) ? from : from === null ? null : [from];
  const to = iteration.to(env);
  if (typeof from !== 'number' || typeof to !== 'number' || !Number.isInteger(from) || !Number.isInteger(to))
    return note(env, 'a range to iterate needs whole numbers at both ends');
  if (Math.abs(to - from) > maxIterations) return note(env, `a range to iterate may hold at most ${maxIterations} numbers`);
  env.budget.spend(Math.abs(to - from) + 1);
  const step = from <= to ? 1 : -1;
  const values: FeelValue[] = [];
  for (let i = from; step > 0 ? i <= to : i >= to; i += step) values.push(i);
  return values;
}

/** Bounds what one `for`, `some` or `every` may walk, so no expression can run unbounded. */
export const maxIterations = 100_000;

/**
 * Every combination of the iterations' values, each as the variables it binds. Each spends `cost` steps (what the
 * body evaluated for it is worth), so that iterations nested or combined cannot multiply past the budget.
 */
function* combinations(iterations: CompiledIteration[], env: Env, cost: number): Generator<Env | null> {
  const walk = function* (i: number, current: Env): Generator<Env | null> {
    if (i === iterations.length) {
      env.budget.spend(cost);
      return yield current;
    }
    const values = iterationValues(iterations[i]!, current);
    if (values === null) return yield null;
    for (const value of values) yield* walk(i + 1, childEnv(current, { [iterations[i]!.name]: value }));
  };
  yield* walk(0, env);
}

type CompiledIteration = { name: string; of: Evaluator; to?: Evaluator };

/** What evaluating an expression once is worth in steps, at least: its syntax tree's nodes, each evaluated at most once. */
function weight(node: unknown): number {
  if (node === null || typeof node !== 'object') return 0;
  let total = 'k' in node ? 1 : 0;
  for (const value of Object.values(node)) total += weight(value);
  return total;
}

const compileIterations = (vars: Iteration[]): CompiledIteration[] =>
  vars.map((v) => ({ name: v.name, of: compileExpression(v.of), ...(v.to && { to: compileExpression(v.to) }) }));

function filter(target: FeelValue, by: Evaluator, cost: number, env: Env): FeelValue {
  if (target === null) return null;
  const list = Array.isArray(target) ? target : [target];
  env.budget.spend(cost);
  // A number picks by position (1 first, -1 last); anything else filters item by item. The probe writes no
  // notes: `people[age > 18]` has no "age" outside an item, which is no reason to note one.
  const index = by({ ...childEnv(env, { item: null }), notes: null });
  if (isNum(index)) {
    const position = toInteger(index);
    const at = position > 0 ? position - 1 : list.length + position;
    return Number.isInteger(position) && at >= 0 && at < list.length ? list[at]! : null;
  }
  const out: FeelValue[] = [];
  for (const item of list) {
    env.budget.spend(cost);
    const vars: FeelContext = isContext(item) ? { ...item, item } : { item };
    if (by(childEnv(env, vars)) === true) out.push(item);
  }
  return out;
}

/** A type as `instance of` names it: `number`, or a parameterised one (`list<number>`, `context<a: string>`). */
interface TypeSpec {
  name: string;
  params: TypeSpec[];
  entries: [string, TypeSpec][];
}

/** Reads a type's text, which the FEEL parser has already found well formed. */
function readType(text: string): TypeSpec {
  let at = 0;
  const until = (stops: string) => {
    const start = at;
    while (at < text.length && !stops.includes(text[at]!)) at++;
    return text.slice(start, at).trim();
  };
  const type = (): TypeSpec => {
    const spec: TypeSpec = { name: until('<,>'), params: [], entries: [] };
    if (text[at] !== '<') return spec;
    do {
      at++;
      if (spec.name === 'context') {
        const key = until(':');
        at++;
        spec.entries.push([key, type()]);
      } else spec.params.push(type());
    } while (text[at] === ',');
    at++;
    return spec;
  };
  return type();
}

/** Whether a value conforms to a type: a list's items and a context's named entries (others may be there too) conform in turn. */
function conforms(value: FeelValue, type: TypeSpec): boolean {
  const [param] = type.params;
  if (type.name === 'list' && param) return Array.isArray(value) && value.every((item) => conforms(item, param));
  if (type.name === 'context' && type.entries.length > 0)
    return isContext(value) && type.entries.every(([key, entry]) => Object.hasOwn(value, key) && conforms(value[key] ?? null, entry));
  return instanceOf(value, type.name);
}

function instanceOf(value: FeelValue, type: string): boolean {
  const actual = typeName(value);
  if (type === 'Any') return value !== null;
  if (type === 'Null') return value === null;
  if (type === 'years and months duration' || type === 'days and time duration') return actual === type;
  return actual === type || (type === 'duration' && value instanceof FeelDuration);
}

/**
 * Compiles a parsed FEEL expression into a function of its environment.
 *
 * @example
 * const total = compileExpression(parseExpression('price * quantity', ['price', 'quantity']));
 * total(rootEnv({ price: 2.5, quantity: 4 })); // 10
 */
export function compileExpression(e: Expr): Evaluator {
  switch (e.k) {
    case 'null':
      return () => null;
    case 'num':
    case 'str':
    case 'bool': {
      const v = e.v;
      return () => v;
    }
    case 'at': {
      const text = e.v;
      const value = FeelDate.parse(text) ?? FeelDateTime.parse(text) ?? FeelTime.parse(text) ?? FeelDuration.parse(text);
      return (env) => value ?? note(env, `@"${text}" is not a date, time, date and time or duration`);
    }
    case 'var': {
      const name = e.name;
      return (env) => lookup(env, name);
    }
    case 'path': {
      const of = compileExpression(e.of);
      const name = e.name;
      if (e.of.k === 'var') {
        const root = e.of.name;
        // The commonest path, `order.total`: one lookup and one own-property read.
        return (env) => {
          const target = lookup(env, root);
          return isContext(target)
            ? Object.hasOwn(target, name)
              ? (target[name] ?? null)
              : note(env, `no entry "${name}" in "${root}"`)
            : property(target, name, env);
        };
      }
      return (env) => property(of(env), name, env);
    }
    case 'filter': {
      const of = compileExpression(e.of);
      const by = compileExpression(e.by);
      const cost = 1 + weight(e.by);
      return (env) => filter(of(env), by, cost, env);
    }
    case 'call': {
      const fn = e.fn;
      if (!hasBuiltin(fn)) return (env) => note(env, `no function named "${fn}"`);
      const args = e.args.map(compileExpression);
      return (env) =>
        callBuiltin(
          fn,
          args.map((a) => a(env)),
          env,
        );
    }
    case 'callNamed': {
      const fn = e.fn;
      if (!hasBuiltin(fn)) return (env) => note(env, `no function named "${fn}"`);
      const args = e.args.map(([name, arg]) => [name, compileExpression(arg)] as const);
      return (env) =>
        callBuiltin(
          fn,
          args.map(([, a]) => a(env)),
          env,
          args.map(([name]) => name),
        );
    }
    case 'neg': {
      const of = compileExpression(e.of);
      return (env) => {
        const v = of(env);
        if (isNum(v)) return negate(v);
        if (v instanceof FeelDuration) return v.times(-1);
        return v === null ? null : note(env, `cannot negate ${describe(v)}`);
      };
    }
    case 'arith': {
      const [l, r, op] = [compileExpression(e.l), compileExpression(e.r), e.op];
      return (env) => arithmetic(op, l(env), r(env), env);
    }
    case 'cmp': {
      const [l, op] = [compileExpression(e.l), e.op];
      if (e.r.k === 'num') {
        const test = numberComparison(op, e.r.v);
        return (env) => test(l(env), env);
      }
      const r = compileExpression(e.r);
      return (env) => compareWith(op, l(env), r(env), env);
    }
    case 'between': {
      const [of, lo, hi] = [compileExpression(e.of), compileExpression(e.lo), compileExpression(e.hi)];
      return (env) => {
        const [v, a, b] = [of(env), lo(env), hi(env)];
        if (a === null || b === null) return null;
        return new FeelRange(a, b, true, true).includes(v);
      };
    }
    case 'in': {
      const of = compileExpression(e.of);
      const tests = e.tests.map(compileMembership);
      return (env) => {
        const v = of(env);
        let unknown = false;
        for (const test of tests) {
          const r = test(v, env);
          if (r === true) return true;
          if (r === null) unknown = true;
        }
        return unknown ? null : false;
      };
    }
    case 'and':
      return conjunction(e.items.map(compileExpression));
    case 'or':
      return disjunction(e.items.map(compileExpression));
    case 'if': {
      const [cond, then, otherwise] = [compileExpression(e.cond), compileExpression(e.then), compileExpression(e.else)];
      return (env) => (cond(env) === true ? then(env) : otherwise(env));
    }
    case 'list': {
      const items = e.items.map(compileExpression);
      return (env) => items.map((item) => item(env));
    }
    case 'context': {
      const entries = e.entries.map(([name, value]) => [name, compileExpression(value)] as const);
      return (env) => {
        // Later entries see earlier ones.
        const context: FeelContext = {};
        const inner = childEnv(env, context);
        for (const [name, value] of entries) setEntry(context, name, value(inner));
        return context;
      };
    }
    case 'range': {
      // An end left out (lo or hi null in the tree) is unbounded; an end written as an expression that gives null is not.
      const [lo, hi] = [e.lo && compileExpression(e.lo), e.hi && compileExpression(e.hi)];
      const { loClosed, hiClosed } = e;
      return (env) => {
        const [from, to] = [lo ? lo(env) : null, hi ? hi(env) : null];
        return new FeelRange(from, to, loClosed, hiClosed, (lo !== null && from === null) || (hi !== null && to === null));
      };
    }
    case 'for': {
      const iterations = compileIterations(e.vars);
      const body = compileExpression(e.body);
      const cost = 1 + weight(e.body);
      return (env) => {
        const out: FeelValue[] = [];
        for (const inner of combinations(iterations, env, cost)) {
          if (inner === null) return null;
          if (out.length >= maxIterations) return note(env, `a for expression may give at most ${maxIterations} values`);
          out.push(body(inner));
        }
        return out;
      };
    }
    case 'some':
    case 'every': {
      const iterations = compileIterations(e.vars);
      const body = compileExpression(e.body);
      const some = e.k === 'some';
      const cost = 1 + weight(e.body);
      return (env) => {
        for (const inner of combinations(iterations, env, cost)) {
          if (inner === null) return null;
          if ((body(inner) === true) === some) return some;
        }
        return !some;
      };
    }
    case 'instanceOf': {
      const of = compileExpression(e.of);
      const type = readType(e.type);
      return (env) => conforms(of(env), type);
    }
  }
}

/** One test of `x in (...)`: a match, a miss, or null when the value cannot be compared with a range end or test. */
function compileMembership(test: Test): (input: FeelValue, env: Env) => boolean | null {
  if (test.k === 'cmp') {
    if (test.r.k === 'num') return numberComparison(test.op, test.r.v);
    const r = compileExpression(test.r);
    const op = test.op;
    return (input, env) => compareWith(op, input, r(env), env);
  }
  const e = compileExpression(test.e);
  return (input, env) => {
    const value = e(env);
    if (Array.isArray(value)) return value.some((item) => equal(item, input, env.budget) === true);
    if (value instanceof FeelRange) return value.includes(input);
    // Scalar equality is two-valued in a membership test.
    return equal(value, input, env.budget) === true;
  };
}

/**
 * Compiles the unary tests of a decision-table cell. The input is bound to
 * `?`; a test matches when it holds (a comparison or range), when the input
 * equals its value (or is in it, for a list), or when it is an expression
 * using `?` that is true. A comparison that cannot be made (null, or values of
 * different types) does not match, with a note saying why.
 *
 * @example
 * const adult = compileUnaryTests(parseUnaryTests('[18..65]'));
 * adult(30, rootEnv({})); // true
 */
export function compileUnaryTests(tests: UnaryTests): UnaryTest {
  if (tests.k === 'any') return () => true;
  const compiled = tests.tests.map(compileUnaryTest);
  const negate = tests.not;
  if (compiled.length === 1 && !negate) return compiled[0]!;
  return (input, env) => {
    let matched = false;
    for (const test of compiled)
      if (test(input, env)) {
        matched = true;
        break;
      }
    return negate ? !matched : matched;
  };
}

/** A range cell with constant number ends (`[18..65]`, `(0..100]`): a direct test, falling back to the general rule for other inputs. */
function constantNumberRange(e: Expr): UnaryTest | undefined {
  if (e.k !== 'range') return undefined;
  const [lo, hi] = [constantNumber(e.lo), constantNumber(e.hi)];
  if (lo === undefined || hi === undefined) return undefined;
  const range = new FeelRange(lo, hi, e.loClosed, e.hiClosed);
  const { loClosed, hiClosed } = e;
  const general = (input: FeelValue, env: Env) => {
    const inside = range.includes(input);
    if (inside === null && input !== null) note(env, `cannot compare ${describe(input)} with the range ${range.toJSON()}`);
    return inside === true;
  };
  if (lo instanceof Decimal || hi instanceof Decimal) return general;
  return (input, env) => {
    if (typeof input !== 'number') return general(input, env);
    return (lo === null || (loClosed ? input >= lo : input > lo)) && (hi === null || (hiClosed ? input <= hi : input < hi));
  };
}

function compileUnaryTest(test: Test): UnaryTest {
  if (test.k === 'cmp') {
    if (test.r.k === 'num') {
      const compareTo = numberComparison(test.op, test.r.v);
      return (input, env) => compareTo(input, env) === true;
    }
    const r = compileExpression(test.r);
    const op = test.op;
    return (input, env) => compareWith(op, input, r(env), env) === true;
  }
  const e = test.e;
  // Literals: a direct comparison with the input, no scope needed.
  if (e.k === 'num') {
    const equalTo = numberComparison('=', e.v);
    return (input, env) => equalTo(input, env) === true;
  }
  if (e.k === 'str' || e.k === 'bool') {
    const v = e.v;
    return (input, env) =>
      input === v || (input !== null && typeof input !== typeof v && note(env, `cannot compare ${describe(input)} with ${describe(v)}`) === true);
  }
  if (e.k === 'null') return (input) => input === null;
  const range = constantNumberRange(e);
  if (range) return range;
  const value = compileExpression(e);
  return (input, env) => {
    const result = value(childEnv(env, { '?': input }));
    if (typeof result === 'boolean') return result;
    if (Array.isArray(result)) return result.some((item) => equal(item, input, env.budget) === true);
    if (result instanceof FeelRange) return result.includes(input) === true;
    const eq = equal(result, input, env.budget);
    if (eq === null) note(env, `cannot compare ${describe(input)} with ${describe(result)}`);
    return eq === true;
  };
}
