/**
 * Writing JDM: records map onto nodes in zen's terms, every hit policy as the
 * nearest zen has, what zen has no place for carried beside it; each file
 * written reads back as the very record, and a cell edited since it was
 * written is read from its zen text.
 */
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../lib/decimal/json.ts';
import { entityChecksum } from '../../lib/entities/checksum.ts';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { jdmFormat } from '../../lib/interchange/jdm.ts';
import { canonical } from './arbitrary.ts';

const jsonOf = (body: Uint8Array) => parseJson(new TextDecoder().decode(body)) as Record<string, any>;

const table = (definition: Record<string, unknown>, extra: Partial<EntityInput> = {}): EntityInput =>
  canonical({
    id: 'discount',
    name: 'Discount',
    type: 'decisionTable',
    definition: {
      hitPolicy: 'first',
      inputs: [{ id: 'tier', label: 'Tier', expression: 'customer.tier', type: 'string' }],
      outputs: [{ id: 'rate', label: 'Rate', name: 'rate', type: 'number' }],
      rules: [
        { id: 'gold', description: 'Gold customers', when: ['"gold"'], then: [0.1] },
        { id: 'rest', when: ['-'], then: [0] },
      ],
      ...definition,
    },
    ...extra,
  });

const roundTrip = async (entity: EntityInput) => {
  const file = await jdmFormat.write(entity);
  const reading = await jdmFormat.read(file.body, file.fileName);
  expect(reading.problems).toEqual([]);
  // A file this service wrote holds nothing it would not read back.
  expect(reading.notCarried).toEqual([]);
  const back = canonical(reading.records[0]);
  expect(back).toEqual(entity);
  expect(entityChecksum(back)).toBe(entityChecksum(entity));
  return jsonOf(file.body);
};

describe('writing', () => {
  it('writes a table as input, decision table and output nodes, all in zen terms, carrying nothing zen holds', async () => {
    const entity = table({});
    const file = await jdmFormat.write(entity);
    expect(file).toMatchObject({ fileName: 'discount.json', contentType: 'application/json' });
    const graph = jsonOf(file.body);
    expect(graph.contentType).toBe('application/vnd.gorules.decision');
    expect(graph.nodes.map((node: { type: string }) => node.type)).toEqual(['inputNode', 'decisionTableNode', 'outputNode']);
    expect(graph.edges).toMatchObject([
      { sourceId: 'input:discount', targetId: 'discount' },
      { sourceId: 'discount', targetId: 'output:discount' },
    ]);
    expect(graph.nodes[1].content).toEqual({
      hitPolicy: 'first',
      inputs: [{ id: 'tier', name: 'Tier', field: 'customer.tier', fieldType: { type: 'string' } }],
      outputs: [{ id: 'rate', name: 'Rate', field: 'rate', outputFieldType: { type: 'number' } }],
      rules: [
        { _id: 'gold', _description: 'Gold customers', tier: '"gold"', rate: '0.1' },
        { _id: 'rest', tier: '', rate: '0' },
      ],
      passThrough: false,
      inputField: null,
      outputPath: null,
      executionMode: 'single',
      rulesService: { id: 'discount' },
    });
    await roundTrip(entity);
  });

  it.each([
    ['unique', undefined, 'first'],
    ['any', undefined, 'first'],
    ['priority', undefined, 'first'],
    ['outputOrder', undefined, 'collect'],
    ['ruleOrder', undefined, 'collect'],
    ['collect', 'sum', 'collect'],
  ])('writes the hit policy %s (%s) as zen %s and carries it', async (hitPolicy, aggregation, zen) => {
    const graph = await roundTrip(table({ hitPolicy, ...(aggregation && { aggregation }) }));
    expect(graph.nodes[1].content.hitPolicy).toBe(zen);
    expect(graph.nodes[1].content.rulesService).toMatchObject({ hitPolicy, ...(aggregation && { aggregation }) });
  });

  it("wraps a date column's field in zen's date(), and carries the types jdm-editor has no name for", async () => {
    const graph = await roundTrip(
      table({
        inputs: [
          { id: 'placed', expression: 'order.placed', type: 'date' },
          { id: 'slot', expression: 'order.slot', type: 'time' },
        ],
        rules: [{ when: ['>= date("2025-01-01")', '-'], then: [1] }],
      }),
    );
    expect(graph.nodes[1].content.inputs).toEqual([
      { id: 'placed', field: 'date(order.placed)', fieldType: { type: 'date' } },
      { id: 'slot', field: 'order.slot', fieldType: { type: 'any' } },
    ]);
    expect(graph.nodes[1].content.rulesService.inputs).toEqual({ slot: { type: 'time' } });
  });

  it('carries the FEEL of a cell zen cannot run beside the cell, which holds the FEEL as it is', async () => {
    const graph = await roundTrip(table({ rules: [{ when: ['duration("P1D")'], then: ['"a","b"'] }] }));
    expect(graph.nodes[1].content.rules[0]).toEqual({ tier: 'duration("P1D")', rate: '"a","b"' });
    expect(graph.nodes[1].content.rulesService.cells).toEqual([
      { rule: 0, column: 'tier', zen: 'duration("P1D")', feel: 'duration("P1D")', zenCannotRun: "zen has no equivalent of FEEL's duration()" },
      { rule: 0, column: 'rate', zen: '"a","b"', feel: '"a","b"', zenCannotRun: expect.stringContaining('FEEL this engine cannot read') },
    ]);
  });

  it('carries the FEEL of a cell whose zen text reads back otherwise', async () => {
    const graph = await roundTrip(table({ rules: [{ when: ['"gold","silver"'], then: [1] }] }));
    expect(graph.nodes[1].content.rules[0].tier).toBe('"gold", "silver"');
    expect(graph.nodes[1].content.rulesService.cells).toEqual([{ rule: 0, column: 'tier', zen: '"gold", "silver"', feel: '"gold","silver"' }]);
  });

  it('reads an edited cell from its zen text, and says the FEEL carried beside it was not used', async () => {
    const file = await jdmFormat.write(table({ rules: [{ when: ['"a","b"'], then: [1] }] }));
    const edited = jsonOf(file.body);
    edited.nodes[1].content.rules[0].tier = '"c"';
    const reading = await jdmFormat.read(new TextEncoder().encode(JSON.stringify(edited)), 'discount.json');
    expect((canonical(reading.records[0]).definition as { rules: { when: string[] }[] }).rules[0]!.when).toEqual(['"c"']);
    expect(reading.notCarried).toContainEqual({ element: 'nodes[1].content.rules[0].tier', message: expect.stringContaining('edited since it was exported') });
  });

  it('gives an output sharing an input id another id in zen, whose rules key both by id', async () => {
    const graph = await roundTrip(table({ outputs: [{ id: 'tier', name: 'rate', type: 'number' }] }));
    expect(graph.nodes[1].content.outputs[0].id).toBe('output:tier');
    expect(graph.nodes[1].content.rules[0]).toMatchObject({ tier: '"gold"', 'output:tier': '0.1' });
  });

  it('carries the record fields and the definition parts zen has no place for', async () => {
    const entity = table(
      {
        outputs: [{ id: 'rate', name: 'rate', label: 'rate', type: 'number', allowedValues: [0.1, 0], default: 0 }],
        parameters: [{ name: 'customer', type: 'context' }],
        tests: [{ name: 'gold', params: { customer: { tier: 'gold' } }, expected: { rate: 0.1 } }],
        settings: { recordExecutions: true },
      },
      { description: 'Rates by tier', tags: ['pricing'] },
    );
    const graph = await roundTrip(entity);
    expect(graph.nodes[1].content.rulesService).toEqual({
      id: 'discount',
      description: 'Rates by tier',
      tags: ['pricing'],
      parameters: [{ name: 'customer', type: 'context' }],
      tests: [{ name: 'gold', params: { customer: { tier: 'gold' } }, expected: { rate: 0.1 } }],
      settings: { recordExecutions: true },
      outputs: { rate: { label: 'rate', allowedValues: [0.1, 0], default: 0 } },
    });
  });

  const simpleRule = (definition: Record<string, unknown>) => canonical({ id: 'fee', name: 'Fee', type: 'simpleRule', definition });

  it('writes a simple rule whose condition is true as an expression node', async () => {
    const graph = await roundTrip(simpleRule({ when: 'true', then: { fee: 'total * 0.02', currency: '"EUR"' } }));
    expect(graph.nodes.map((node: { type: string }) => node.type)).toEqual(['inputNode', 'expressionNode', 'outputNode']);
    expect(graph.nodes[1].content.expressions).toEqual([
      { id: 'fee:1', key: 'fee', value: 'total * 0.02' },
      { id: 'fee:2', key: 'currency', value: '"EUR"' },
    ]);
  });

  it('writes a simple rule with a condition as a switch to a then and an otherwise expression node', async () => {
    const graph = await roundTrip(simpleRule({ when: 'total >= 50', then: { fee: 0 }, otherwise: { fee: 4.95 } }));
    expect(graph.nodes.map((node: { type: string }) => node.type)).toEqual(['inputNode', 'switchNode', 'expressionNode', 'expressionNode', 'outputNode']);
    expect(graph.nodes[1].content.statements).toEqual([
      { id: 'when', condition: 'total >= 50', isDefault: false },
      { id: 'otherwise', condition: '', isDefault: true },
    ]);
    await roundTrip(simpleRule({ when: 'total >= 50', then: { fee: 0 } }));
    await roundTrip(simpleRule({ when: 'count(items) > 2', then: { fee: 'duration("P1D")' } }));
  });

  it('cannot hold a rule set or a workflow, and says why', async () => {
    const ruleSet = canonical({ id: 'set', name: 'Set', type: 'ruleSet', definition: { rules: [{ id: 'a', ruleId: 'discount' }] } });
    expect(jdmFormat.cannotHold(ruleSet)).toContain('rule set');
    expect(jdmFormat.cannotHold(table({}))).toBeUndefined();
    await expect(jdmFormat.write(ruleSet)).rejects.toThrow('rule set');
  });
});
