/**
 * DMN 1.5 XML, the format of Camunda's and Drools' decision models, read and
 * written with dmn-moddle (bpmn-io's DMN model, which Camunda's tools use).
 * Reading (DMN 1.1 to 1.5, other tools' files) is `./dmn-read.ts`; this
 * module writes, and says what it cannot.
 *
 * One entity is one file: a `definitions` with one decision and a DMNDI
 * diagram that places it, so modelers (dmn-js, Camunda Modeler, KIE) lay it
 * out and open it.
 *
 * - A decision table is the decision's `decisionTable`: hit policy and
 *   aggregation; input clauses (id, label, expression, typeRef); output
 *   clauses (id, label, name, typeRef, allowed values as output values, the
 *   default as the default output entry); rules (id, description, entries).
 *   Types are written as FEEL names (`date and time`, `days and time
 *   duration`, ...: `./dmn-model.ts`).
 * - A simple rule whose condition is `true` with one output and no
 *   otherwise is a literal expression (the output's name is the decision's
 *   variable): what a DMN literal-expression decision reads as. Any other
 *   simple rule is written as `if … then {…} else {…}`, so other tools run
 *   it, and the rule itself travels in the extension; the reader takes the
 *   extension's rule while the expression is still the one written.
 * - Rule sets and workflows are refused (`cannotHold`): a rule set runs
 *   other rules of the branch by reference, which one file cannot hold.
 *
 * Ids are kept: a service id is an XML id (with a leading '_' when it starts
 * with a digit); one taken already in the file (an input and an output may
 * share an id) or absent (a row may have none) gets an id made for it, and
 * the service's id travels in the extension. Texts travel exactly: XML
 * readers normalise raw tabs in attributes and carriage returns everywhere,
 * so both are written as character references; text that is only whitespace
 * (which moddle's reader drops from an element's body) travels in the
 * extension. Characters XML cannot hold at all (most control characters)
 * make the entity refused.
 */
import type { ModdleElement } from 'dmn-moddle';
import { Decimal } from '../decimal/decimal.ts';
import type { OutputEntry, ValueType } from '../engine/definitions.ts';
import type { EntityInput } from '../entities/schema.ts';
import { readDmn } from './dmn-read.ts';
import {
  aggregationNames,
  builtInType,
  dmn13,
  decisionBounds,
  dmn15,
  dmnModdle,
  hitPolicyNames,
  serviceExtensionType,
  serviceIdOf,
  serviceNamespace,
  simpleRuleText,
  typeRefs,
  xmlIdOf,
  type CarriedFields,
  type ExactValues,
} from './dmn-model.ts';
import { feelLiteral, outputEntryText } from './feel-literals.ts';
import { fileNameOf, formatFiles, type Format, type WriteOptions, type WrittenFile } from './format-contract.ts';

type DecisionTableEntity = Extract<EntityInput, { type: 'decisionTable' }>;
type SimpleRuleEntity = Extract<EntityInput, { type: 'simpleRule' }>;

/** Characters XML 1.0 cannot hold, not even as character references: C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF; lone surrogates. */
const notXmlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path of the first text (or key) under `value` that XML cannot hold. */
function textXmlCannotHold(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return notXmlCharacter.test(value) ? path : undefined;
  if (value === null || typeof value !== 'object' || value instanceof Decimal) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = notXmlCharacter.test(key) ? `${path}.${key}` : textXmlCannotHold(item, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

function cannotHold(entity: EntityInput): string | undefined {
  if (entity.type === 'ruleSet')
    return 'a rule set runs other rules of the branch by reference, which one DMN file cannot hold: export the rules it runs, each as its own file';
  if (entity.type === 'workflow') return 'a workflow is not a decision: DMN holds decision tables and simple rules';
  const path = textXmlCannotHold(entity, 'entity');
  return path && `${path} holds a character XML cannot hold (a control character, U+FFFE or U+FFFF, or half a surrogate pair)`;
}

/** The layout of the one decision: where Camunda Modeler puts a new decision, at its size. */

/** One document being written: its XML ids (unique within it) and the values its XML cannot give back exactly. */
class DmnDocument {
  readonly model = dmnModdle();
  readonly exact = new Map<string, ExactValues>();
  private readonly used = new Set<string>();

  create(type: string, properties: Record<string, unknown>): ModdleElement {
    return this.model.create(type, properties);
  }

  /** A new XML id: `preferred`, or it with a number appended when the file has it already. */
  id(preferred: string): string {
    let id = preferred;
    for (let n = 2; this.used.has(id); n++) id = `${preferred}_${n}`;
    this.used.add(id);
    return id;
  }

  /** The XML id of something the service names `serviceId` (or leaves unnamed), keeping the service's id when the XML id does not give it back. */
  idFor(serviceId: string | undefined, unnamed: string): string {
    const id = this.id(serviceId === undefined ? unnamed : xmlIdOf(serviceId));
    if (serviceIdOf(id) !== serviceId) this.keep(id, { id: serviceId ?? null });
    return id;
  }

  keep(xmlId: string, values: ExactValues) {
    this.exact.set(xmlId, { ...this.exact.get(xmlId), ...values });
  }

  /** Text for an element's body: text that is only whitespace, which XML readers drop, is kept exactly and written empty. */
  body(xmlId: string, text: string, field: 'text' | 'description' = 'text'): string {
    if (text === '' || text.trim() !== '') return text;
    this.keep(xmlId, { [field]: text });
    return '';
  }

  /** A description, where there is one to write. */
  description(xmlId: string, description: string | undefined): { description?: string } {
    if (description === undefined) return {};
    const text = this.body(xmlId, description, 'description');
    return text === '' && description !== '' ? {} : { description: text };
  }

  /** The typeRef of a service type, keeping the older names (object, array) that read back as their current ones. */
  typeRef(xmlId: string, type: ValueType): string {
    if (builtInType(typeRefs[type]) !== type) this.keep(xmlId, { type });
    return typeRefs[type];
  }

  literal(xmlId: string, text: string): ModdleElement {
    return this.create('dmn:LiteralExpression', { id: xmlId, text: this.body(xmlId, text) });
  }
}

function decisionTable(doc: DmnDocument, decisionId: string, d: DecisionTableEntity['definition']): ModdleElement {
  // Every service id is placed before any id is made up, so that a made-up id never takes one.
  const inputIds = d.inputs.map((input) => doc.idFor(input.id, 'input'));
  const outputIds = d.outputs.map((output) => doc.idFor(output.id, 'output'));
  const namedRuleIds = d.rules.map((rule) => rule.id && doc.idFor(rule.id, 'rule'));
  const ruleIds = namedRuleIds.map((id, r) => id || doc.idFor(undefined, `${decisionId}_rule_${r + 1}`));
  return doc.create('dmn:DecisionTable', {
    id: doc.id(`${decisionId}_table`),
    hitPolicy: hitPolicyNames[d.hitPolicy],
    ...(d.aggregation && { aggregation: aggregationNames[d.aggregation] }),
    input: d.inputs.map((input, i) => {
      const id = inputIds[i]!;
      const expressionId = doc.id(`${id}_expression`);
      return doc.create('dmn:InputClause', {
        id,
        ...(input.label !== undefined && { label: input.label }),
        inputExpression: doc.create('dmn:LiteralExpression', {
          id: expressionId,
          typeRef: doc.typeRef(id, input.type),
          text: doc.body(expressionId, input.expression),
        }),
      });
    }),
    output: d.outputs.map((output, o) => {
      const id = outputIds[o]!;
      return doc.create('dmn:OutputClause', {
        id,
        ...(output.label !== undefined && { label: output.label }),
        name: output.name,
        typeRef: doc.typeRef(id, output.type),
        ...(output.allowedValues && {
          outputValues: doc.create('dmn:UnaryTests', { id: doc.id(`${id}_values`), text: output.allowedValues.map(feelLiteral).join(',') }),
        }),
        ...(output.default !== undefined && { defaultOutputEntry: doc.literal(doc.id(`${id}_default`), outputEntryText(output.default)) }),
      });
    }),
    rule: d.rules.map((rule, r) => {
      const id = ruleIds[r]!;
      return doc.create('dmn:DecisionRule', {
        id,
        ...doc.description(id, rule.description),
        inputEntry: rule.when.map((cell, c) => {
          const cellId = doc.id(`${id}_when_${c + 1}`);
          return doc.create('dmn:UnaryTests', { id: cellId, text: doc.body(cellId, cell) });
        }),
        outputEntry: rule.then.map((entry, o) => doc.literal(doc.id(`${id}_then_${o + 1}`), outputEntryText(entry))),
      });
    }),
  });
}

/** The one output of a simple rule that a literal expression holds exactly, if it is one. */
function literalForm(d: SimpleRuleEntity['definition']): [string, OutputEntry] | undefined {
  const outputs = Object.entries(d.then);
  return d.when === 'true' && !d.otherwise && outputs.length === 1 ? outputs[0] : undefined;
}

/** The decision's logic and variable for a simple rule, and the rule itself when the expression cannot give it back. */
function simpleRule(doc: DmnDocument, decisionId: string, entity: SimpleRuleEntity): { logic: ModdleElement; variable: string; carried?: CarriedFields } {
  const d = entity.definition;
  const id = doc.id(`${decisionId}_expression`);
  const single = literalForm(d);
  if (single) return { logic: doc.literal(id, outputEntryText(single[1])), variable: single[0] };
  const { when, then, otherwise } = d;
  return { logic: doc.literal(id, simpleRuleText(d)), variable: entity.name, carried: { simpleRule: { when, then, ...(otherwise && { otherwise }) } } };
}

/** The service's fields DMN has no place for, as the extension element; undefined when there are none. */
function extension(doc: DmnDocument, entity: DecisionTableEntity | SimpleRuleEntity, carried: CarriedFields | undefined): ModdleElement | undefined {
  const { parameters, tests, settings } = entity.definition;
  const fields: CarriedFields = {
    ...(entity.tags.length > 0 && { tags: entity.tags }),
    ...(parameters && { parameters }),
    ...(tests && { tests }),
    ...(settings && { settings }),
    ...carried,
    ...(doc.exact.size > 0 && { exact: Object.fromEntries(doc.exact) }),
  };
  if (Object.keys(fields).length === 0) return undefined;
  return doc.create('dmn:ExtensionElements', { values: [doc.create(serviceExtensionType, { json: JSON.stringify(fields) })] });
}

/**
 * DMN 1.5 with 1.3's namespaces: what Camunda Modeler and dmn-js open (their
 * model is 1.3's). A decision table or literal expression is written alike in
 * both versions, so only the declarations differ.
 */
const asDmn13 = (xml: string) =>
  xml.replace(`xmlns="${dmn15.model}"`, `xmlns="${dmn13.model}"`).replace(`xmlns:dmndi="${dmn15.dmndi}"`, `xmlns:dmndi="${dmn13.dmndi}"`);

async function writeDmn(entity: EntityInput, options: WriteOptions = {}): Promise<WrittenFile> {
  const refusal = cannotHold(entity);
  if (refusal) throw new Error(`cannot write ${entity.id} as DMN: ${refusal}`);
  const holdable = entity as DecisionTableEntity | SimpleRuleEntity;
  const doc = new DmnDocument();
  const decisionId = doc.idFor(entity.id, 'decision');
  const { logic, variable, carried } =
    holdable.type === 'decisionTable'
      ? { logic: decisionTable(doc, decisionId, holdable.definition), variable: undefined }
      : simpleRule(doc, decisionId, holdable);
  const variableElement =
    variable === undefined ? {} : { variable: doc.create('dmn:InformationItem', { id: doc.id(`${decisionId}_variable`), name: variable }) };
  const description = entity.description === '' ? {} : doc.description(decisionId, entity.description);
  const extensionElements = extension(doc, holdable, carried);
  const decision = doc.create('dmn:Decision', {
    id: decisionId,
    name: entity.name,
    ...description,
    ...(extensionElements && { extensionElements }),
    ...variableElement,
    decisionLogic: logic,
  });
  const shape = doc.create('dmndi:DMNShape', { id: doc.id(`${decisionId}_shape`), dmnElementRef: decision, bounds: doc.create('dc:Bounds', decisionBounds) });
  const definitions = doc.create('dmn:Definitions', {
    id: doc.id('definitions'),
    name: entity.name,
    namespace: `urn:rules-service:rule:${entity.id}`,
    exporter: 'rules-service',
    drgElement: [decision],
    dmnDI: doc.create('dmndi:DMNDI', { diagrams: [doc.create('dmndi:DMNDiagram', { id: doc.id('diagram'), diagramElements: [shape] })] }),
  });
  Object.assign(definitions.$attrs, { xmlns: dmn15.model, 'xmlns:dmndi': dmn15.dmndi, 'xmlns:dc': dmn15.dc, 'xmlns:rules': serviceNamespace });
  const { xml } = await doc.model.toXML(definitions, { format: true });
  // moddle writes tabs and carriage returns as they are, which XML readers normalise (a tab in an attribute becomes a space,
  // a carriage return a line feed); its own formatting has neither, so every one here is the text's and is made a reference.
  const exactXml = xml.replace(/[\t\r]/g, (c) => (c === '\t' ? '&#9;' : '&#13;'));
  const versioned = options.dmnVersion === '1.3' ? asDmn13(exactXml) : exactXml;
  return { fileName: fileNameOf(entity, '.dmn'), contentType: dmnFormat.contentType, body: new TextEncoder().encode(versioned) };
}

export const dmnFormat: Format = {
  name: 'dmn',
  ...formatFiles.dmn,
  read: readDmn,
  cannotHold,
  write: writeDmn,
};
