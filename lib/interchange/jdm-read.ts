/**
 * Reading GoRules JDM (`./jdm.ts`) into rule records: a decision-table node
 * is a decision table, an expression node a simple rule that always answers,
 * a simple rule's switch the simple rule; zen text is read as FEEL by
 * `./zen-to-feel.ts`, and what a node's `rulesService` carries
 * (`./jdm-model.ts`) is taken while the zen text beside it is unchanged. A
 * record's id is the one carried, else the file's name for a file of one rule
 * (`rules/discount.json` is `discount`), else the file's name and the node's
 * (`pricing.tier`).
 *
 * Reading a graph of several nodes: a chain of decision tables and expression
 * nodes from the input to the output becomes one record per node and a rule
 * set that refers to them in order. Anything else (a switch other than a
 * simple rule's, JavaScript function nodes, decision nodes that run other
 * files, custom nodes, a graph that branches or loops) is reported: each table
 * and expression node is still read on its own, the rest listed as not
 * carried with the reason. A chain is a rule set rather than a workflow:
 * its rules run in order over the params and the outputs so far, as a chain's
 * nodes do, with nothing to wire; branches would need a workflow's steps and
 * are listed instead. Where zen and this service answer differently
 * (an empty output cell sets nothing in zen and null here; a chain passes only
 * the last output on in zen) the difference is listed too.
 */
import { parseJson } from '../decimal/json.ts';
import type { OutputEntry, ValueType } from '../engine/definitions.ts';
import { FeelSyntaxError, parseExpression, parseUnaryTests } from '../engine/feel/parse.ts';
import type { Expr } from '../engine/feel/ast.ts';
import { entityIdPattern } from '../vocabulary/kinds.ts';
import { canonicalOutputEntry } from '../entities/output-entry.ts';
import { importBounds, isJdmDocument, ImportBoundExceeded, type FileReading, type Finding, refuseOversizeFile } from './format-contract.ts';
import { dateTypes, editorTypes, unwrapDate, type Carried, type DecisionTable } from './jdm-model.ts';
import type { Conversion } from './zen-conversion.ts';
import { zenCellToFeel, zenExpressionToFeel } from './zen-to-feel.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

// ---------------------------------------------------------------------------
// Types the cells tell

/** jdm-editor's output types (`outputFieldType`): its `string-array` is a list. */
const editorOutputTypes: Record<string, ValueType> = { string: 'string', number: 'number', boolean: 'boolean', date: 'date', 'string-array': 'list' };

/** A column's type from the literals of its FEEL cells, or undefined when they tell none. */
function typeOfLiterals(exprs: Expr[]): ValueType | undefined {
  for (const e of exprs) {
    const literal = e.k === 'neg' ? e.of : e;
    if (literal.k === 'num') return 'number';
    if (literal.k === 'str') return 'string';
    if (literal.k === 'bool') return 'boolean';
    if (literal.k === 'list') return 'list';
    if (literal.k === 'context') return 'context';
    if (literal.k === 'call' && literal.fn === 'date and time') return 'datetime';
    if (literal.k === 'call' && literal.fn === 'date') return 'date';
    if (literal.k === 'range') return typeOfLiterals([literal.lo, literal.hi].filter((end): end is Expr => end !== null));
  }
  return undefined;
}

function inputTypeOfCells(cells: string[]): ValueType | undefined {
  const exprs = cells.flatMap((cell) => {
    try {
      const tests = parseUnaryTests(cell);
      return tests.k === 'any' ? [] : tests.tests.map((test) => (test.k === 'cmp' ? test.r : test.e.k === 'cmp' ? test.e.r : test.e));
    } catch (error) {
      if (error instanceof FeelSyntaxError) return [];
      throw error;
    }
  });
  return typeOfLiterals(exprs);
}

function outputTypeOfEntries(entries: OutputEntry[]): ValueType | undefined {
  const exprs = entries.flatMap((entry): Expr[] => {
    if (typeof entry === 'boolean') return [{ k: 'bool', v: entry }];
    if (entry === null) return [];
    if (typeof entry !== 'string') return [{ k: 'num', v: entry }];
    try {
      return [parseExpression(entry)];
    } catch (error) {
      if (error instanceof FeelSyntaxError) return [];
      throw error;
    }
  });
  return typeOfLiterals(exprs);
}

// ---------------------------------------------------------------------------
// Reading the nodes

/** What reading found, shared by every node of a file. */
class Findings {
  readonly problems: Finding[] = [];
  readonly notCarried: Finding[] = [];
  problem(element: string, message: string) {
    this.problems.push({ element, message });
  }
  left(element: string, message: string) {
    this.notCarried.push({ element, message });
  }
  /** A conversion's text, with its notes listed; undefined (and a problem) when there is none. */
  converted(element: string, conversion: Conversion, what: string): string | undefined {
    if (!conversion.ok) {
      this.problem(element, `${what} has no FEEL equivalent: ${conversion.reason}`);
      return undefined;
    }
    for (const note of conversion.notes) this.left(element, note);
    return conversion.text;
  }
}

/** The carried FEEL of a cell, when the zen text beside it is unchanged. */
function carriedCell(
  carried: Carried | undefined,
  rule: number | undefined,
  column: string,
  zen: string,
  findings: Findings,
  element: string,
): OutputEntry | undefined {
  const cell = carried?.cells?.find((c) => c.rule === rule && c.column === column);
  if (!cell) return undefined;
  if (cell.zen === zen) return cell.feel;
  findings.left(element, `edited since it was exported: its zen text was read, and the FEEL text kept beside it (${JSON.stringify(cell.feel)}) was not used`);
  return undefined;
}

const validId = (id: unknown): id is string => typeof id === 'string' && entityIdPattern.test(id);

/** The zen text of a rule's cell: zen reads a missing cell as empty, and trims each. */
const cellText = (rule: Json, column: string) => (typeof rule[column] === 'string' ? (rule[column] as string).trim() : '');

/** The parts of `rulesService` reading relies on the shape of; the others are record fields, which the entity schema checks. */
const carriedShapes: Record<string, (value: unknown) => boolean> = {
  inputs: (value) => isObject(value) && Object.values(value).every(isObject),
  outputs: (value) => isObject(value) && Object.values(value).every(isObject),
  cells: (value) => Array.isArray(value) && value.every((cell) => isObject(cell) && typeof cell.zen === 'string' && typeof cell.column === 'string'),
  when: (value) => isObject(value) && typeof value.zen === 'string' && typeof value.feel === 'string',
};

function readCarried(content: Json, element: string, findings: Findings): Carried | undefined {
  const carried = content.rulesService;
  if (carried === undefined) return undefined;
  const malformed = isObject(carried) ? Object.keys(carriedShapes).find((key) => carried[key] !== undefined && !carriedShapes[key]!(carried[key])) : '';
  if (malformed === undefined) return carried as Carried;
  findings.problem(`${element}.rulesService${malformed ? `.${malformed}` : ''}`, 'is not as this service writes it');
  return undefined;
}

/** The record fields carried for any node. */
function recordFields(carried: Carried | undefined) {
  return {
    ...(carried?.description !== undefined && { description: carried.description }),
    ...(carried?.tags !== undefined && { tags: carried.tags }),
  };
}
function definitionExtras(carried: Carried | undefined) {
  return {
    ...(carried?.parameters !== undefined && { parameters: carried.parameters }),
    ...(carried?.tests !== undefined && { tests: carried.tests }),
    ...(carried?.settings !== undefined && { settings: carried.settings }),
  };
}

function checkTableBounds(content: Json, element: string) {
  const inputs = Array.isArray(content.inputs) ? content.inputs.length : 0;
  const outputs = Array.isArray(content.outputs) ? content.outputs.length : 0;
  if (inputs + outputs > importBounds.maxColumns)
    throw new ImportBoundExceeded('maxColumns', `${element} has ${inputs + outputs} columns; a table may have at most ${importBounds.maxColumns}`);
  const rows = Array.isArray(content.rules) ? content.rules.length : 0;
  if (rows > importBounds.maxRows) throw new ImportBoundExceeded('maxRows', `${element} has ${rows} rules; a table may have at most ${importBounds.maxRows}`);
}

/** Transform attributes change what a node reads and answers: not carried. */
function reportTransforms(content: Json, element: string, findings: Findings) {
  if (text(content.inputField)?.trim())
    findings.left(`${element}.inputField`, `zen runs the node on the input's "${content.inputField}" only; here it reads the whole input`);
  if (text(content.outputPath)?.trim())
    findings.left(`${element}.outputPath`, `zen puts the node's answer under "${content.outputPath}"; here it is the answer`);
  if (content.executionMode === 'loop') findings.left(`${element}.executionMode`, 'zen runs the node once per item of its input; here it runs once');
}

/** A decision-table node as a decision table definition. */
function readTable(content: Json, element: string, carried: Carried | undefined, findings: Findings): DecisionTable {
  checkTableBounds(content, element);
  reportTransforms(content, element, findings);
  const columns = (key: 'inputs' | 'outputs') => {
    const list = content[key];
    if (!Array.isArray(list) || (key === 'outputs' && !list.length) || !list.every(isObject)) {
      findings.problem(`${element}.${key}`, `must be a list of columns${key === 'outputs' ? ', at least one' : ''}`);
      return [];
    }
    return list;
  };
  const zenInputs = columns('inputs');
  const zenOutputs = columns('outputs');
  const rules = Array.isArray(content.rules) ? content.rules : [];
  if (!Array.isArray(content.rules)) findings.problem(`${element}.rules`, 'must be a list of rules');
  rules.forEach((rule, r) => {
    if (!isObject(rule)) findings.problem(`${element}.rules[${r}]`, 'must be an object of cells by column id');
    else
      for (const [key, value] of Object.entries(rule))
        if (typeof value !== 'string' && value !== null) findings.problem(`${element}.rules[${r}].${key}`, 'zen reads only text in a rule');
  });
  const ruleObjects = rules.filter(isObject);

  const columnId = (column: Json, i: number, side: string) => {
    if (validId(column.id)) return column.id;
    const id = `${side}${i + 1}`;
    findings.left(`${element}.${side}s[${i}].id`, `${JSON.stringify(column.id)} is not an id this service keeps: the column is "${id}" here`);
    return id;
  };

  const inputs = zenInputs.map((column, i) => {
    const path = `${element}.inputs[${i}]`;
    const zenId = text(column.id) ?? '';
    const kept = carried?.inputs?.[zenId];
    const field = text(column.field)?.trim() ?? '';
    const editorType = isObject(column.fieldType) ? text(column.fieldType.type) : undefined;
    let type: ValueType | undefined = kept?.type ?? (editorType && editorTypes.has(editorType as ValueType) ? (editorType as ValueType) : undefined);
    const cells = ruleObjects.map((rule, r) => readInputCell(rule, r, zenId, field, path, element, carried, findings, type));
    let expression: string | undefined;
    if (!field) {
      // zen runs each cell of a column with no field as a condition: here, each is compared with `true`.
      expression = 'true';
      type = 'boolean';
    } else {
      const inner = unwrapDate(field);
      const dated = inner !== undefined && (type === undefined || dateTypes.has(type));
      if (dated && type === undefined) type = 'date';
      expression = kept?.expression ?? findings.converted(`${path}.field`, zenExpressionToFeel(dated ? inner : field), 'the field');
    }
    if (type === undefined) {
      type = inputTypeOfCells(cells.filter((cell): cell is string => cell !== undefined));
      if (type === undefined) {
        type = 'string';
        findings.left(`${path}`, 'zen columns have no type and its cells tell none: it is a string column here');
      }
    }
    if (column.defaultValue !== undefined && column.defaultValue !== null && column.defaultValue !== '')
      findings.left(`${path}.defaultValue`, "jdm-editor's value for new rows is not kept");
    const label = text(column.name);
    return { column: { id: columnId(column, i, 'input'), ...(label !== undefined && { label }), expression: expression ?? 'null', type }, cells };
  });

  const outputs = zenOutputs.map((column, i) => {
    const path = `${element}.outputs[${i}]`;
    const zenId = text(column.id) ?? '';
    const kept = carried?.outputs?.[zenId];
    // zen trims the field when it writes the answer; the name is kept as written.
    const name = text(column.field) ?? '';
    if (!name.trim()) findings.problem(`${path}.field`, 'an output needs a field to be named');
    if (name.endsWith('[]')) findings.problem(`${path}.field`, `zen collects "${name}" into a list across the matching rules; a table here has no such output`);
    else if (name.includes('.'))
      findings.left(`${path}.field`, `zen puts the value at the path ${name}; here the output is named "${name}" at the top of the answer`);
    const entries = ruleObjects.map((rule, r) => readOutputCell(rule, r, zenId, path, element, carried, findings));
    const editorType = isObject(column.outputFieldType) ? editorOutputTypes[text(column.outputFieldType.type) ?? ''] : undefined;
    let type = kept?.type ?? editorType ?? outputTypeOfEntries(entries);
    if (type === undefined) {
      type = 'string';
      findings.left(path, 'zen outputs have no type and its cells tell none: it is a string output here');
    }
    if (column.defaultValue !== undefined && column.defaultValue !== null && column.defaultValue !== '')
      findings.left(`${path}.defaultValue`, "jdm-editor's value for new rows is not kept");
    const zenName = text(column.name);
    const label = kept && 'label' in kept ? kept.label : zenName === name ? undefined : zenName;
    return {
      column: {
        id: kept?.id ?? columnId(column, i, 'output'),
        ...(label !== undefined && { label }),
        name,
        type,
        ...(kept?.allowedValues !== undefined && { allowedValues: kept.allowedValues }),
        ...(kept?.default !== undefined && { default: kept.default }),
      },
      entries,
    };
  });

  if (ruleObjects.some((rule) => zenOutputs.some((column) => cellText(rule, text(column.id) ?? '') === '')))
    findings.left(`${element}.rules`, 'an empty output cell sets nothing in zen; here the output is null');

  const hitPolicy = text(content.hitPolicy) ?? 'first';
  if (hitPolicy !== 'first' && hitPolicy !== 'collect')
    findings.problem(`${element}.hitPolicy`, `zen's hit policies are first and collect, not ${JSON.stringify(content.hitPolicy)}`);
  const ruleIds = ruleObjects.map((rule, r) => {
    if (rule._id === undefined || validId(rule._id)) return rule._id as string | undefined;
    findings.left(`${element}.rules[${r}]._id`, `${JSON.stringify(rule._id)} is not an id this service keeps: the rule has none here`);
    return undefined;
  });
  return {
    hitPolicy: carried?.hitPolicy ?? (hitPolicy === 'collect' ? 'collect' : 'first'),
    ...(carried?.aggregation !== undefined && { aggregation: carried.aggregation }),
    inputs: inputs.map((input) => input.column),
    outputs: outputs.map((output) => output.column),
    rules: ruleObjects.map((rule, r) => ({
      ...(ruleIds[r] !== undefined && { id: ruleIds[r] }),
      ...(typeof rule._description === 'string' && { description: rule._description }),
      when: inputs.map((input) => input.cells[r] ?? '-'),
      then: outputs.map((output) => output.entries[r] ?? null),
    })),
    ...definitionExtras(carried),
  };
}

function readInputCell(
  rule: Json,
  r: number,
  column: string,
  field: string,
  path: string,
  element: string,
  carried: Carried | undefined,
  findings: Findings,
  type: ValueType | undefined,
) {
  const zen = cellText(rule, column);
  const at = `${element}.rules[${r}].${column}`;
  const kept = carriedCell(carried, r, column, zen, findings, at);
  if (typeof kept === 'string') return kept;
  if (!field) return zen ? findings.converted(at, zenExpressionToFeel(zen), `the condition in ${path}`) : '-';
  return findings.converted(at, zenCellToFeel(zen, type), 'the cell');
}

function readOutputCell(rule: Json, r: number, column: string, path: string, element: string, carried: Carried | undefined, findings: Findings): OutputEntry {
  const zen = cellText(rule, column);
  const at = `${element}.rules[${r}].${column}`;
  const kept = carriedCell(carried, r, column, zen, findings, at);
  if (kept !== undefined) return kept;
  if (!zen) return null;
  const feel = findings.converted(at, zenExpressionToFeel(zen), `the output of ${path}`);
  return feel === undefined ? null : canonicalOutputEntry(feel);
}

/** An expression node's expressions as a simple rule's outputs. */
function readExpressions(content: Json, element: string, carried: Carried | undefined, findings: Findings): Record<string, OutputEntry> {
  reportTransforms(content, element, findings);
  const expressions = Array.isArray(content.expressions) ? content.expressions : [];
  if (!Array.isArray(content.expressions)) findings.problem(`${element}.expressions`, 'must be a list of expressions');
  if (expressions.length > importBounds.maxColumns)
    throw new ImportBoundExceeded('maxColumns', `${element} has ${expressions.length} expressions; at most ${importBounds.maxColumns} are allowed`);
  const then: Record<string, OutputEntry> = {};
  expressions.forEach((expression, i) => {
    const at = `${element}.expressions[${i}]`;
    const key = isObject(expression) ? text(expression.key) : undefined;
    const zen = isObject(expression) ? text(expression.value)?.trim() : undefined;
    if (!key || !zen) {
      findings.left(at, 'zen skips an expression without a key or a value');
      return;
    }
    if (key in then) findings.left(at, `a second expression for "${key}": zen keeps the last, and so does this rule`);
    if (key.includes('.')) findings.left(at, `zen puts the value at the path ${key}; here the output is named "${key}" at the top of the answer`);
    const kept = carriedCell(carried, undefined, key, zen, findings, at);
    if (kept !== undefined) {
      then[key] = kept;
      return;
    }
    const feel = findings.converted(at, zenExpressionToFeel(zen), 'the expression');
    then[key] = feel === undefined ? null : canonicalOutputEntry(feel);
  });
  return then;
}

interface GraphNode {
  index: number;
  id: string;
  type: string;
  name: string;
  content: Json;
  element: string;
}

/** The file's name without folders or extension, when it makes an id. */
function baseIdOf(origin: string): string | undefined {
  const stem = origin
    .split(/[\\/]/)
    .pop()!
    .replace(/\.json$/i, '');
  return validId(stem) ? stem : undefined;
}

const nodeKinds: Record<string, string> = {
  functionNode: 'a JavaScript function node: JavaScript does not run here',
  decisionNode: 'a decision node runs another JDM file: import that file on its own',
  customNode: 'a custom node runs only in the application that defines it',
  switchNode: 'a switch node branches the graph: a rule set here runs its rules in one line',
};

class GraphReader {
  readonly findings = new Findings();
  readonly records: unknown[] = [];
  private readonly usedIds = new Set<string>();

  constructor(private readonly base: string | undefined) {}

  /** A record id: the carried one, the file's name for a file of one rule, else the file's name and the node's. */
  private idFor(node: GraphNode, carried: Carried | undefined, alone: boolean): string {
    let id = validId(carried?.id) ? carried?.id : alone && this.base ? this.base : undefined;
    if (!id) {
      const slug = node.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '');
      const candidate = [this.base, slug].filter(Boolean).join('.');
      id = validId(candidate) ? candidate : validId(node.id) ? node.id : `node-${node.index + 1}`;
    }
    for (let n = 2; this.usedIds.has(id); n++) id = `${id.replace(/-\d+$/, '')}-${n}`;
    this.usedIds.add(id);
    return id;
  }

  private nameOf(node: GraphNode, id: string) {
    const name = node.name.trim().slice(0, 200).trim();
    return name || id;
  }

  /** A table or expression node as its record; returns the record's id. */
  readRule(node: GraphNode, alone: boolean): string {
    const carried = readCarried(node.content, `${node.element}.content`, this.findings);
    const id = this.idFor(node, carried, alone);
    const common = { id, name: this.nameOf(node, id), ...recordFields(carried) };
    if (node.type === 'decisionTableNode') {
      this.records.push({ ...common, type: 'decisionTable', definition: readTable(node.content, `${node.element}.content`, carried, this.findings) });
    } else {
      const then = readExpressions(node.content, `${node.element}.content`, carried, this.findings);
      this.records.push({ ...common, type: 'simpleRule', definition: { when: 'true', then, ...definitionExtras(carried) } });
    }
    return id;
  }

  /** The switch of a simple rule: a condition and perhaps a default, each leading to an expression node, both to the output. */
  readSimpleRule({ switchNode, condition: zenWhen, then, otherwise }: NonNullable<ReturnType<typeof simpleRuleShape>>) {
    const carried = readCarried(switchNode.content, `${switchNode.element}.content`, this.findings);
    const id = this.idFor(switchNode, carried, true);
    const at = `${switchNode.element}.content.statements[0].condition`;
    let when = carried?.when && carried.when.zen === zenWhen ? carried.when.feel : undefined;
    if (carried?.when && when === undefined)
      this.findings.left(
        at,
        `edited since it was exported: its zen text was read, and the FEEL text kept beside it (${JSON.stringify(carried.when.feel)}) was not used`,
      );
    when ??= this.findings.converted(at, zenExpressionToFeel(zenWhen), 'the condition') ?? 'false';
    const thenCarried = readCarried(then.content, `${then.element}.content`, this.findings);
    const otherwiseCarried = otherwise && readCarried(otherwise.content, `${otherwise.element}.content`, this.findings);
    this.records.push({
      id,
      name: this.nameOf(switchNode, id),
      ...recordFields(carried),
      type: 'simpleRule',
      definition: {
        when,
        then: readExpressions(then.content, `${then.element}.content`, thenCarried, this.findings),
        ...(otherwise && { otherwise: readExpressions(otherwise.content, `${otherwise.element}.content`, otherwiseCarried, this.findings) }),
        ...definitionExtras(carried),
      },
    });
  }

  ruleSet(ids: string[], nodes: GraphNode[]) {
    const id = this.idFor({ index: -1, id: 'graph', type: 'graph', name: '', content: {}, element: 'nodes' }, undefined, true);
    this.records.push({
      id,
      name: this.base ?? 'JDM graph',
      type: 'ruleSet',
      definition: { strategy: 'allMatch', rules: ids.map((ruleId) => ({ id: ruleId, ruleId })) },
    });
    this.findings.left(
      'edges',
      `the chain ${nodes.map((node) => JSON.stringify(node.name)).join(' → ')} is the rule set "${id}": each rule here sees the params and every output before it, and the rule set answers all outputs; zen passes each node only the one before's answer (merged with its input where passThrough is on) and answers the last node's`,
    );
  }
}

/** Nodes in the order of the chain from the input to the output, or undefined when the graph is not one chain. */
function chainOf(nodes: GraphNode[], edges: Json[]): GraphNode[] | undefined {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const outgoing = new Map<string, string[]>();
  const incoming = new Map<string, number>();
  for (const edge of edges) {
    const source = text(edge.sourceId) ?? '';
    const target = text(edge.targetId) ?? '';
    outgoing.set(source, [...(outgoing.get(source) ?? []), target]);
    incoming.set(target, (incoming.get(target) ?? 0) + 1);
  }
  const inputs = nodes.filter((node) => node.type === 'inputNode');
  const outputs = nodes.filter((node) => node.type === 'outputNode');
  if (inputs.length !== 1 || outputs.length !== 1 || edges.length !== nodes.length - 1) return undefined;
  if (nodes.some((node) => !['inputNode', 'outputNode', 'decisionTableNode', 'expressionNode'].includes(node.type))) return undefined;
  const chain: GraphNode[] = [];
  let at = inputs[0]!;
  while (at !== outputs[0]) {
    const next = outgoing.get(at.id) ?? [];
    const node = next.length === 1 ? byId.get(next[0]!) : undefined;
    if (!node || incoming.get(node.id) !== 1 || chain.includes(node)) return undefined;
    if (node !== outputs[0]) chain.push(node);
    at = node;
  }
  return chain.length === nodes.length - 2 ? chain : undefined;
}

/** A simple rule's graph: input → switch → then [and otherwise] → output. */
function simpleRuleShape(nodes: GraphNode[], edges: Json[]): { switchNode: GraphNode; condition: string; then: GraphNode; otherwise?: GraphNode } | undefined {
  const switches = nodes.filter((node) => node.type === 'switchNode');
  const expressions = nodes.filter((node) => node.type === 'expressionNode');
  if (switches.length !== 1 || !expressions.length || expressions.length > 2 || nodes.length !== 3 + expressions.length) return undefined;
  const switchNode = switches[0]!;
  const statements = Array.isArray(switchNode.content.statements) ? switchNode.content.statements.filter(isObject) : [];
  if ((switchNode.content.hitPolicy ?? 'first') !== 'first' || statements.length !== expressions.length) return undefined;
  if (statements.slice(1).some((statement) => text(statement.condition)?.trim())) return undefined;
  const target = (handle: unknown) => {
    const found = edges.filter((edge) => edge.sourceId === switchNode.id && edge.sourceHandle === handle);
    return found.length === 1 ? expressions.find((node) => node.id === found[0]!.targetId) : undefined;
  };
  const then = target(statements[0]!.id);
  const otherwise = statements[1] && target(statements[1].id);
  const output = nodes.find((node) => node.type === 'outputNode');
  const input = nodes.find((node) => node.type === 'inputNode');
  const leads = (from: GraphNode | undefined, to: GraphNode | undefined) =>
    !!from && !!to && edges.some((edge) => edge.sourceId === from.id && edge.targetId === to.id);
  const branches = [then, ...(statements[1] ? [otherwise] : [])];
  if (!then || (statements[1] && !otherwise) || !leads(input, switchNode) || !branches.every((branch) => leads(branch, output))) return undefined;
  if (edges.length !== 1 + 2 * branches.length) return undefined;
  return { switchNode, condition: text(statements[0]!.condition)?.trim() ?? '', then, ...(otherwise && { otherwise }) };
}

/** The deepest nesting of brackets in JSON text, outside strings: checked before the text is parsed. */
function jsonDepth(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '"') {
      for (i++; i < source.length && source[i] !== '"'; i++) if (source[i] === '\\') i++;
    } else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}

function parseDocument(body: Uint8Array): Json {
  refuseOversizeFile(body);
  let source: string;
  try {
    source = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    throw new ImportBoundExceeded('encoding', 'a JDM file is UTF-8 text');
  }
  if (jsonDepth(source) > importBounds.maxDepth) throw new ImportBoundExceeded('maxDepth', `the JSON nests deeper than ${importBounds.maxDepth} levels`);
  let document: unknown;
  try {
    document = parseJson(source);
  } catch (error) {
    throw new ImportBoundExceeded('format', `not JSON: ${(error as Error).message}`);
  }
  if (!isJdmDocument(document)) throw new ImportBoundExceeded('format', 'not a JDM graph: it has no "nodes" and "edges" lists');
  if (document.nodes.length > importBounds.maxTables)
    throw new ImportBoundExceeded('maxTables', `the graph has ${document.nodes.length} nodes; at most ${importBounds.maxTables} are allowed`);
  return document as Json;
}

const knownKeys = new Set(['contentType', 'nodes', 'edges']);

export async function readJdm(body: Uint8Array, origin: string): Promise<FileReading> {
  const document = parseDocument(body);
  const reader = new GraphReader(baseIdOf(origin));
  const { findings } = reader;
  for (const key of Object.keys(document)) if (!knownKeys.has(key)) findings.left(key, 'not read: a JDM graph is its nodes and edges');
  const nodes: GraphNode[] = [];
  (document.nodes as unknown[]).forEach((node, index) => {
    const element = `nodes[${index}]`;
    if (!isObject(node) || typeof node.id !== 'string' || typeof node.type !== 'string') {
      findings.problem(element, 'a node needs an id and a type');
      return;
    }
    const content = node.content === undefined ? {} : node.content;
    if (!isObject(content) && node.type !== 'functionNode') {
      findings.problem(`${element}.content`, 'must be an object');
      return;
    }
    nodes.push({ index, id: node.id, type: node.type, name: text(node.name) ?? '', content: isObject(content) ? content : {}, element });
  });
  const edges = (document.edges as unknown[]).filter(isObject);
  if (edges.length !== (document.edges as unknown[]).length) findings.problem('edges', 'every edge must be an object');
  for (const node of nodes) {
    if (node.type === 'inputNode' || node.type === 'outputNode') {
      const schema = node.content.schema;
      if (schema !== undefined && schema !== null && schema !== '')
        findings.left(`${node.element}.content.schema`, 'zen checks the data against this JSON schema; here the rules declare parameters instead');
    }
  }

  const simple = simpleRuleShape(nodes, edges);
  if (simple) {
    reader.readSimpleRule(simple);
    return { records: reader.records, problems: findings.problems, notCarried: findings.notCarried };
  }
  const rules = nodes.filter((node) => node.type === 'decisionTableNode' || node.type === 'expressionNode');
  if (!rules.length) findings.problem('nodes', 'no decision table or expression node: nothing to import');
  const chain = chainOf(nodes, edges);
  const ids = rules.map((node) => reader.readRule(node, rules.length === 1));
  for (const node of nodes)
    if (nodeKinds[node.type]) findings.left(node.element, `${JSON.stringify(node.name)} is ${nodeKinds[node.type]}`);
    else if (!['inputNode', 'outputNode', 'decisionTableNode', 'expressionNode'].includes(node.type))
      findings.left(node.element, `zen has no node of type "${node.type}"`);
  if (chain && chain.length > 1)
    reader.ruleSet(
      chain.map((node) => ids[rules.indexOf(node)]!),
      chain,
    );
  else if (!chain && rules.length)
    findings.left(
      'edges',
      'the graph is not one chain of decision tables and expression nodes from its input to its output: each table and expression node is imported on its own',
    );
  return { records: reader.records, problems: findings.problems, notCarried: findings.notCarried };
}
