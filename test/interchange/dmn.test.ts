/**
 * The DMN format: hand-written files in the shapes Camunda Modeler and
 * Drools write, and one per hit policy, import and answer the cases written
 * beside them, and read back the same after an export; each part of a
 * decision maps as documented; everything not carried is listed by element;
 * every bound refuses a hostile file before it is parsed; DMN 1.1 to 1.5
 * read alike; what is written is DMN 1.5 with a diagram.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../lib/decimal/json.ts';
import { compileRule, evaluateRule, type CompiledRule, type RuleDefinition } from '../../lib/engine/index.ts';
import { prepareRule } from '../../lib/engine/prepare.ts';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { dmnFormat } from '../../lib/interchange/dmn.ts';
import { dmnModdle } from '../../lib/interchange/dmn-model.ts';
import { ImportBoundExceeded, importBounds, type FileReading } from '../../lib/interchange/format-contract.ts';
import { canonical } from './arbitrary.ts';

const files = join(import.meta.dirname, 'files/dmn');
const model13 = 'https://www.omg.org/spec/DMN/20191111/MODEL/';

const read = (xml: string | Uint8Array): Promise<FileReading> => dmnFormat.read(typeof xml === 'string' ? new TextEncoder().encode(xml) : xml, 'test.dmn');
const readFixture = (name: string) => dmnFormat.read(readFileSync(join(files, `${name}.dmn`)), `${name}.dmn`);

/** A DMN 1.3 file (or of the namespace given) holding `body`. */
const dmn = (body: string, namespace = model13, more = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<definitions xmlns="${namespace}" ${more} id="definitions" name="Test" namespace="urn:test">${body}</definitions>`;

/** A decision with a one-input, one-output table; `input`, `output` and `rules` replace the parts given. */
const tableDecision = (parts: { table?: string; input?: string; output?: string; rules?: string; decision?: string } = {}) => `
  <decision id="discount" name="Discount"${parts.decision ?? ''}>
    <decisionTable id="table"${parts.table ?? ''}>
      ${parts.input ?? '<input id="amount" label="Amount"><inputExpression id="amountExpression" typeRef="number"><text>amount</text></inputExpression></input>'}
      ${parts.output ?? '<output id="rate" name="rate" typeRef="number" />'}
      ${parts.rules ?? '<rule id="big"><inputEntry id="big1"><text>&gt;= 100</text></inputEntry><outputEntry id="big2"><text>0.1</text></outputEntry></rule>'}
    </decisionTable>
  </decision>`;

type TableEntity = Extract<EntityInput, { type: 'decisionTable' }>;
const onlyTable = (reading: FileReading) => canonical(reading.records[0]) as TableEntity;

/** Runs the records of one file by id, a rule set's references resolved among them. */
function runner(records: EntityInput[]) {
  const compiled = new Map<string, CompiledRule>();
  const compile = (id: string): CompiledRule => {
    const known = compiled.get(id);
    if (known) return known;
    const record = records.find((r) => r.id === id);
    if (!record) throw new Error(`the file has no rule ${id}`);
    const { prepared, problems } = prepareRule({ kind: record.type, definition: record.definition } as RuleDefinition);
    expect(problems, id).toEqual([]);
    const rule = compileRule(prepared, (ruleId) => compile(ruleId));
    compiled.set(id, rule);
    return rule;
  };
  return (id: string, params: unknown) => evaluateRule(compile(id), params).output;
}

interface Case {
  rule?: string;
  params: unknown;
  expected: unknown;
}

const fixtures = readdirSync(files)
  .filter((file) => file.endsWith('.dmn'))
  .map((file) => file.slice(0, -'.dmn'.length));

describe.each(fixtures)('the fixture %s.dmn', (name) => {
  it('imports without problems and answers the cases written beside it', async () => {
    const reading = await readFixture(name);
    expect(reading.problems).toEqual([]);
    const records = reading.records.map(canonical);
    const run = runner(records);
    const cases = parseJson(readFileSync(join(files, `${name}.cases.json`), 'utf8')) as Case[];
    expect(cases.length).toBeGreaterThan(0);
    for (const { rule, params, expected } of cases) expect(run(rule ?? records[0]!.id, params), JSON.stringify(params)).toEqual(expected);
  });

  it('reads back the same after an export (rule sets are refused by DMN export)', async () => {
    const first = (await readFixture(name)).records.map(canonical);
    for (const record of first) {
      if (record.type === 'ruleSet') {
        expect(dmnFormat.cannotHold(record)).toMatch(/rule set/);
        continue;
      }
      const file = await dmnFormat.write(record);
      const again = await dmnFormat.read(file.body, file.fileName);
      expect(again.problems).toEqual([]);
      expect(again.records.map(canonical)).toEqual([record]);
    }
  });
});

describe('a file Camunda Modeler wrote', () => {
  it('maps its decisions, requirements and rows', async () => {
    const reading = await readFixture('camunda-shipping');
    const records = reading.records.map(canonical);
    expect(records.map((r) => [r.id, r.type])).toEqual([
      ['customerTier', 'decisionTable'],
      ['shippingFee.logic', 'decisionTable'],
      ['shippingFee', 'ruleSet'],
    ]);
    const tier = records[0] as TableEntity;
    expect(tier.name).toBe('Customer tier');
    expect(tier.definition.hitPolicy).toBe('first');
    expect(tier.definition.inputs[0]).toEqual({ id: 'InputClause_spend', label: 'Annual spend', expression: 'annualSpend', type: 'number' });
    expect(tier.definition.outputs[0]).toEqual({
      id: 'OutputClause_tier',
      label: 'Tier',
      name: 'tier',
      type: 'string',
      allowedValues: ['gold', 'silver', 'bronze'],
    });
    expect(tier.definition.rules[0]).toEqual({
      id: 'DecisionRule_gold_spend',
      description: 'Big spenders are gold at once',
      when: ['>= 10000', ''],
      then: ['"gold"'],
    });
    // A description on two lines: the service keeps descriptions on one.
    expect(tier.definition.rules[1]!.description).toBe('Loyal customers who spend a fair amount');
    // Shipping fee (unique, DMN's default) requires Customer tier: a rule set runs the tier first, then the fee's own table.
    expect((records[1] as TableEntity).definition.hitPolicy).toBe('unique');
    expect(records[1]!.name).toBe('Shipping fee (logic)');
    expect(records[2]!.definition).toEqual({
      strategy: 'allMatch',
      rules: [
        { id: 'customerTier', ruleId: 'customerTier', priority: 0 },
        { id: 'shippingFee.logic', ruleId: 'shippingFee.logic', priority: 0 },
      ],
    });
  });

  it('lists what it does not carry, element by element', async () => {
    const { notCarried } = await readFixture('camunda-shipping');
    const said = notCarried.map((finding) => `${finding.element}: ${finding.message}`);
    for (const expected of [
      /^definitions: the attribute modeler:executionPlatform="Camunda Platform"/,
      /^decision#customerTier: the attribute camunda:versionTag="3"/,
      /^decision#customerTier: the attribute camunda:historyTimeToLive="P180D"/,
      /^decision#customerTier\/decisionTable\/input#InputClause_spend: the attribute camunda:inputVariable="spend"/,
      /^decision#customerTier\/decisionTable\/input#InputClause_spend: width is not carried/,
      /^decision#customerTier\/rule#DecisionRule_gold_loyal|decisionTable\/rule#DecisionRule_gold_loyal: the line breaks .* description/,
      /^decision#customerTier: its expressions do not name the input data "Annual spend": its params are not declared/,
      /^decision#shippingFee: its authorityRequirement on #KnowledgeSource_handbook is not carried/,
      /^inputData#InputData_annualSpend \("Annual spend"\): input data become the params/,
      /^knowledgeSource#KnowledgeSource_handbook \("Pricing handbook"\): knowledge sources are not carried/,
      /^textAnnotation#TextAnnotation_0w5x6y7: textAnnotation elements are not carried/,
      /^association#Association_1q2w3e4: association elements are not carried/,
      /^DMNDiagram#DMNDiagram_05n8xq1\/dMNShape#DMNShape_handbook: the layout of knowledgeSource#KnowledgeSource_handbook/,
      /^DMNDiagram#DMNDiagram_05n8xq1\/dMNEdge#DMNEdge_association: the layout of association#Association_1q2w3e4/,
      /^DMNDiagram#DMNDiagram_05n8xq1: the diagram layout is not kept/,
    ])
      expect(said).toContainEqual(expect.stringMatching(expected));
    // The edge of the requirement that became a reference travels with it; so do the decisions' shapes.
    expect(said.filter((s) => /DMNEdge_0r4t5y6|DMNShape_customerTier|DMNShape_shippingFee/.test(s))).toEqual([]);
  });
});

describe('a file Drools (KIE) wrote', () => {
  it('reads prefixed DMN 1.2, feel: typeRefs, item definitions, annotation columns, and declares the input data it names', async () => {
    const reading = await readFixture('drools-loan');
    const records = reading.records.map(canonical);
    const eligibility = 'D0000000-0000-4000-8000-00000000E001';
    const rate = 'D0000000-0000-4000-8000-00000000F001';
    expect(records.map((r) => [r.id, r.type])).toEqual([
      [eligibility, 'decisionTable'],
      [`${rate}.logic`, 'simpleRule'],
      [rate, 'ruleSet'],
    ]);
    const table = records[0] as TableEntity;
    // The unnamed single output takes the decision's variable name; tEligibility comes down to string, tMoney to number.
    expect(table.definition.outputs).toEqual([{ id: 'D0000000-0000-4000-8000-00000000E010', name: 'Eligibility', type: 'string' }]);
    expect(table.definition.inputs.map((input) => input.type)).toEqual(['number', 'number']);
    expect(table.definition.parameters).toEqual([
      { name: 'Applicant', type: 'context' },
      { name: 'Requested amount', type: 'number' },
    ]);
    // The first annotation column ("Reason") is the row's description; an empty one leaves none.
    expect(table.definition.rules.map((rule) => rule.description)).toEqual([
      'Minors cannot borrow',
      'At most a year of income',
      'An underwriter looks at it',
      undefined,
    ]);
    expect(records[1]!.definition).toMatchObject({
      when: 'true',
      then: { 'Interest rate': expect.stringMatching(/^if Eligibility = "ELIGIBLE"/) },
      parameters: [
        { name: 'Requested amount', type: 'number' },
        { name: 'Eligibility', type: 'string' },
      ],
    });
  });

  it('lists what it does not carry, element by element', async () => {
    const { notCarried } = await readFixture('drools-loan');
    const said = notCarried.map((finding) => `${finding.element}: ${finding.message}`);
    for (const expected of [
      /^itemDefinition#_B1C2D3E4-0001-4A00-8000-000000000001 \("tEligibility"\): item definitions are not kept: a column of this type is read as string, .*allowed values/,
      /^itemDefinition#_B1C2D3E4-0002-4A00-8000-000000000001 \("tApplicant"\): .* read as context/,
      /^decision#_D0000000-0000-4000-8000-00000000E001\/decisionTable\/rule#_R0000000-0000-4000-8000-000000000001: the annotation "Reviewed by" \("Legal"\) is not carried/,
      /^decision#_D0000000-0000-4000-8000-00000000F001: its knowledgeRequirement on #_K0000000-0000-4000-8000-000000000001 is not carried/,
      /^decision#_D0000000-0000-4000-8000-00000000F001\/literalExpression: the typeRef "feel:number" is not carried/,
      /^decision#_D0000000-0000-4000-8000-00000000G001: holds a boxed context: .* not imported/,
      /^businessKnowledgeModel#_K0000000-0000-4000-8000-000000000001 \("Monthly payment"\): business knowledge models/,
      /^inputData#_C0000000-0000-4000-8000-00000000A003 \("Requested amount"\): input data become the params/,
      /^line \d+, column \d+: <dmndi:DMNStyle>: .* not read/,
      /^DMNDiagram#_DI000000-0000-4000-8000-000000000001\/dMNShape#dmnshape-drg-_D0000000-0000-4000-8000-00000000G001: the layout of decision#/,
      /^DMNDiagram#_DI000000-0000-4000-8000-000000000001: the diagram layout is not kept/,
    ])
      expect(said).toContainEqual(expect.stringMatching(expected));
    // Ids that are a service id behind DMN's leading underscore are read without it, unreported.
    expect(said.filter((s) => /the id .* is read as/.test(s))).toEqual([]);
  });
});

describe('reading a decision table', () => {
  it('reads a table without a hit policy as UNIQUE, DMN’s default', async () => {
    expect(onlyTable(await read(dmn(tableDecision()))).definition.hitPolicy).toBe('unique');
  });

  it.each([
    ['UNIQUE', undefined, 'unique', undefined],
    ['FIRST', undefined, 'first', undefined],
    ['PRIORITY', undefined, 'priority', undefined],
    ['ANY', undefined, 'any', undefined],
    ['RULE ORDER', undefined, 'ruleOrder', undefined],
    ['OUTPUT ORDER', undefined, 'outputOrder', undefined],
    ['COLLECT', undefined, 'collect', undefined],
    ['COLLECT', 'SUM', 'collect', 'sum'],
    ['COLLECT', 'MIN', 'collect', 'min'],
    ['COLLECT', 'MAX', 'collect', 'max'],
    ['COLLECT', 'COUNT', 'collect', 'count'],
  ])('reads the hit policy %s %s', async (hitPolicy, aggregation, expected, expectedAggregation) => {
    const table = ` hitPolicy="${hitPolicy}"${aggregation ? ` aggregation="${aggregation}"` : ''}`;
    const { definition } = onlyTable(await read(dmn(tableDecision({ table }))));
    expect([definition.hitPolicy, definition.aggregation]).toEqual([expected, expectedAggregation]);
  });

  it('refuses a hit policy DMN does not define', async () => {
    const reading = await read(dmn(tableDecision({ table: ' hitPolicy="RANDOM"' })));
    expect(reading.problems).toContainEqual({ element: 'decision#discount/decisionTable', message: expect.stringMatching(/"RANDOM"/) });
  });

  it.each([
    ['number', 'number'],
    ['feel:number', 'number'],
    ['integer', 'number'],
    ['long', 'number'],
    ['double', 'number'],
    ['decimal', 'number'],
    ['string', 'string'],
    ['feel:string', 'string'],
    ['boolean', 'boolean'],
    ['date', 'date'],
    ['dateTime', 'datetime'],
    ['date and time', 'datetime'],
    ['feel:date and time', 'datetime'],
    ['time', 'time'],
    ['dayTimeDuration', 'duration'],
    ['yearMonthDuration', 'duration'],
    ['days and time duration', 'duration'],
    ['years and months duration', 'duration'],
    ['duration', 'duration'],
    ['list', 'list'],
    ['context', 'context'],
  ])('reads the typeRef %s as %s, unreported', async (typeRef, type) => {
    const input = `<input id="value"><inputExpression id="valueExpression" typeRef="${typeRef}"><text>value</text></inputExpression></input>`;
    const reading = await read(dmn(tableDecision({ input, rules: '' })));
    expect(onlyTable(reading).definition.inputs[0]!.type).toBe(type);
    expect(reading.notCarried).toEqual([]);
  });

  it.each([
    ['Any', '"gold"', 'string', /the typeRef "Any" is not a type the service has: read as string, the type its literal entries share/],
    ['tCustomer', '&gt;= 18', 'number', /the typeRef "tCustomer" is not a type the service has: read as number/],
    [undefined, 'date("2025-01-01")', 'date', /has no typeRef: read as date/],
    [undefined, 'x &gt; 1', 'string', /has no typeRef: read as string \(its entries share no literal type\)/],
  ])('reads the typeRef %s with entries %s as %s, reported', async (typeRef, entry, type, message) => {
    const input = `<input id="value"><inputExpression id="valueExpression"${typeRef ? ` typeRef="${typeRef}"` : ''}><text>value</text></inputExpression></input>`;
    const rules = `<rule id="r"><inputEntry id="r1"><text>${entry}</text></inputEntry><outputEntry id="r2"><text>1</text></outputEntry></rule>`;
    const reading = await read(dmn(tableDecision({ input, rules })));
    expect(onlyTable(reading).definition.inputs[0]!.type).toBe(type);
    expect(reading.notCarried).toContainEqual({ element: 'decision#discount/decisionTable/input#value', message: expect.stringMatching(message) });
  });

  it('reads a type an item definition comes down to, and reports the definition', async () => {
    const items = `<itemDefinition id="tAge" name="tAge"><typeRef>tYears</typeRef></itemDefinition>
      <itemDefinition id="tYears" name="tYears"><typeRef>feel:number</typeRef></itemDefinition>
      <itemDefinition id="tTags" name="tTags" isCollection="true"><typeRef>string</typeRef></itemDefinition>`;
    const input = '<input id="age"><inputExpression id="ageExpression" typeRef="tAge"><text>age</text></inputExpression></input>';
    const output = '<output id="tags" name="tags" typeRef="tTags" />';
    const reading = await read(dmn(items + tableDecision({ input, output, rules: '' })));
    const { definition } = onlyTable(reading);
    expect([definition.inputs[0]!.type, definition.outputs[0]!.type]).toEqual(['number', 'list']);
    expect(reading.notCarried).toContainEqual({ element: 'itemDefinition#tAge ("tAge")', message: expect.stringMatching(/read as number/) });
  });

  it('reads output values that are literals as allowed values, and reports others', async () => {
    const output = `<output id="grade" name="grade" typeRef="string"><outputValues id="gradeValues"><text>"a \\"quoted\\" one", "tab\\there", 12345678901234567890.5, -1, true</text></outputValues></output>
      <output id="level" name="level" typeRef="number"><outputValues id="levelValues"><text>[1..5]</text></outputValues></output>`;
    const rules =
      '<rule id="r"><inputEntry id="r1"><text>-</text></inputEntry><outputEntry id="r2"><text>"a"</text></outputEntry><outputEntry id="r3"><text>1</text></outputEntry></rule>';
    const reading = await read(dmn(tableDecision({ output, rules })));
    const [grade, level] = onlyTable(reading).definition.outputs;
    expect(grade!.allowedValues).toEqual(['a "quoted" one', 'tab\there', parseJson('12345678901234567890.5'), -1, true]);
    expect(level!.allowedValues).toBeUndefined();
    expect(reading.notCarried).toContainEqual({
      element: 'decision#discount/decisionTable/output#level/outputValues',
      message: expect.stringMatching(/^"\[1\.\.5\]" is not a list of literals \(.+\): the output values are not carried$/),
    });
  });

  it('reads the default output entry, and names a single unnamed output after the decision', async () => {
    const output = '<output id="rate" typeRef="number"><defaultOutputEntry id="rateDefault"><text>0</text></defaultOutputEntry></output>';
    const { definition } = onlyTable(await read(dmn(tableDecision({ output }))));
    expect(definition.outputs).toEqual([{ id: 'rate', name: 'Discount', type: 'number', default: 0 }]);
  });

  it('keeps one description per row: its own, else its first annotation; reports the others', async () => {
    const rules = `<annotation name="Why" /><annotation name="Who" />
      <rule id="own"><description>Own words</description><inputEntry id="o1"><text>-</text></inputEntry><outputEntry id="o2"><text>1</text></outputEntry>
        <annotationEntry><text>Another reason</text></annotationEntry><annotationEntry><text>Ann</text></annotationEntry></rule>
      <rule id="noted"><inputEntry id="n1"><text>-</text></inputEntry><outputEntry id="n2"><text>2</text></outputEntry>
        <annotationEntry><text>Noted reason</text></annotationEntry><annotationEntry><text></text></annotationEntry></rule>`;
    const reading = await read(dmn(tableDecision({ rules })));
    expect(onlyTable(reading).definition.rules.map((rule) => rule.description)).toEqual(['Own words', 'Noted reason']);
    expect(reading.notCarried.map((f) => f.message)).toEqual([
      'the annotation "Why" ("Another reason") is not carried: a row keeps one description',
      'the annotation "Who" ("Ann") is not carried: a row keeps one description',
    ]);
  });

  it('reads what another tool writes in another expression language as FEEL, and says so', async () => {
    const rules =
      '<rule id="r"><inputEntry id="r1" expressionLanguage="juel"><text>${amount > 5}</text></inputEntry><outputEntry id="r2"><text>1</text></outputEntry></rule>';
    const reading = await read(dmn(tableDecision({ rules })));
    expect(reading.notCarried).toContainEqual({
      element: 'decision#discount/decisionTable/rule#r/inputEntry[1]',
      message: 'the expression language "juel" is not carried: the text is read as FEEL',
    });
  });

  it('reports an id a service id cannot be, and reads the row without it', async () => {
    const rules = '<rule id="ns:row"><inputEntry id="r1"><text>-</text></inputEntry><outputEntry id="r2"><text>1</text></outputEntry></rule>';
    const reading = await read(dmn(tableDecision({ rules })));
    expect(onlyTable(reading).definition.rules[0]!.id).toBe('ns_row');
    expect(reading.notCarried).toContainEqual({
      element: 'decision#discount/decisionTable/rule#ns:row',
      message: expect.stringMatching(/is read as "ns_row"/),
    });
  });
});

describe('reading a literal expression', () => {
  it('is a simple rule that always answers the expression under the decision’s variable', async () => {
    const decision = `<decision id="vat" name="VAT"><variable id="vatVariable" name="vatRate" />
      <literalExpression id="vatExpression"><text>if country = "DE" then 0.19 else 0.2</text></literalExpression></decision>`;
    const reading = await read(dmn(decision));
    expect(reading.notCarried).toEqual([]);
    expect(canonical(reading.records[0])).toEqual({
      id: 'vat',
      name: 'VAT',
      description: '',
      tags: [],
      type: 'simpleRule',
      definition: { when: 'true', then: { vatRate: 'if country = "DE" then 0.19 else 0.2' } },
    });
  });

  it('reads the expression, not the rule the extension keeps, once another tool edited it', async () => {
    const rule = canonical({ id: 'fee', name: 'Fee', type: 'simpleRule', definition: { when: 'amount > 10', then: { fee: 0 }, otherwise: { fee: 5 } } });
    const xml = new TextDecoder().decode((await dmnFormat.write(rule)).body).replace('else {"fee": 5}', 'else {"fee": 6}');
    const reading = await read(xml);
    expect(canonical(reading.records[0]).definition).toEqual({ when: 'true', then: { Fee: 'if amount > 10\nthen {"fee": 0}\nelse {"fee": 6}' } });
    expect(reading.notCarried).toContainEqual({ element: 'decision#fee', message: expect.stringMatching(/edited elsewhere/) });
  });
});

describe('reading requirements between decisions', () => {
  const decisionRequiring = (id: string, required: string[], output = id) => `
    <decision id="${id}" name="${id}">
      ${required.map((r, i) => `<informationRequirement id="${id}_requires_${i}"><requiredDecision href="${r}" /></informationRequirement>`).join('')}
      <literalExpression id="${id}_expression"><text>1</text></literalExpression>
      <variable id="${id}_variable" name="${output}" />
    </decision>`;

  it('runs every decision required, in dependency order, before the decision’s own logic', async () => {
    const reading = await read(
      dmn(decisionRequiring('a', ['#b', '#c']) + decisionRequiring('b', ['#d']) + decisionRequiring('c', ['#d']) + decisionRequiring('d', [])),
    );
    expect(reading.problems).toEqual([]);
    const ruleSets = reading.records.map(canonical).filter((r) => r.type === 'ruleSet');
    expect(ruleSets.map((r) => [r.id, (r.definition as { rules: { ruleId: string }[] }).rules.map((e) => e.ruleId)])).toEqual([
      ['a', ['d', 'b.logic', 'c.logic', 'a.logic']],
      ['b', ['d', 'b.logic']],
      ['c', ['d', 'c.logic']],
    ]);
  });

  it('reports requirements on decisions it does not import, and cycles, and makes no rule set for them', async () => {
    const reading = await read(dmn(decisionRequiring('a', ['other.dmn#x']) + decisionRequiring('b', ['#c']) + decisionRequiring('c', ['#b'])));
    expect(reading.records.map((r) => (r as EntityInput).type)).toEqual(['simpleRule', 'simpleRule', 'simpleRule']);
    expect(reading.notCarried).toEqual(
      expect.arrayContaining([
        { element: 'decision#a', message: expect.stringMatching(/requirement on "other.dmn#x", which is not imported is not carried/) },
        { element: 'decision#b', message: expect.stringMatching(/a cycle/) },
        { element: 'decision#c', message: expect.stringMatching(/a cycle/) },
      ]),
    );
  });
});

describe('reading what the service does not carry', () => {
  it.each([
    [
      'a boxed context',
      '<context id="c"><contextEntry><variable id="v" name="x" /><literalExpression id="l"><text>1</text></literalExpression></contextEntry></context>',
      /holds a boxed context/,
    ],
    ['an invocation', '<invocation id="i"><literalExpression id="l"><text>bkm</text></literalExpression></invocation>', /holds an invocation/],
    ['a relation', '<relation id="r"><column id="c" name="x" /></relation>', /holds a relation/],
    ['a boxed list', '<list id="l"><literalExpression id="e"><text>1</text></literalExpression></list>', /holds a boxed list/],
    [
      'a function definition',
      '<functionDefinition id="f"><literalExpression id="e"><text>1</text></literalExpression></functionDefinition>',
      /holds a function definition/,
    ],
    ['no logic', '', /holds no decision logic/],
  ])('reports a decision holding %s', async (_, logic, message) => {
    const reading = await read(dmn(`<decision id="d" name="D">${logic}</decision>${tableDecision()}`));
    expect(reading.notCarried).toContainEqual({ element: 'decision#d', message: expect.stringMatching(message) });
    expect(reading.records).toHaveLength(1);
  });

  it.each([
    ['inputData', '<inputData id="e" name="E" />', /input data become the params/],
    ['businessKnowledgeModel', '<businessKnowledgeModel id="e" name="E" />', /business knowledge models/],
    ['decisionService', '<decisionService id="e" name="E" />', /decision services are not carried/],
    ['knowledgeSource', '<knowledgeSource id="e" name="E" />', /knowledge sources are not carried/],
    ['textAnnotation', '<textAnnotation id="e"><text>Note</text></textAnnotation>', /textAnnotation elements are not carried/],
    ['association', '<association id="e"><sourceRef href="#discount" /><targetRef href="#n" /></association>', /association elements are not carried/],
    ['group', '<group id="e" name="E" />', /group elements are not carried/],
    ['import', '<import id="e" name="E" namespace="urn:other" importType="https://www.omg.org/spec/DMN/20191111/MODEL/" />', /import elements are not carried/],
  ])('reports %s by element', async (type, element, message) => {
    const reading = await read(dmn(element + tableDecision()));
    expect(reading.notCarried).toContainEqual({ element: expect.stringMatching(new RegExp(`^${type}#e`)), message: expect.stringMatching(message) });
  });

  it('reports an item definition with no service type', async () => {
    const reading = await read(dmn(`<itemDefinition id="f" name="tFunction"><functionItem id="fi" /></itemDefinition>${tableDecision()}`));
    expect(reading.notCarried).toContainEqual({ element: 'itemDefinition#f ("tFunction")', message: expect.stringMatching(/has no service type/) });
  });

  it('reports DMN properties with no place in the service, other tools’ attributes and extensions, and elements moddle cannot read', async () => {
    const xml = dmn(
      `<decision id="discount" name="Discount" acme:owner="pricing">
        <extensionElements><acme:audit by="x" /></extensionElements>
        <question>How much off?</question>
        <decisionTable id="table">
          <input id="amount"><inputExpression id="e" typeRef="number"><text>amount</text></inputExpression><inputValues id="v"><text>&gt; 0</text></inputValues></input>
          <output id="rate" name="rate" typeRef="number" />
          <mystery />
        </decisionTable>
      </decision>`,
      model13,
      'xmlns:acme="urn:acme"',
    );
    const reading = await read(xml);
    const said = reading.notCarried.map((finding) => `${finding.element}: ${finding.message}`);
    expect(said).toEqual(
      expect.arrayContaining([
        'decision#discount: question "How much off?" is not carried',
        'decision#discount: the extension element <acme:audit> is not carried',
        'decision#discount: the attribute acme:owner="pricing" is not carried',
        'decision#discount/decisionTable/input#amount: inputValues is not carried',
        expect.stringMatching(/^line \d+, column \d+: <mystery>: unknown type <dmn:Mystery>: the element and all it holds are not read$/),
      ]),
    );
  });

  it('refuses a file with nothing to import', async () => {
    const reading = await read(dmn('<inputData id="e" name="E" />'));
    expect(reading.problems).toEqual([{ element: 'definitions', message: 'the file holds no decision table or literal expression to import' }]);
  });

  it('refuses a file that is not DMN, or not well-formed, as a problem', async () => {
    for (const xml of ['<process xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" />', dmn('<decision id="a">'), 'not xml at all']) {
      const reading = await read(xml);
      expect(reading.records).toEqual([]);
      expect(reading.problems).toEqual([{ element: 'file', message: expect.stringMatching(/^not a DMN 1.1–1.5 file/) }]);
    }
  });
});

describe('DMN versions', () => {
  it.each([
    ['1.1', 'http://www.omg.org/spec/DMN/20151101/dmn.xsd'],
    ['1.1 (Camunda 7.4)', 'http://www.omg.org/spec/DMN/20151101/dmn11.xsd'],
    ['1.2', 'http://www.omg.org/spec/DMN/20180521/MODEL/'],
    ['1.3', 'https://www.omg.org/spec/DMN/20191111/MODEL/'],
    ['1.4', 'https://www.omg.org/spec/DMN/20211108/MODEL/'],
    ['1.5', 'https://www.omg.org/spec/DMN/20230324/MODEL/'],
  ])('reads DMN %s alike, its diagram included', async (_, namespace) => {
    const dmndi = {
      'http://www.omg.org/spec/DMN/20180521/MODEL/': 'http://www.omg.org/spec/DMN/20180521/DMNDI/',
      'https://www.omg.org/spec/DMN/20191111/MODEL/': 'https://www.omg.org/spec/DMN/20191111/DMNDI/',
      'https://www.omg.org/spec/DMN/20211108/MODEL/': 'https://www.omg.org/spec/DMN/20191111/DMNDI/',
      'https://www.omg.org/spec/DMN/20230324/MODEL/': 'https://www.omg.org/spec/DMN/20230324/DMNDI/',
    }[namespace];
    const diagram = dmndi
      ? `<dmndi:DMNDI><dmndi:DMNDiagram id="diagram"><dmndi:DMNShape id="shape" dmnElementRef="discount"><dc:Bounds height="80" width="180" x="0" y="0" /></dmndi:DMNShape></dmndi:DMNDiagram></dmndi:DMNDI>`
      : '';
    const more = dmndi ? `xmlns:dmndi="${dmndi}" xmlns:dc="http://www.omg.org/spec/DMN/20180521/DC/"` : '';
    const reading = await read(dmn(tableDecision() + diagram, namespace, more));
    const reference = await read(dmn(tableDecision()));
    expect(reading.problems).toEqual([]);
    expect(reading.records).toEqual(reference.records);
    expect(reading.notCarried).toEqual(dmndi ? [{ element: 'DMNDiagram#diagram', message: expect.stringMatching(/layout/) }] : []);
  });
  it('renames namespace declarations only, never text that names a namespace', async () => {
    const rules = `<rule id="r"><inputEntry id="r1"><text>"${model13}"</text></inputEntry><outputEntry id="r2"><text>1</text></outputEntry></rule>`;
    const input = '<input id="uri"><inputExpression id="e" typeRef="string"><text>uri</text></inputExpression></input>';
    const reading = await read(dmn(tableDecision({ input, rules }), 'http://www.omg.org/spec/DMN/20180521/MODEL/'));
    expect(onlyTable(reading).definition.rules[0]!.when).toEqual([`"${model13}"`]);
  });
});

describe('bounds, checked before the file is parsed', () => {
  /** What reading refuses: the bound and status of the ImportBoundExceeded thrown. */
  async function refusal(body: string | Uint8Array): Promise<{ bound: string; status: number }> {
    const error = await read(body).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportBoundExceeded);
    const { bound, status } = error as ImportBoundExceeded;
    return { bound, status };
  }

  it('refuses a file past the size bound with 413', async () => {
    const big = dmn(tableDecision()) + ' '.repeat(importBounds.maxFileBytes);
    expect(await refusal(big)).toEqual({ bound: 'maxFileBytes', status: 413 });
  });

  it('refuses entity expansion (billion laughs)', async () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE definitions [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<definitions xmlns="${model13}" id="d" name="&lol3;" namespace="urn:x"/>`;
    expect(await refusal(laughs)).toEqual({ bound: 'doctype', status: 400 });
  });

  it('refuses external entities (XXE), and an ENTITY declaration anywhere', async () => {
    const xxe = `<?xml version="1.0"?>
<!DOCTYPE definitions [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
<definitions xmlns="${model13}" id="d" name="&secret;" namespace="urn:x"/>`;
    expect(await refusal(xxe)).toEqual({ bound: 'doctype', status: 400 });
    expect(await refusal(dmn('<!-- <!ENTITY x "y"> -->' + tableDecision()))).toEqual({ bound: 'doctype', status: 400 });
  });

  it('refuses elements nested past the depth bound, however malformed the rest', async () => {
    const deep = '<extensionElements>'.repeat(importBounds.maxDepth) + '<unclosed';
    expect(await refusal(dmn(`<decision id="d">${deep}`))).toEqual({ bound: 'maxDepth', status: 400 });
    // At the bound itself, the file is read.
    const nested = (n: number) => `${'<x:e>'.repeat(n)}${'</x:e>'.repeat(n)}`;
    const atBound = dmn(
      `<decision id="d" name="D"><extensionElements>${nested(importBounds.maxDepth - 3)}</extensionElements></decision>`,
      model13,
      'xmlns:x="urn:x"',
    );
    await expect(read(atBound)).resolves.toBeDefined();
  });

  it('refuses more decisions, rows or columns than a file may hold', async () => {
    const decisions = Array.from({ length: importBounds.maxTables + 1 }, (_, i) => `<decision id="d${i}" name="D${i}" />`).join('');
    expect(await refusal(dmn(decisions + '<unclosed'))).toEqual({ bound: 'maxTables', status: 400 });
    const rows = '<rule />'.repeat(importBounds.maxRows + 1);
    expect(await refusal(dmn(tableDecision({ rules: rows }) + '<unclosed'))).toEqual({ bound: 'maxRows', status: 400 });
    const columns = '<input />'.repeat(importBounds.maxColumns + 1);
    expect(await refusal(dmn(tableDecision({ input: columns }) + '<unclosed'))).toEqual({ bound: 'maxColumns', status: 400 });
  });

  it('refuses text that is not UTF-8', async () => {
    const latin1 = Uint8Array.from([...new TextEncoder().encode(dmn('<decision id="d" name="Caf')), 0xe9, ...new TextEncoder().encode('" />')]);
    expect(await refusal(latin1)).toEqual({ bound: 'encoding', status: 400 });
    expect(await refusal(dmn(tableDecision()).replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'))).toEqual({ bound: 'encoding', status: 400 });
    expect(await refusal(Uint8Array.from([0xff, 0xfe, 0x3c, 0x00]))).toEqual({ bound: 'encoding', status: 400 });
    // A UTF-8 byte order mark is fine.
    const withBom = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(dmn(tableDecision()))]);
    expect((await read(withBom)).records).toHaveLength(1);
  });
});

describe('writing DMN', () => {
  const table = canonical({
    id: '2025.discounts',
    name: 'Discounts',
    description: 'Why the rates are what they are',
    tags: ['pricing'],
    type: 'decisionTable',
    definition: {
      hitPolicy: 'collect',
      aggregation: 'sum',
      inputs: [{ id: 'amount', label: 'Amount', expression: 'amount', type: 'number' }],
      outputs: [{ id: 'rate', name: 'rate', type: 'number' }],
      rules: [{ when: ['>\t100'], then: [0.1] }],
    },
  });

  it('writes DMN 1.5 with a diagram that places the decision, and moddle reads it without a warning', async () => {
    const file = await dmnFormat.write(table);
    expect(file).toMatchObject({ fileName: '2025.discounts.dmn', contentType: 'application/xml' });
    const xml = new TextDecoder().decode(file.body);
    expect(xml).toContain('<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" xmlns:dmndi="https://www.omg.org/spec/DMN/20230324/DMNDI/"');
    expect(xml).toMatch(/<dmndi:DMNShape id="[^"]+" dmnElementRef="_2025.discounts">\s*<dc:Bounds height="80" width="180" x="160" y="100" \/>/);
    expect(xml).toContain('<decisionTable id="_2025.discounts_table" hitPolicy="COLLECT" aggregation="SUM">');
    const { warnings, rootElement } = await dmnModdle().fromXML(xml);
    expect(warnings).toEqual([]);
    expect(rootElement.$type).toBe('dmn:Definitions');
  });

  it('writes tabs and carriage returns as character references, which every XML reader keeps', async () => {
    const rule = canonical({ id: 'r', name: 'R', type: 'simpleRule', definition: { when: 'a\r\n\tor b', then: { x: 1 } } });
    const xml = new TextDecoder().decode((await dmnFormat.write(rule)).body);
    expect(xml).not.toMatch(/[\t\r]/);
    expect(xml).toContain('if a&#13;\n&#9;or b');
  });

  it('refuses rule sets, workflows and text XML cannot hold', async () => {
    const ruleSet = canonical({ id: 's', name: 'S', type: 'ruleSet', definition: { rules: [{ id: 'a', ruleId: 'a' }] } });
    expect(dmnFormat.cannotHold(ruleSet)).toMatch(/a rule set runs other rules/);
    await expect(dmnFormat.write(ruleSet)).rejects.toThrow(/rule set/);
    expect(dmnFormat.cannotHold({ ...ruleSet, type: 'workflow' } as unknown as EntityInput)).toMatch(/a workflow is not a decision/);
    const control = canonical({ ...table, definition: { ...table.definition, rules: [{ when: ['"\u0001"'], then: [1] }] } });
    expect(dmnFormat.cannotHold(control)).toMatch(/^entity.definition.rules.0.when.0 holds a character XML cannot hold/);
  });
});
