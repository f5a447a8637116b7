/**
 * Cells that read a name the table does not know: no input expression reads
 * it and no parameter declares it. Most often it is text written without
 * quotes (`domestic` for `"domestic"`), a cell that then never matches and
 * only a test trace would tell why (`no value named "domestic"`). So the save
 * warns, naming the cell and the string it probably meant. A name the caller
 * does pass (a threshold param no input reads) is still allowed: this is a
 * warning, not a refusal. With declared parameters an undeclared name is
 * refused before this runs (../prepare.ts).
 */
import type { Expr, UnaryTests } from '../feel/ast.ts';
import { freeNames } from '../feel/names.ts';
import type { PreparedDecisionTable } from '../prepared.ts';
import type { Finding } from './analysis.ts';

/** Cells named one by one; past them, one warning counts the rest, so a large table's save stays small. */
export const maxUnknownNameWarnings = 20;

const testedExprs = (cell: UnaryTests): Expr[] => (cell.k === 'tests' ? cell.tests.map((test) => (test.k === 'cmp' ? test.r : test.e)) : []);

/**
 * @example
 * unknownNameWarnings(prepared); // [{ path: 'definition.rules[0].when[0]', message: '"domestic" is not a name ... write the string "domestic"' }]
 */
export function unknownNameWarnings(table: PreparedDecisionTable): Finding[] {
  const known = new Set(table.inputs.flatMap((input) => [...freeNames(input.expr)]));
  for (const parameter of table.parameters ?? []) known.add(parameter.name);
  const readable = [...known].join(', ') || 'none';
  const cellTest = new Set(['?']);
  const found: Finding[] = [];
  let more = 0;
  table.rows.forEach((row, r) =>
    row.cells.forEach((cell, c) => {
      const exprs = testedExprs(cell);
      const unknown = [...new Set(exprs.flatMap((expr) => [...freeNames(expr, cellTest)]))].filter((name) => !known.has(name));
      if (unknown.length === 0) return;
      if (found.length === maxUnknownNameWarnings) return void more++;
      // A bare name in a string column is the unquoted text this check is for: name the string it meant.
      const text = table.inputs[c]?.type === 'string' ? exprs.find((e) => e.k === 'var' && unknown.includes(e.name)) : undefined;
      found.push({
        path: `definition.rules[${r}].when[${c}]`,
        message:
          `reads ${unknown.map((name) => `"${name}"`).join(' and ')}, which is not a name the table knows (its inputs read ${readable}): ` +
          `unless every call passes it, the cell never matches.${text?.k === 'var' ? ` For the text, write the string "${text.name}" in quotes.` : ''}`,
      });
    }),
  );
  if (more > 0) found.push({ path: 'definition.rules', message: `${more} more cells read names the table does not know` });
  return found;
}
