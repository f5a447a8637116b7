/**
 * The names a FEEL expression reads from its scope: only the root of a path
 * counts (`quote.body.total` reads `quote`), and names the expression binds
 * itself (loop variables, context entries) do not; a filter's condition may
 * read the items' entries, so only its list is walked. Saving a rule checks
 * them against its declared inputs, saving a workflow against what is
 * definitely set where the expression runs.
 */
import type { Expr, Test } from './ast.ts';

/** A name FEEL reads as one name on its own, with no space or operator character: a path writes it after a dot, and the parser need not be told it. */
export const plainName = /^[A-Za-z_][A-Za-z0-9_]*$/;

const testExpr = (t: Test): Expr => (t.k === 'cmp' ? t.r : t.e);

/** The direct subexpressions of `e`, each with the names it adds to the scope of the ones after it. */
function children(e: Expr): { expr: Expr; binds?: string }[] {
  switch (e.k) {
    case 'path':
    case 'neg':
    case 'instanceOf':
      return [{ expr: e.of }];
    // A filter's condition may read the items' entries, so only the list is walked.
    case 'filter':
      return [{ expr: e.of }];
    case 'call':
      return e.args.map((expr) => ({ expr }));
    case 'callNamed':
      return e.args.map(([, expr]) => ({ expr }));
    case 'arith':
    case 'cmp':
      return [{ expr: e.l }, { expr: e.r }];
    case 'between':
      return [{ expr: e.of }, { expr: e.lo }, { expr: e.hi }];
    case 'in':
      return [{ expr: e.of }, ...e.tests.map((t) => ({ expr: testExpr(t) }))];
    case 'and':
    case 'or':
    case 'list':
      return e.items.map((expr) => ({ expr }));
    case 'if':
      return [{ expr: e.cond }, { expr: e.then }, { expr: e.else }];
    case 'context':
      return e.entries.map(([name, expr]) => ({ expr, binds: name }));
    case 'range':
      return [e.lo, e.hi].filter((x): x is Expr => x !== null).map((expr) => ({ expr }));
    case 'for':
    case 'some':
    case 'every':
      return [
        ...e.vars.flatMap((v) => [{ expr: v.of }, ...(v.to ? [{ expr: v.to }] : [])].map((c, i, all) => (i === all.length - 1 ? { ...c, binds: v.name } : c))),
        { expr: e.body },
      ];
    default:
      return [];
  }
}

type NameRead = Extract<Expr, { k: 'var' }>;

/**
 * The places `expr` reads a name from its scope, in the order read. With
 * `intoFilters`, a filter's condition is walked too, with `item` bound: the
 * items' own entries may hide any other name there, which only a run can
 * tell, so checks leave conditions out and a rename goes into them.
 */
export function freeReads(expr: Expr, options: { intoFilters?: boolean } = {}, bound: ReadonlySet<string> = new Set(), found: NameRead[] = []): NameRead[] {
  if (expr.k === 'var') {
    if (!bound.has(expr.name)) found.push(expr);
    return found;
  }
  const scope = new Set(bound);
  for (const child of children(expr)) {
    freeReads(child.expr, options, scope, found);
    if (child.binds !== undefined) scope.add(child.binds);
  }
  if (expr.k === 'filter' && options.intoFilters) freeReads(expr.by, options, new Set([...bound, 'item']), found);
  return found;
}

/** The names `expr` reads from its scope, in the order first read. */
export const freeNames = (expr: Expr, bound: ReadonlySet<string> = new Set()): Set<string> => new Set(freeReads(expr, {}, bound).map((read) => read.name));
