/**
 * A decision table compiled into a plan: input expressions and every cell
 * compiled once, the column indexes (`./column-index.ts`) beside them, and
 * the hit policy applied to the rows that match. `evaluate` uses the indexes;
 * `trace` scans every row and says, for each, why it matched or which cell
 * failed with which value. `scan` is the plain reference the indexes are
 * tested against.
 */
import { add, isNum, type Num } from '../../decimal/decimal.ts';
import { EngineError, type FieldProblem } from '../errors.ts';
import type { Budget } from '../feel/budget.ts';
import { compileExpression, compileUnaryTests, rootEnv, type Clock, type Env, type Evaluator, type UnaryTest } from '../feel/compile.ts';
import { compare, equal, setEntry, toPlain, type FeelContext, type FeelValue } from '../feel/values.ts';
import type { Expr } from '../feel/ast.ts';
import type { PreparedDecisionTable, PreparedOutput } from '../prepared.ts';
import { convertValue, fitsAsIs } from '../value-types.ts';
import { indexColumn, type ColumnIndex } from './column-index.ts';

export interface EvaluateOptions {
  clock?: Clock | Date;
  /** The steps the evaluation may spend, shared with the rule set that runs the table; a budget of its own when absent. */
  budget?: Budget;
  /** Where the rows that gave the answer go (0-based): every matching row, or under `first` the first one only. */
  hits?: number[];
}

export interface RowTrace {
  /** 1-based, as people count rows. */
  row: number;
  id?: string;
  matched: boolean;
  /** For a row that did not match: the first cell that failed, the value it was given, and why when a type error made it fail. */
  failed?: { input: string; cell: string; value: unknown; reason?: string };
}

export interface DecisionTableTrace {
  inputs: { label: string; value: unknown }[];
  rows: RowTrace[];
}

export const compileOutput = (output: PreparedOutput): Evaluator => {
  if ('literal' in output) {
    const value = output.literal;
    return () => value;
  }
  return compileExpression(output.expr);
};

export interface CompiledDecisionTable {
  /** The table's answer for `params`, indexed: what the hit policy gives. */
  evaluate(params: FeelContext, options?: EvaluateOptions): FeelValue;
  /** The same answer from a scan of every row, without indexes: the reference for the parity test. */
  scan(params: FeelContext, options?: EvaluateOptions): FeelValue;
  /** The answer with a trace of every row. */
  trace(params: FeelContext, options?: EvaluateOptions): { output: FeelValue; trace: DecisionTableTrace };
}

/**
 * Compiles a prepared decision table.
 *
 * @example
 * const table = compileDecisionTable(prepareRule({ kind: 'decisionTable', definition }).prepared);
 * table.evaluate({ order: { total: 120 } }); // { discount: 0.1 }
 */
export function compileDecisionTable(table: PreparedDecisionTable): CompiledDecisionTable {
  const inputs = table.inputs.map((input) => ({ ...input, evaluate: compileExpression(input.expr), field: paramPath(input.expr) ?? input.label }));
  const rows = table.rows.map((row) => ({ cells: row.cells.map(compileUnaryTests), outputs: row.outputs.map(compileOutput) }));
  const columnIndexes = table.inputs.map((_, column) => indexColumn(table.rows.map((row) => row.cells[column]!)));
  const indexed = columnIndexes.flatMap((index, column) => (index ? [[column, index] as [number, ColumnIndex]] : []));
  const outputNames = table.outputs.map((o) => o.name);
  const defaults = table.outputs.some((o) => o.default !== undefined)
    ? table.outputs.map((o) => (o.default ? compileOutput(o.default) : () => null))
    : undefined;
  const single = table.hitPolicy === 'unique' || table.hitPolicy === 'any' || table.hitPolicy === 'priority' || table.hitPolicy === 'first';
  const rank = ranking(table);

  const rowName = (row: number) => `row ${row + 1}${table.rows[row]!.id ? ` (${table.rows[row]!.id})` : ''}`;

  /** The input values, converted to the columns' declared types; an evaluation spends a step per column at least. */
  function inputValues(env: Env): FeelValue[] {
    env.budget.spend(1 + inputs.length);
    const problems: FieldProblem[] = [];
    const values = inputs.map((input) => {
      const value = input.evaluate(env);
      // Most values already have their column's type: no conversion to make.
      if (fitsAsIs(value, input.type)) return value;
      const converted = convertValue(value, input.type);
      if (converted.ok) return converted.value;
      problems.push({ field: input.field, message: `(input "${input.label}") ${converted.problem}` });
      return null;
    });
    if (problems.length)
      throw new EngineError(
        'invalid_params',
        `The table's inputs do not fit their types: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.`,
        problems,
      );
    return values;
  }

  function rowMatches(cells: UnaryTest[], values: FeelValue[], env: Env, skip: number): boolean {
    for (let c = 0; c < cells.length; c++) if (c !== skip && !cells[c]!(values[c]!, env)) return false;
    return true;
  }

  function outputOf(row: number, env: Env): FeelContext {
    const out: FeelContext = {};
    const evaluators = rows[row]!.outputs;
    for (let o = 0; o < evaluators.length; o++) setEntry(out, outputNames[o]!, evaluators[o]!(env));
    return out;
  }

  /** Applies the hit policy to the matching rows, in row order. */
  function answer(matches: number[], env: Env): FeelValue {
    if (matches.length === 0) return noMatch(env);
    switch (table.hitPolicy) {
      case 'first':
        return outputOf(matches[0]!, env);
      case 'unique':
        if (matches.length > 1)
          throw new EngineError('evaluation_failed', `${matches.map(rowName).join(' and ')} all match, but the hit policy "unique" allows one row only.`);
        return outputOf(matches[0]!, env);
      case 'any': {
        const outputs = matches.map((row) => outputOf(row, env));
        const differing = outputs.findIndex((o) => equal(o, outputs[0]!, env.budget) !== true);
        if (differing > 0)
          throw new EngineError(
            'evaluation_failed',
            `${rowName(matches[0]!)} and ${rowName(matches[differing]!)} match with different outputs, but the hit policy "any" needs matching rows to agree.`,
          );
        return outputs[0]!;
      }
      case 'priority':
        return byPriority(matches.map((row) => outputOf(row, env)))[0]!;
      case 'ruleOrder':
        return matches.map((row) => outputOf(row, env));
      case 'outputOrder':
        return byPriority(matches.map((row) => outputOf(row, env)));
      case 'collect':
        return table.aggregation ? aggregate(matches.map((row) => outputOf(row, env)[outputNames[0]!]!)) : matches.map((row) => outputOf(row, env));
    }
  }

  function noMatch(env: Env): FeelValue {
    if (table.hitPolicy === 'collect' && table.aggregation) return { [outputNames[0]!]: table.aggregation === 'count' ? 0 : null };
    if (!single) return [];
    if (!defaults) return null;
    return Object.fromEntries(defaults.map((d, o) => [outputNames[o]!, d(env)]));
  }

  function byPriority(outputs: FeelContext[]): FeelContext[] {
    return outputs
      .map((output, order) => ({ output, order, key: rank(output) }))
      .sort((a, b) => compareRanks(a.key, b.key) || a.order - b.order)
      .map((r) => r.output);
  }

  function aggregate(values: FeelValue[]): FeelValue {
    const name = outputNames[0]!;
    const present = values.filter((v) => v !== null);
    switch (table.aggregation) {
      case 'count':
        return { [name]: values.length };
      case 'sum':
        if (!present.every(isNum)) throw new EngineError('evaluation_failed', `The output "${name}" must be a number to be summed.`);
        return { [name]: present.length ? sumOf(present) : null };
      default: {
        const direction = table.aggregation === 'max' ? 1 : -1;
        let best: FeelValue = null;
        for (const v of present) {
          if (best === null) best = v;
          else {
            const c = compare(v, best);
            if (c === null) throw new EngineError('evaluation_failed', `The values of output "${name}" cannot be compared for ${table.aggregation}.`);
            if (c * direction > 0) best = v;
          }
        }
        return { [name]: best };
      }
    }
  }

  function matchingRows(values: FeelValue[], env: Env, firstOnly: boolean): number[] {
    const matches: number[] = [];
    if (indexed.length === 0) {
      env.budget.spend(rows.length);
      for (let row = 0; row < rows.length; row++)
        if (rowMatches(rows[row]!.cells, values, env, -1)) {
          matches.push(row);
          if (firstOnly) break;
        }
      return matches;
    }
    // The smallest candidate list; its column holds for every row in it.
    let [column, candidates] = [indexed[0]![0], indexed[0]![1].lookup(values[indexed[0]![0]]!)];
    for (let i = 1; i < indexed.length; i++) {
      const [c, index] = indexed[i]!;
      const list = index.lookup(values[c]!);
      if (list.length < candidates.length) [column, candidates] = [c, list];
    }
    env.budget.spend(candidates.length);
    for (let i = 0; i < candidates.length; i++) {
      const row = candidates[i]!;
      if (rowMatches(rows[row]!.cells, values, env, column)) {
        matches.push(row);
        if (firstOnly) break;
      }
    }
    return matches;
  }

  const run = (params: FeelContext, options: EvaluateOptions, useIndex: boolean): FeelValue => {
    const env = rootEnv(params, { clock: options.clock, budget: options.budget });
    const values = inputValues(env);
    const firstOnly = table.hitPolicy === 'first';
    let matches: number[];
    if (useIndex) matches = matchingRows(values, env, firstOnly);
    else {
      env.budget.spend(rows.length);
      matches = [];
      for (let row = 0; row < rows.length; row++) if (rowMatches(rows[row]!.cells, values, env, -1)) matches.push(row);
      if (firstOnly) matches = matches.slice(0, 1);
    }
    options.hits?.push(...matches);
    return answer(matches, env);
  };

  return {
    evaluate: (params, options = {}) => run(params, options, true),
    scan: (params, options = {}) => run(params, options, false),
    trace(params, options = {}) {
      const notes: string[] = [];
      const env = rootEnv(params, { clock: options.clock, budget: options.budget, notes });
      const values = inputValues(env);
      env.budget.spend(rows.length);
      const traced: RowTrace[] = [];
      const matches: number[] = [];
      rows.forEach((row, r) => {
        const id = table.rows[r]!.id;
        const failing = row.cells.findIndex((cell, c) => {
          notes.length = 0;
          return !cell(values[c]!, env);
        });
        if (failing < 0) {
          matches.push(r);
          traced.push({ row: r + 1, ...(id && { id }), matched: true });
          return;
        }
        const reason = notes.length ? notes.join('; ') : undefined;
        traced.push({
          row: r + 1,
          ...(id && { id }),
          matched: false,
          failed: {
            input: table.inputs[failing]!.label,
            cell: table.rows[r]!.cellTexts[failing]!,
            value: toPlain(values[failing]!),
            ...(reason && { reason }),
          },
        });
      });
      notes.length = 0;
      const answering = table.hitPolicy === 'first' ? matches.slice(0, 1) : matches;
      options.hits?.push(...answering);
      const output = answer(answering, env);
      return { output, trace: { inputs: table.inputs.map((input, c) => ({ label: input.label, value: toPlain(values[c]!) })), rows: traced } };
    },
  };
}

/** The params path a column reads (`params.order.weightKg`), for messages; undefined for a computed column. */
function paramPath(e: Expr): string | undefined {
  if (e.k === 'var') return `params.${e.name}`;
  if (e.k === 'path') {
    const of = paramPath(e.of);
    return of && `${of}.${e.name}`;
  }
  return undefined;
}

/** Ranks an output by the outputs' allowed values, first output first: lower ranks first, a value not listed last. */
/** The exact sum of an output's values (the `collect` hit policy's `sum`); null past decimal128's range, as FEEL's `sum` is. */
function sumOf(values: Num[]): Num | null {
  let total: Num | null = 0;
  for (const value of values) if ((total = add(total, value)) === null) return null;
  return total;
}

function ranking(table: PreparedDecisionTable) {
  const ranked = table.outputs.flatMap((o) => (o.allowedValues ? [{ name: o.name, values: o.allowedValues }] : []));
  return (output: FeelContext): number[] =>
    ranked.map(({ name, values }) => {
      const at = values.findIndex((v) => equal(v, output[name] ?? null) === true);
      return at < 0 ? values.length : at;
    });
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
