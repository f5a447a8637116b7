/**
 * Reading JDM: hand-written jdm-editor files of every hit policy import and
 * answer what is written beside them; graphs of several nodes become rule
 * sets or are reported, with what no record keeps; bounds refuse a file
 * before it is read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../lib/decimal/json.ts';
import { compileRule, evaluateRule, type CompiledRule } from '../../lib/engine/index.ts';
import { prepareRule } from '../../lib/engine/prepare.ts';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { importBounds, ImportBoundExceeded } from '../../lib/interchange/format-contract.ts';
import { readJdm } from '../../lib/interchange/jdm-read.ts';
import { canonical } from './arbitrary.ts';

const folder = new URL('./files/jdm/', import.meta.url);
const bytes = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

/** Compiles every record read, a rule set's references resolved among them. */
function compileAll(records: EntityInput[]): Map<string, CompiledRule> {
  const compiled = new Map<string, CompiledRule>();
  for (const record of records) {
    const { prepared, problems } = prepareRule({ kind: record.type, definition: record.definition } as never);
    expect(problems, record.id).toEqual([]);
    compiled.set(
      record.id,
      compileRule(prepared, (ruleId) => compiled.get(ruleId)!),
    );
  }
  return compiled;
}

const fixtures = readdirSync(folder).filter((name) => name.endsWith('.json') && !name.endsWith('.cases.json'));

describe('hand-written jdm-editor files', () => {
  it.each(fixtures)('%s imports and answers its cases', async (name) => {
    const reading = await readJdm(readFileSync(new URL(name, folder)), `rules/${name}`);
    expect(reading.problems).toEqual([]);
    const records = reading.records.map(canonical);
    const rules = compileAll(records);
    const main = records[records.length - 1]!;
    const cases = parseJson(readFileSync(new URL(name.replace(/\.json$/, '.cases.json'), folder), 'utf8')) as { params: unknown; expected: unknown }[];
    for (const { params, expected } of cases) expect(evaluateRule(rules.get(main.id)!, params).output, JSON.stringify(params)).toEqual(expected);
  });

  it('reads a table as jdm-editor saves it: columns, types, rules with ids and descriptions', async () => {
    const reading = await readJdm(readFileSync(new URL('shipping-first.json', folder)), 'rules/shipping-first.json');
    const [table] = reading.records.map(canonical);
    expect(table).toMatchObject({
      id: 'shipping-first',
      name: 'Shipping fee',
      type: 'decisionTable',
      definition: {
        hitPolicy: 'first',
        inputs: [
          { id: '0b9d7c41-2e6f-4a83-b5c0-7d1e9f2a4b60', label: 'Country', expression: 'customer.country', type: 'string' },
          { id: '5e2a8f13-c7d4-4b96-a0e1-3f6b8c2d9a71', label: 'Weight (kg)', expression: 'parcel.weight', type: 'number' },
          { label: 'Express', expression: 'express', type: 'boolean' },
        ],
        outputs: [
          { label: 'Fee', name: 'fee', type: 'number' },
          { label: 'Carrier', name: 'carrier', type: 'string' },
        ],
      },
    });
    const rules = (table!.definition as { rules: unknown[] }).rules;
    expect(rules[0]).toEqual({
      id: '1d4f7a20-6b3e-4c91-8e2a-9f5c0b7d3e15',
      description: 'Light parcels at home',
      when: ['"DE", "AT"', '< 2', '-'],
      then: [4.9, '"DHL"'],
    });
    expect(rules[3]).toMatchObject({ when: ['not(["DE", "AT"])', '? > 10 and ? <= 30', '-'], then: ['parcel.weight * 1.5', '"Freight"'] });
    expect(reading.notCarried).toContainEqual({
      element: 'nodes[1].content.rules',
      message: 'an empty output cell sets nothing in zen; here the output is null',
    });
  });

  it("reads zen's date columns as date columns, and types columns by their cells", async () => {
    const reading = await readJdm(readFileSync(new URL('discounts-collect.json', folder)), 'discounts-collect.json');
    const inputs = (canonical(reading.records[0]).definition as { inputs: unknown[] }).inputs;
    expect(inputs).toMatchObject([
      { expression: 'code', type: 'string' },
      { expression: 'order.createdAt', type: 'date' },
      { expression: 'customer.joinDate', type: 'date' },
      {
        expression: 'if customer.pastPurchases instance of string then string length(customer.pastPurchases) else count(customer.pastPurchases)',
        type: 'number',
      },
    ]);
  });

  it('makes a chain of a table and an expression node a rule set of two records', async () => {
    const reading = await readJdm(readFileSync(new URL('pricing-chain.json', folder)), 'rules/pricing-chain.json');
    expect(reading.records.map(canonical).map(({ id, type }) => ({ id, type }))).toEqual([
      { id: 'pricing-chain.tier', type: 'decisionTable' },
      { id: 'pricing-chain.discount', type: 'simpleRule' },
      { id: 'pricing-chain', type: 'ruleSet' },
    ]);
    expect(canonical(reading.records[2]).definition).toEqual({
      strategy: 'allMatch',
      rules: [
        { id: 'pricing-chain.tier', ruleId: 'pricing-chain.tier', priority: 0 },
        { id: 'pricing-chain.discount', ruleId: 'pricing-chain.discount', priority: 0 },
      ],
    });
    expect(reading.notCarried).toContainEqual({
      element: 'edges',
      message: expect.stringContaining('the chain "Tier" → "Discount" is the rule set "pricing-chain"'),
    });
  });

  it("makes a switch with a condition and a default a simple rule's when, then and otherwise", async () => {
    const reading = await readJdm(readFileSync(new URL('eligibility-switch.json', folder)), 'eligibility-switch.json');
    expect(canonical(reading.records[0]).definition).toEqual({
      when: 'applicant.age >= 18 and applicant.income > 30000',
      then: { eligible: true, limit: 'min([applicant.income * 0.5, 50000])' },
      otherwise: { eligible: false, limit: 0 },
    });
  });
});

/** A graph of the given nodes, each edge [from, to, handle?]. */
const graph = (nodes: Record<string, unknown>[], edges: [string, string, string?][]) => ({
  contentType: 'application/vnd.gorules.decision',
  nodes: nodes.map((node) => ({ position: { x: 0, y: 0 }, ...node })),
  edges: edges.map(([sourceId, targetId, sourceHandle], i) => ({ id: `e${i}`, sourceId, targetId, ...(sourceHandle && { sourceHandle }), type: 'edge' })),
});
const input = { id: 'in', type: 'inputNode', name: 'Request' };
const output = { id: 'out', type: 'outputNode', name: 'Response' };
const zenTable = (id: string, content: Record<string, unknown> = {}) => ({
  id,
  type: 'decisionTableNode',
  name: `Table ${id}`,
  content: {
    hitPolicy: 'first',
    inputs: [{ id: 'c1', name: 'Amount', field: 'amount' }],
    outputs: [{ id: 'o1', name: 'Ok', field: 'ok' }],
    rules: [{ _id: 'r1', c1: '> 10', o1: 'true' }],
    ...content,
  },
});

describe('reading what is not carried', () => {
  const read = (document: unknown, origin = 'rules/graph.json') => readJdm(bytes(document), origin);

  it('lists function, decision, custom and switch nodes, imports the tables alone, and makes no rule set of a branching graph', async () => {
    const reading = await read(
      graph(
        [
          input,
          {
            id: 's',
            type: 'switchNode',
            name: 'Route',
            content: {
              statements: [
                { id: 'a', condition: 'amount > 5' },
                { id: 'b', condition: 'amount > 1' },
              ],
            },
          },
          zenTable('t1'),
          { id: 'f', type: 'functionNode', name: 'Script', content: { source: 'export const handler = async (input) => input;' } },
          { id: 'd', type: 'decisionNode', name: 'Other', content: { key: 'other.json' } },
          { id: 'c', type: 'customNode', name: 'Custom', content: { kind: 'lookup', config: {} } },
          output,
        ],
        [
          ['in', 's'],
          ['s', 't1', 'a'],
          ['s', 'f', 'b'],
          ['f', 'd'],
          ['d', 'c'],
          ['t1', 'out'],
          ['c', 'out'],
        ],
      ),
    );
    expect(reading.problems).toEqual([]);
    expect(reading.records).toHaveLength(1);
    // The one record the file yields takes the file's name.
    expect(canonical(reading.records[0]).id).toBe('graph');
    const elements = reading.notCarried.map((finding) => finding.element);
    expect(elements).toEqual(expect.arrayContaining(['nodes[1]', 'nodes[3]', 'nodes[4]', 'nodes[5]', 'edges']));
    expect(reading.notCarried.find((finding) => finding.element === 'nodes[3]')!.message).toContain('JavaScript does not run here');
    expect(reading.notCarried.find((finding) => finding.element === 'edges')!.message).toContain('not one chain');
  });

  it('makes no rule set of a loop', async () => {
    const reading = await read(
      graph(
        [input, zenTable('a'), zenTable('b'), output],
        [
          ['in', 'a'],
          ['a', 'b'],
          ['b', 'a'],
          ['b', 'out'],
        ],
      ),
    );
    expect(reading.records.map((record) => canonical(record).type)).toEqual(['decisionTable', 'decisionTable']);
    expect(reading.notCarried.map((finding) => finding.element)).toContain('edges');
  });

  it('lists transform attributes, schemas, editor defaults, untyped columns and dotted outputs', async () => {
    const reading = await read(
      graph(
        [
          { ...input, content: { schema: '{"type":"object"}' } },
          zenTable('t', {
            inputs: [{ id: 'c1', name: 'Any', field: 'anything', defaultValue: '> 1' }],
            outputs: [{ id: 'o1', name: 'Total', field: 'price.total' }],
            rules: [{ _id: 'r1', c1: '', o1: 'amount' }],
            inputField: 'lines',
            outputPath: 'priced',
            executionMode: 'loop',
          }),
          output,
        ],
        [
          ['in', 't'],
          ['t', 'out'],
        ],
      ),
    );
    expect(reading.problems).toEqual([]);
    expect(reading.notCarried.map((finding) => finding.element)).toEqual([
      'nodes[0].content.schema',
      'nodes[1].content.inputField',
      'nodes[1].content.outputPath',
      'nodes[1].content.executionMode',
      'nodes[1].content.inputs[0]',
      'nodes[1].content.inputs[0].defaultValue',
      'nodes[1].content.outputs[0].field',
      'nodes[1].content.outputs[0]',
    ]);
  });

  it('names the cell it cannot read, and the output zen collects into a list', async () => {
    const reading = await read(
      graph(
        [
          input,
          zenTable('t', {
            outputs: [{ id: 'o1', field: 'tags[]' }],
            rules: [
              { _id: 'r1', c1: 'some($, # > 1)', o1: '"a"' },
              { _id: 'r2', c1: 5, o1: 'x' },
            ],
          }),
          output,
        ],
        [
          ['in', 't'],
          ['t', 'out'],
        ],
      ),
    );
    expect(reading.problems).toEqual([
      { element: 'nodes[1].content.rules[1].c1', message: 'zen reads only text in a rule' },
      { element: 'nodes[1].content.rules[0].c1', message: 'the cell has no FEEL equivalent: "#" has no FEEL equivalent' },
      { element: 'nodes[1].content.outputs[0].field', message: expect.stringContaining('zen collects "tags[]" into a list') },
    ]);
  });

  it('reads a column with no field as conditions compared with true, as zen runs them', async () => {
    const reading = await read(
      graph(
        [input, zenTable('t', { inputs: [{ id: 'c1', name: 'Rule' }], rules: [{ _id: 'r1', c1: 'amount > 10 and vip', o1: 'true' }] }), output],
        [
          ['in', 't'],
          ['t', 'out'],
        ],
      ),
    );
    const definition = canonical(reading.records[0]).definition as { inputs: unknown[]; rules: { when: string[] }[] };
    expect(definition.inputs).toEqual([{ id: 'c1', label: 'Rule', expression: 'true', type: 'boolean' }]);
    expect(definition.rules[0]!.when).toEqual(['amount > 10 and vip']);
    const rule = compileAll([canonical(reading.records[0])]).get('graph')!;
    expect(evaluateRule(rule, { amount: 20, vip: true }).output).toEqual({ ok: true });
    expect(evaluateRule(rule, { amount: 20, vip: false }).output).toEqual(null);
  });

  it("refuses an expression that reads $ (the node's results so far), naming it", async () => {
    const reading = await read(
      graph(
        [
          input,
          {
            id: 'x',
            type: 'expressionNode',
            name: 'Totals',
            content: {
              expressions: [
                { id: '1', key: 'net', value: 'price * 2' },
                { id: '2', key: 'gross', value: '$.net * 1.19' },
              ],
            },
          },
          output,
        ],
        [
          ['in', 'x'],
          ['x', 'out'],
        ],
      ),
    );
    expect(reading.problems).toEqual([{ element: 'nodes[1].content.expressions[1]', message: expect.stringContaining('"$"') }]);
  });
});

describe('bounds, checked before the part they bound is read', () => {
  const refusal = async (body: Uint8Array) => {
    try {
      await readJdm(body, 'big.json');
    } catch (error) {
      return error as ImportBoundExceeded;
    }
    throw new Error('not refused');
  };

  it('refuses a file too large to read with 413', async () => {
    const error = await refusal(new Uint8Array(importBounds.maxFileBytes + 1));
    expect(error).toMatchObject({ bound: 'maxFileBytes', status: 413 });
  });

  it('refuses JSON nested too deep before parsing it', async () => {
    expect(await refusal(bytes(`{"nodes":[],"edges":[],"x":${'['.repeat(importBounds.maxDepth + 1)}${']'.repeat(importBounds.maxDepth + 1)}}`))).toMatchObject({
      bound: 'maxDepth',
      status: 400,
    });
  });

  it('refuses more nodes than a file may hold', async () => {
    const nodes = Array.from({ length: importBounds.maxTables + 1 }, (_, i) => zenTable(`t${i}`));
    expect(await refusal(bytes(graph(nodes, [])))).toMatchObject({ bound: 'maxTables' });
  });

  it('refuses a table of too many rules or columns before reading them', async () => {
    const rules = Array.from({ length: importBounds.maxRows + 1 }, () => ({ c1: '' }));
    expect(await refusal(bytes(graph([zenTable('t', { rules })], [])))).toMatchObject({ bound: 'maxRows' });
    const inputs = Array.from({ length: importBounds.maxColumns + 1 }, (_, i) => ({ id: `c${i}`, field: 'a' }));
    expect(await refusal(bytes(graph([zenTable('t', { inputs })], [])))).toMatchObject({ bound: 'maxColumns' });
  });

  it('refuses what is not JSON, not UTF-8, or not a JDM graph', async () => {
    expect(await refusal(bytes('{"nodes": ['))).toMatchObject({ bound: 'format' });
    expect(await refusal(new Uint8Array([0xff, 0xfe, 0x00]))).toMatchObject({ bound: 'encoding' });
    expect(await refusal(bytes({ id: 'a', definition: {} }))).toMatchObject({ bound: 'format' });
  });

  it('keeps the digits of numbers a double cannot hold', async () => {
    const body = readFileSync(new URL('grades-unique.json', folder), 'utf8').replace('"0.1 + 0.2"', '"0.30000000000000000000000000001"');
    const reading = await readJdm(bytes(body), 'grades.json');
    expect(String((canonical(reading.records[0]).definition as { rules: { then: unknown[] }[] }).rules[0]!.then[1])).toBe('0.30000000000000000000000000001');
  });
});
