/**
 * Cells a save keeps but warns of, because as written they most likely never
 * match. Both are valid DMN, so a table brought in from another tool saves:
 *
 * - a cell that reads a name the table does not know (no input expression
 *   reads it, no parameter declares it): most often text written without
 *   quotes, `domestic` for `"domestic"`, which only a test trace would
 *   otherwise explain (`no value named "domestic"`). A name every call does
 *   pass (a threshold no input reads) works, hence a warning. With declared
 *   parameters an undeclared name is refused before this runs (../prepare.ts);
 * - a cell whose literal has another type than its column's (`5` in a boolean
 *   column): it compares as DMN says, which for these types is never equal.
 */
import type { Expr, UnaryTests } from '../feel/ast.ts';
import { freeNames } from '../feel/names.ts';
import { literalType, sameType } from '../prepare.ts';
import type { PreparedDecisionTable } from '../prepared.ts';
import type { Finding } from './analysis.ts';

/** Cells named one by one; past them, one warning counts the rest, so a large table's save stays small. */
export const maxCellWarnings = 20;

/** What each test of a cell compares the input with: a whole range, for the names it reads. */
const testedExprs = (cell: UnaryTests): Expr[] => (cell.k === 'tests' ? cell.tests.map((test) => (test.k === 'cmp' ? test.r : test.e)) : []);

/** The literal that decides a test's type: a range's by its first end. */
const typedExpr = (e: Expr): Expr => (e.k === 'range' ? (e.lo ?? e.hi ?? { k: 'null' }) : e);

/**
 * @example
 * cellWarnings(prepared); // [{ path: 'definition.rules[0].when[0]', message: 'reads "domestic", which is not a name the table knows ...' }]
 */
export function cellWarnings(table: PreparedDecisionTable): Finding[] {
  const known = new Set(table.inputs.flatMap((input) => [...freeNames(input.expr)]));
  for (const parameter of table.parameters ?? []) known.add(parameter.name);
  const readable = [...known].join(', ') || 'none';
  const cellTest = new Set(['?']);
  const found: Finding[] = [];
  let more = 0;
  const warn = (path: string, message: string) => (found.length < maxCellWarnings ? found.push({ path, message }) : more++);
  table.rows.forEach((row, r) =>
    row.cells.forEach((cell, c) => {
      const path = `definition.rules[${r}].when[${c}]`;
      const input = table.inputs[c]!;
      const exprs = testedExprs(cell);
      const unknown = [...new Set(exprs.flatMap((expr) => [...freeNames(expr, cellTest)]))].filter((name) => !known.has(name));
      if (unknown.length > 0) {
        // A bare name in a string column is the unquoted text this check is for: name the string it meant.
        const text = input.type === 'string' ? exprs.find((e) => e.k === 'var' && unknown.includes(e.name)) : undefined;
        warn(
          path,
          `reads ${unknown.map((name) => `"${name}"`).join(' and ')}, which is not a name the table knows (its inputs read ${readable}): ` +
            `unless every call passes it, the cell never matches.${text?.k === 'var' ? ` For the text, write the string "${text.name}" in quotes.` : ''}`,
        );
      }
      const mismatched = exprs.map((e) => literalType(typedExpr(e))).find((actual) => actual && actual !== 'null' && !sameType(input.type, actual));
      if (mismatched) warn(path, `tests a ${mismatched}, but the input "${input.label}" is declared ${input.type}: the cell never matches a ${input.type}`);
    }),
  );
  if (more > 0) found.push({ path: 'definition.rules', message: `and ${more} more cell warnings like these` });
  return found;
}
