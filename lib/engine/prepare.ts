/**
 * Save-time work on a rule definition: every FEEL text parsed, every problem
 * collected with its path (a syntax error with its position, an unknown
 * input, a type mismatch, a hit policy whose outputs do not fit), and the
 * prepared form that `./compile.ts` runs. This is the module that needs the
 * parser; nothing that only evaluates imports it.
 */
import type { DecisionTableDefinition, DeclaredInput, OutputEntry, RuleDefinition, RuleSetDefinition, SimpleRuleDefinition, ValueType } from './definitions.ts';
import { briefList } from './brief-list.ts';
import { isReference } from './definitions.ts';
import type { Expr, UnaryTests } from './feel/ast.ts';
import { freeNames } from './feel/names.ts';
import { FeelSyntaxError, parseBudget, parseExpression, parseUnaryTests } from './feel/parse.ts';
import { compilePattern, PatternProblem } from './feel/regex.ts';
import { isNum, numbersEqual } from '../decimal/decimal.ts';
import type { PreparedDecisionTable, PreparedOutput, PreparedRule, PreparedRuleSet, PreparedSimpleRule } from './prepared.ts';

export interface Problem {
  /** Where, from the definition: `definition.rules[2].when[0]`. */
  path: string;
  message: string;
}

export interface Prepared {
  prepared: PreparedRule;
  problems: Problem[];
}

class Collector {
  readonly problems: Problem[] = [];
  /** Shared by every text of the definition (see parseBudget). */
  private readonly parsing = parseBudget();
  constructor(
    readonly names: readonly string[],
    readonly declared: ReadonlySet<string> | undefined,
  ) {}

  add(path: string, message: string) {
    this.problems.push({ path, message });
  }

  /** Parses FEEL text, or records why not and gives a stand-in. */
  expression(path: string, text: string, bound: readonly string[] = []): Expr {
    try {
      const expr = parseExpression(text, [...this.names, ...bound], this.parsing);
      this.checkNames(path, expr, bound);
      for (const problem of patternProblems(expr)) this.add(path, problem);
      return expr;
    } catch (error) {
      this.syntax(path, error);
      return { k: 'null' };
    }
  }

  unaryTests(path: string, text: string): UnaryTests {
    try {
      const tests = parseUnaryTests(text, this.names, this.parsing);
      if (tests.k === 'tests') for (const test of tests.tests) this.checkNames(path, test.k === 'cmp' ? test.r : test.e, ['?']);
      for (const problem of patternProblems(tests)) this.add(path, problem);
      return tests;
    } catch (error) {
      this.syntax(path, error);
      return { k: 'any' };
    }
  }

  private syntax(path: string, error: unknown) {
    if (!(error instanceof FeelSyntaxError)) throw error;
    for (const p of error.problems) this.add(path, `${p.message} at line ${p.line}, column ${p.column}`);
  }

  /** With declared inputs, every free name must be one of them. A cell that is a bare unknown name is most likely unquoted text: say so. */
  private checkNames(path: string, expr: Expr, bound: readonly string[]) {
    if (!this.declared) return;
    for (const name of freeNames(expr, new Set(bound)))
      if (!this.declared.has(name)) {
        const text = bound.includes('?') && expr.k === 'var' ? `; for the text, write the string "${name}" in quotes` : '';
        this.add(path, `"${name}" is not a declared input (declared: ${briefList([...this.declared]) || 'none'})${text}`);
      }
  }
}

/**
 * Why the patterns written as literals in `node` (`matches(code, "^[A-Z]{2}$")`) cannot run: found when the rule is
 * saved, rather than as a null on every call. A pattern or flags computed at run time are checked when they run.
 */
function patternProblems(node: unknown, found: string[] = []): string[] {
  if (node === null || typeof node !== 'object') return found;
  const e = node as Expr;
  if ((e.k === 'call' || e.k === 'callNamed') && (e.fn === 'matches' || e.fn === 'replace' || e.fn === 'split')) {
    const flagsAt = e.fn === 'matches' ? 2 : 3;
    const patternName = e.fn === 'split' ? 'delimiter' : 'pattern';
    const [pattern, flags] =
      e.k === 'call'
        ? [e.args[1], e.fn === 'split' ? undefined : e.args[flagsAt]]
        : [e.args.find(([name]) => name === patternName)?.[1], e.args.find(([name]) => name === 'flags')?.[1]];
    if (pattern?.k === 'str' && (flags === undefined || flags.k === 'str'))
      try {
        compilePattern(pattern.v, flags?.v ?? '');
      } catch (error) {
        if (!(error instanceof PatternProblem)) throw error;
        found.push(`${e.fn}: ${error.message}`);
      }
  }
  for (const value of Object.values(node)) patternProblems(value, found);
  return found;
}

/** The type a literal expression certainly has, for mismatch checks; undefined when it is not a literal. */
export function literalType(e: Expr): ValueType | 'null' | undefined {
  switch (e.k) {
    case 'num':
      return 'number';
    case 'str':
      return 'string';
    case 'bool':
      return 'boolean';
    case 'null':
      return 'null';
    case 'neg':
      return e.of.k === 'num' ? 'number' : undefined;
    case 'call':
      if (e.args.length === 1 && e.args[0]!.k === 'str')
        return ({ date: 'date', 'date and time': 'datetime', time: 'time', duration: 'duration' } as Record<string, ValueType>)[e.fn];
      return undefined;
    default:
      return undefined;
  }
}

export const sameType = (declared: ValueType, actual: ValueType) =>
  declared === actual || (declared === 'object' && actual === 'context') || (declared === 'array' && actual === 'list');

function output(c: Collector, path: string, entry: OutputEntry, type?: ValueType): PreparedOutput {
  if (typeof entry !== 'string') {
    const actual = entry === null ? 'null' : typeof entry === 'boolean' ? 'boolean' : 'number';
    if (type && actual !== 'null' && !sameType(type, actual)) c.add(path, `is a ${actual}, but the output is declared ${type}`);
    return { literal: entry };
  }
  const expr = c.expression(path, entry);
  const actual = literalType(expr);
  if (type && actual && actual !== 'null' && !sameType(type, actual)) c.add(path, `is a ${actual}, but the output is declared ${type}`);
  return { expr, text: entry };
}

/** Whether two literals are one value: numbers by value (one may be a double, the other a Decimal), others as they are. */
const sameLiteral = (a: OutputEntry, b: OutputEntry) => (isNum(a) && isNum(b) ? numbersEqual(a, b) : a === b);

/** The value a literal output entry holds (for allowed values), or undefined when it is computed. */
const literalValue = (o: PreparedOutput) =>
  'literal' in o ? o.literal : o.expr.k === 'str' || o.expr.k === 'num' || o.expr.k === 'bool' ? o.expr.v : o.expr.k === 'null' ? null : undefined;

function prepareDecisionTable(c: Collector, d: DecisionTableDefinition): PreparedDecisionTable {
  const hitPolicy = d.hitPolicy ?? 'first';
  if (d.aggregation && hitPolicy !== 'collect') c.add('definition.aggregation', `applies only to the hit policy "collect", not "${hitPolicy}"`);
  if (d.aggregation && d.outputs.length !== 1) c.add('definition.aggregation', `needs exactly one output to aggregate; the table has ${d.outputs.length}`);
  if (d.aggregation === 'sum' && d.outputs.length === 1 && !sameType(d.outputs[0]!.type, 'number'))
    c.add('definition.outputs[0].type', `must be number to be summed, not ${d.outputs[0]!.type}`);
  if ((hitPolicy === 'priority' || hitPolicy === 'outputOrder') && !d.outputs.some((o) => o.allowedValues?.length))
    c.add(
      'definition.outputs',
      `the hit policy "${hitPolicy}" ranks rows by the outputs' allowedValues: give at least one output its allowed values, highest priority first`,
    );
  const names = new Set<string>();
  d.outputs.forEach((o, i) => {
    if (names.has(o.name)) c.add(`definition.outputs[${i}].name`, `"${o.name}" names another output too`);
    names.add(o.name);
  });

  const inputs = d.inputs.map((input, i) => ({
    label: input.label ?? input.id,
    expr: c.expression(`definition.inputs[${i}].expression`, input.expression),
    text: input.expression,
    type: input.type,
  }));
  const outputs = d.outputs.map((o, i) => ({
    name: o.name,
    type: o.type,
    ...(o.allowedValues && { allowedValues: o.allowedValues }),
    ...(o.default !== undefined && { default: output(c, `definition.outputs[${i}].default`, o.default, o.type) }),
  }));
  const rows = d.rules.map((row, r) => {
    const cells = row.when.map((text, i) => {
      const path = `definition.rules[${r}].when[${i}]`;
      // A literal of another type than the column's is valid DMN: saved with a warning (./decision-table/cell-warnings.ts).
      return c.unaryTests(path, text);
    });
    const rowOutputs = row.then.map((entry, o) => {
      const path = `definition.rules[${r}].then[${o}]`;
      const prepared = output(c, path, entry, d.outputs[o]?.type);
      const allowed = d.outputs[o]?.allowedValues;
      const value = literalValue(prepared);
      if (allowed && value !== undefined && value !== null && !allowed.some((v) => sameLiteral(v, value)))
        c.add(path, `${JSON.stringify(value)} is not one of the output's allowed values (${briefList(allowed.map((v) => JSON.stringify(v)))})`);
      return prepared;
    });
    return { ...(row.id && { id: row.id }), cells, cellTexts: row.when, outputs: rowOutputs };
  });
  return {
    kind: 'decisionTable',
    hitPolicy,
    ...(d.aggregation && { aggregation: d.aggregation }),
    ...(d.parameters && { parameters: d.parameters }),
    inputs,
    outputs,
    rows,
  };
}

const outputs = (c: Collector, path: string, entries: Record<string, OutputEntry>): [string, PreparedOutput][] =>
  Object.entries(entries).map(([name, entry]) => [name, output(c, `${path}.${name}`, entry)]);

function prepareSimpleRule(c: Collector, d: SimpleRuleDefinition): PreparedSimpleRule {
  return {
    kind: 'simpleRule',
    ...(d.parameters && { parameters: d.parameters }),
    when: c.expression('definition.when', d.when),
    whenText: d.when,
    then: outputs(c, 'definition.then', d.then),
    ...(d.otherwise && { otherwise: outputs(c, 'definition.otherwise', d.otherwise) }),
  };
}

function prepareRuleSet(c: Collector, d: RuleSetDefinition): PreparedRuleSet {
  const ids = new Set<string>();
  // Entries run in list order; a priority, where given, runs higher ones first (ties keep list order).
  const ordered = d.rules
    .map((entry, i) => ({ entry, i }))
    .sort((a, b) => ((b.entry as { priority?: number }).priority ?? 0) - ((a.entry as { priority?: number }).priority ?? 0) || a.i - b.i);
  const entries = ordered.map(({ entry, i }) => {
    const path = `definition.rules[${i}]`;
    if (ids.has(entry.id)) c.add(`${path}.id`, `"${entry.id}" names another entry too`);
    ids.add(entry.id);
    if (isReference(entry)) return { id: entry.id, ruleId: entry.ruleId, ...(entry.version && { version: entry.version }) };
    return {
      id: entry.id,
      when: c.expression(`${path}.when`, entry.when),
      whenText: entry.when,
      then: entry.then.map((t, j) => [t.set, output(c, `${path}.then[${j}].value`, t.value)] as [string, PreparedOutput]),
    };
  });
  return { kind: 'ruleSet', strategy: d.strategy ?? 'allMatch', ...(d.parameters && { parameters: d.parameters }), entries };
}

/** Declared inputs, checked: unique names. */
function declaredNames(c: Collector, parameters: DeclaredInput[] | undefined): Set<string> | undefined {
  if (!parameters) return undefined;
  const names = new Set<string>();
  parameters.forEach((p, i) => {
    if (names.has(p.name)) c.add(`definition.parameters[${i}].name`, `"${p.name}" is declared twice`);
    names.add(p.name);
  });
  return names;
}

/**
 * Parses and checks a rule definition.
 *
 * @returns the prepared rule and every problem found (none: it can be saved and run)
 * @example
 * const { prepared, problems } = prepareRule({ kind: 'simpleRule', definition: { when: 'order.total >= 50', then: { shippingFee: 0 } } });
 */
export function prepareRule(rule: RuleDefinition): Prepared {
  const parameters = rule.definition.parameters;
  const names = parameters?.map((p) => p.name) ?? [];
  const bootstrap = new Collector(names, undefined);
  const declared = declaredNames(bootstrap, parameters);
  // Rule-set entries see earlier entries' outputs, so their names are in scope too.
  const outputNames = rule.kind === 'ruleSet' ? rule.definition.rules.flatMap((e) => (isReference(e) ? [] : e.then.map((t) => t.set.split('.')[0]!))) : [];
  const c = new Collector([...names, ...outputNames], declared && new Set([...declared, ...outputNames]));
  c.problems.push(...bootstrap.problems);
  const prepared =
    rule.kind === 'decisionTable'
      ? prepareDecisionTable(c, rule.definition)
      : rule.kind === 'simpleRule'
        ? prepareSimpleRule(c, rule.definition)
        : prepareRuleSet(c, rule.definition);
  return { prepared, problems: c.problems };
}
