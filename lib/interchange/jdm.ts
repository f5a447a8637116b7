/**
 * GoRules JDM: the JSON decision graphs of zen-engine and jdm-editor
 * (`{contentType, nodes, edges}`), read into rule records and written from
 * them. Reading (jdm-editor's files and zen's, graphs of several nodes) is
 * `./jdm-read.ts`; this module writes, and says what it cannot. Cells and
 * expressions are converted between zen's language and FEEL by
 * `./feel-to-zen.ts` and `./zen-to-feel.ts`; what zen's model has no place
 * for travels in each node's `rulesService` (`./jdm-model.ts`).
 *
 * How records and nodes meet:
 * - A decision table is the graph `inputNode → decisionTableNode → outputNode`.
 *   Inputs' `field` is the column's expression (a date column's is wrapped in
 *   zen's `date(...)`, as zen tables compare dates), `name` its label and
 *   jdm-editor's `fieldType` its type; outputs' `field` is the output's name;
 *   rules are keyed by column id, with `_id` and `_description`. zen's
 *   columns have no type: a column read is of jdm-editor's `fieldType`, else
 *   of the type its cells' literals tell, else a string column (listed).
 * - A simple rule whose condition is `true` is an expression node (each output
 *   a key and its expression); another is a switch node whose condition leads
 *   to the `then` expression node and whose default leads to the `otherwise` one.
 * - zen's hit policies are `first` and `collect`. The others are written as the
 *   nearest zen has, and zen answers so: `unique`, `any` and `priority` as
 *   `first` (the first matching row: the same answer as unique's and any's
 *   when the table is right, and priority's only when the rows are in priority
 *   order); `ruleOrder` as `collect` (the same answer); `outputOrder` as
 *   `collect` (rule order, not output order); `collect` with an aggregation as
 *   `collect` (the list, not its sum, min, max or count).
 */
import { Decimal } from '../decimal/decimal.ts';
import type { OutputEntry, ValueType } from '../engine/definitions.ts';
import { canonicalOutputEntry } from '../entities/output-entry.ts';
import type { EntityInput } from '../entities/schema.ts';
import { fileNameOf, formatFiles, type Format, type WrittenFile } from './format-contract.ts';
import { feelCellToZen, feelExpressionToZen } from './feel-to-zen.ts';
import { readJdm } from './jdm-read.ts';
import { dateTypes, editorTypes, unwrapDate, type Carried, type CarriedCell, type DecisionTable } from './jdm-model.ts';
import { zenCellToFeel, zenExpressionToFeel } from './zen-to-feel.ts';

type SimpleRule = Extract<EntityInput, { type: 'simpleRule' }>['definition'];

export const decisionContentType = 'application/vnd.gorules.decision';

/** What is carried, or undefined when nothing is, so that a file carries only what it must. */
function compact(carried: Carried): Carried | undefined {
  const kept = Object.entries(carried).filter(([, value]) => value !== undefined);
  return kept.length ? (Object.fromEntries(kept) as Carried) : undefined;
}

/** A list or map of carried parts, or undefined when there is none. */
const unlessEmpty = <T extends object>(parts: T): T | undefined => (Object.keys(parts).length ? parts : undefined);

/** The zen text of a FEEL cell, and the carried FEEL when the zen text does not read back as it. */
function zenCell(feel: string, names: string[], type: ValueType, rule: number, column: string): { zen: string; carried?: CarriedCell } {
  const conversion = feelCellToZen(feel, names);
  if (!conversion.ok) return { zen: feel.trim(), carried: { rule, column, zen: feel.trim(), feel, zenCannotRun: conversion.reason } };
  const back = zenCellToFeel(conversion.text, type);
  return back.ok && back.text === feel ? { zen: conversion.text } : { zen: conversion.text, carried: { rule, column, zen: conversion.text, feel } };
}

/** Output entries alike: a number has one form, a double or a Decimal. */
const sameEntry = (a: OutputEntry, b: OutputEntry) => a === b || (a instanceof Decimal && b instanceof Decimal && a.toString() === b.toString());

/** The zen text of an output entry or expression, and the carried FEEL when it does not read back as it. */
function zenValue(entry: OutputEntry, names: string[], column: string, rule?: number): { zen: string; carried?: CarriedCell } {
  const feel = typeof entry === 'string' ? entry : entry === null ? 'null' : String(entry);
  const conversion = feelExpressionToZen(feel, names);
  const carry = (zen: string, zenCannotRun?: string) => ({
    zen,
    carried: { ...(rule !== undefined && { rule }), column, zen, feel: entry, ...(zenCannotRun && { zenCannotRun }) },
  });
  if (!conversion.ok) return carry(feel.trim(), conversion.reason);
  const back = zenExpressionToFeel(conversion.text);
  return back.ok && sameEntry(canonicalOutputEntry(back.text), entry) ? { zen: conversion.text } : carry(conversion.text);
}

/** The id a column has in zen's rules: an output sharing an input's id gets another, as rules key both by id. */
const outputColumnId = (id: string, inputIds: Set<string>) => (inputIds.has(id) ? `output:${id}` : id);

const position = (x: number, y: number) => ({ x, y });
const ioNode = (kind: 'input' | 'output', owner: string, x: number) => ({
  id: `${kind}:${owner}`,
  type: `${kind}Node`,
  name: kind === 'input' ? 'Request' : 'Response',
  position: position(x, 150),
  content: { schema: '' },
});
const edge = (sourceId: string, targetId: string, sourceHandle?: string) => ({
  id: `${sourceId}->${targetId}`,
  sourceId,
  targetId,
  ...(sourceHandle && { sourceHandle }),
  type: 'edge',
});
const transforms = { passThrough: false, inputField: null, outputPath: null, executionMode: 'single' };

/** What every record carries beyond its definition's native part. */
function entityCarried(entity: EntityInput, definition: Pick<DecisionTable, 'parameters' | 'tests' | 'settings'>): Carried {
  return {
    id: entity.id,
    ...(entity.description && { description: entity.description }),
    ...(entity.tags.length && { tags: entity.tags }),
    ...(definition.parameters !== undefined && { parameters: definition.parameters }),
    ...(definition.tests !== undefined && { tests: definition.tests }),
    ...(definition.settings !== undefined && { settings: definition.settings }),
  };
}

function tableNode(entity: EntityInput & { type: 'decisionTable' }) {
  const table = entity.definition;
  const names = (table.parameters ?? []).map((p) => p.name);
  const inputIds = new Set(table.inputs.map((input) => input.id));
  const cells: CarriedCell[] = [];
  const carriedInputs: NonNullable<Carried['inputs']> = {};
  const carriedOutputs: NonNullable<Carried['outputs']> = {};

  const inputs = table.inputs.map((input) => {
    const kept: NonNullable<Carried['inputs']>[string] = {};
    if (!editorTypes.has(input.type)) kept.type = input.type;
    const field = feelExpressionToZen(input.expression, names);
    const wrapped = field.ok && dateTypes.has(input.type) ? `date(${field.text})` : field.ok ? field.text : input.expression;
    const inner = dateTypes.has(input.type) ? unwrapDate(wrapped) : wrapped;
    const back = inner === undefined ? undefined : zenExpressionToFeel(inner);
    if (!field.ok || !back?.ok || back.text !== input.expression) kept.expression = input.expression;
    if (Object.keys(kept).length) carriedInputs[input.id] = kept;
    return {
      id: input.id,
      ...(input.label !== undefined && { name: input.label }),
      field: wrapped,
      fieldType: { type: editorTypes.has(input.type) ? input.type : 'any' },
    };
  });
  const outputs = table.outputs.map((output) => {
    const id = outputColumnId(output.id, inputIds);
    const editorType = editorTypes.has(output.type) ? output.type : undefined;
    const label = output.label ?? output.name;
    const kept: NonNullable<Carried['outputs']>[string] = {
      ...(id !== output.id && { id: output.id }),
      // jdm-editor needs a name: the output's own when it has no label, so a label that is the name is carried to be told apart.
      ...(output.label !== undefined && output.label === output.name && { label: output.label }),
      ...(!editorType && { type: output.type }),
      ...(output.allowedValues !== undefined && { allowedValues: output.allowedValues }),
      ...(output.default !== undefined && { default: output.default }),
    };
    if (Object.keys(kept).length) carriedOutputs[id] = kept;
    return { id, name: label, field: output.name, outputFieldType: { type: editorType ?? 'auto' } };
  });
  const rules = table.rules.map((rule, r) => {
    const zenRule: Record<string, string> = {
      ...(rule.id !== undefined && { _id: rule.id }),
      ...(rule.description !== undefined && { _description: rule.description }),
    };
    table.inputs.forEach((input, c) => {
      const { zen, carried } = zenCell(rule.when[c]!, names, input.type, r, input.id);
      zenRule[input.id] = zen;
      if (carried) cells.push(carried);
    });
    table.outputs.forEach((_, c) => {
      const column = outputs[c]!.id;
      const { zen, carried } = zenValue(rule.then[c]!, names, column, r);
      zenRule[column] = zen;
      if (carried) cells.push(carried);
    });
    return zenRule;
  });
  const zenHitPolicy = table.hitPolicy === 'collect' || table.hitPolicy === 'ruleOrder' || table.hitPolicy === 'outputOrder' ? 'collect' : 'first';
  const carried = compact({
    ...entityCarried(entity, table),
    ...((table.hitPolicy !== zenHitPolicy || table.aggregation) && { hitPolicy: table.hitPolicy }),
    ...(table.aggregation && { aggregation: table.aggregation }),
    inputs: unlessEmpty(carriedInputs),
    outputs: unlessEmpty(carriedOutputs),
    cells: unlessEmpty(cells),
  });
  return {
    id: entity.id,
    type: 'decisionTableNode',
    name: entity.name,
    position: position(400, 150),
    content: { hitPolicy: zenHitPolicy, inputs, outputs, rules, ...transforms, ...(carried && { rulesService: carried }) },
  };
}

function expressionNode(id: string, name: string, outputs: Record<string, OutputEntry>, names: string[], x: number, y: number, carried: Carried) {
  const cells: CarriedCell[] = [];
  const expressions = Object.entries(outputs).map(([key, entry], i) => {
    const { zen, carried: cell } = zenValue(entry, names, key);
    if (cell) cells.push(cell);
    return { id: `${id}:${i + 1}`, key, value: zen };
  });
  const kept = compact({ ...carried, cells: unlessEmpty(cells) });
  return { id, type: 'expressionNode', name, position: position(x, y), content: { expressions, ...transforms, ...(kept && { rulesService: kept }) } };
}

function simpleRuleGraph(entity: EntityInput & { type: 'simpleRule' }) {
  const rule: SimpleRule = entity.definition;
  const names = (rule.parameters ?? []).map((p) => p.name);
  const input = ioNode('input', entity.id, 100);
  const unconditional = rule.when === 'true' && !rule.otherwise;
  const output = ioNode('output', entity.id, unconditional ? 700 : 1000);
  const carried = entityCarried(entity, rule);
  if (unconditional) {
    const node = expressionNode(entity.id, entity.name, rule.then, names, 400, 150, carried);
    return { nodes: [input, node, output], edges: [edge(input.id, node.id), edge(node.id, output.id)] };
  }
  const condition = feelExpressionToZen(rule.when, names);
  const back = condition.ok ? zenExpressionToFeel(condition.text) : undefined;
  const zenWhen = condition.ok ? condition.text : rule.when.trim();
  const when = back?.ok && back.text === rule.when ? undefined : { zen: zenWhen, feel: rule.when, ...(!condition.ok && { zenCannotRun: condition.reason }) };
  const switchNode = {
    id: entity.id,
    type: 'switchNode',
    name: entity.name,
    position: position(400, 150),
    content: {
      hitPolicy: 'first',
      statements: [{ id: 'when', condition: zenWhen, isDefault: false }, ...(rule.otherwise ? [{ id: 'otherwise', condition: '', isDefault: true }] : [])],
      rulesService: compact({ ...carried, when }),
    },
  };
  const then = expressionNode(`then:${entity.id}`, 'then', rule.then, names, 700, 50, {});
  const otherwise = rule.otherwise && expressionNode(`otherwise:${entity.id}`, 'otherwise', rule.otherwise, names, 700, 250, {});
  return {
    nodes: [input, switchNode, then, ...(otherwise ? [otherwise] : []), output],
    edges: [
      edge(input.id, switchNode.id),
      edge(switchNode.id, then.id, 'when'),
      edge(then.id, output.id),
      ...(otherwise ? [edge(switchNode.id, otherwise.id, 'otherwise'), edge(otherwise.id, output.id)] : []),
    ],
  };
}

function cannotHold(entity: EntityInput): string | undefined {
  if (entity.type === 'decisionTable' || entity.type === 'simpleRule') return undefined;
  return `a JDM file holds decision tables and expressions; a ${entity.type === 'ruleSet' ? 'rule set' : 'workflow'} runs other rules and steps, which JDM would need each in its own file`;
}

async function write(entity: EntityInput): Promise<WrittenFile> {
  const reason = cannotHold(entity);
  if (reason) throw new Error(reason);
  let graph: { nodes: unknown[]; edges: unknown[] };
  if (entity.type === 'decisionTable') {
    const input = ioNode('input', entity.id, 100);
    const output = ioNode('output', entity.id, 700);
    graph = { nodes: [input, tableNode(entity), output], edges: [edge(input.id, entity.id), edge(entity.id, output.id)] };
  } else graph = simpleRuleGraph(entity as EntityInput & { type: 'simpleRule' });
  const json = JSON.stringify({ contentType: decisionContentType, ...graph }, null, 2);
  return { fileName: fileNameOf(entity, '.json'), contentType: 'application/json', body: new TextEncoder().encode(`${json}\n`) };
}

export const jdmFormat: Format = {
  name: 'jdm',
  ...formatFiles.jdm,
  read: readJdm,
  cannotHold,
  write,
};
