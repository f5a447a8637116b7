/**
 * What reading and writing DMN share: the model (dmn-moddle, bound to DMN
 * 1.5's namespaces), the vocabulary both ways (hit policies, type names,
 * ids), and the service's own extension, in which a decision carries what
 * DMN has no place for.
 *
 * dmn-moddle's model is DMN 1.3's. DMN 1.4 and 1.5 changed the namespaces but
 * nothing this service reads or writes (they added boxed expressions, which
 * are reported as not carried either way), and DMN 1.1 and 1.2 differ from
 * 1.3 only in what the service does not carry (diagram interchange, which
 * 1.1 lacked). So the model is bound to 1.5's namespaces, a file in 1.1 to
 * 1.4 is read with its namespace declarations renamed to 1.5's, and nothing
 * is lost by that.
 *
 * The extension (`<rules:entity>` in a decision's `extensionElements`, under
 * the service's namespace, which other tools ignore) holds JSON: the record's
 * tags, parameters, tests and settings; a simple rule that a literal
 * expression cannot hold exactly; and, by the XML id of the element they
 * belong to, the values the DMN beside them cannot give back exactly (see
 * `ExactValues`). The DMN itself stays meaningful without it.
 */
import { DmnModdle, type DmnModdleInstance, type Package } from 'dmn-moddle';
import dmnPackage from 'dmn-moddle/resources/dmn/json/dmn13.json' with { type: 'json' };
import dmndiPackage from 'dmn-moddle/resources/dmn/json/dmndi13.json' with { type: 'json' };
import type { Aggregation, HitPolicy, OutputEntry, ValueType } from '../engine/definitions.ts';
import { entityIdPattern } from '../vocabulary/kinds.ts';
import { feelStringLiteral, outputEntryText } from './feel-literals.ts';

export const dmn15 = {
  model: 'https://www.omg.org/spec/DMN/20230324/MODEL/',
  dmndi: 'https://www.omg.org/spec/DMN/20230324/DMNDI/',
  dc: 'http://www.omg.org/spec/DMN/20180521/DC/',
} as const;

/** DMN 1.3's namespaces, which Camunda Modeler and dmn-js read (the export's `dmnVersion=1.3`). */
export const dmn13 = {
  model: 'https://www.omg.org/spec/DMN/20191111/MODEL/',
  dmndi: 'https://www.omg.org/spec/DMN/20191111/DMNDI/',
} as const;

/** Where an export draws its one decision: a diagram of exactly that is what the service writes, and loses nothing when read. */
export const decisionBounds = { x: 160, y: 100, width: 180, height: 80 } as const;

/** The service's extension namespace. */
export const serviceNamespace = 'urn:rules-service:dmn:1';

/** The namespaces of DMN 1.1 to 1.4 (model and diagram interchange) and the 1.5 namespace each is read as. DC and DI kept theirs since 1.2. */
const namespacesReadAs15: Record<string, string> = {
  'http://www.omg.org/spec/DMN/20151101/dmn.xsd': dmn15.model,
  'http://www.omg.org/spec/DMN/20151101/dmn11.xsd': dmn15.model,
  'http://www.omg.org/spec/DMN/20180521/MODEL/': dmn15.model,
  [dmn13.model]: dmn15.model,
  'https://www.omg.org/spec/DMN/20211108/MODEL/': dmn15.model,
  'http://www.omg.org/spec/DMN/20180521/DMNDI/': dmn15.dmndi,
  [dmn13.dmndi]: dmn15.dmndi,
};
export const namespaceReadAs15 = (uri: string): string | undefined => namespacesReadAs15[uri];

const servicePackage: Package = {
  name: 'RulesService',
  prefix: 'rules',
  uri: serviceNamespace,
  xml: { tagAlias: 'lowerCase' },
  types: [{ name: 'Entity', superClass: ['Element'], properties: [{ name: 'json', type: 'String', isBody: true }] }],
};
export const serviceExtensionType = 'rules:Entity';

/**
 * dmn-moddle's packages bound to DMN 1.5's namespaces: fresh copies, as a
 * model changes the packages it registers. dmn-js (whose model is DMN 1.3's)
 * opens what this service writes when given them as `moddleExtensions`.
 */
export const dmn15Packages = (): Record<'dmn' | 'dmndi', Package> => ({
  dmn: { ...(structuredClone(dmnPackage) as Package), uri: dmn15.model },
  dmndi: { ...(structuredClone(dmndiPackage) as Package), uri: dmn15.dmndi },
});

let model: DmnModdleInstance | undefined;
/** The model, made on first use: only imports and exports pay for it. */
export const dmnModdle = (): DmnModdleInstance => (model ??= DmnModdle({ ...dmn15Packages(), rules: servicePackage }));

/**
 * Values the DMN cannot give back exactly, kept in the extension by the XML
 * id of the element they belong to. Each applies only while the DMN still
 * holds what was written beside it, so an edit made in another tool wins.
 */
export interface ExactValues {
  /** The service's id, where the XML id is not it (taken, or the service has none: null). */
  id?: string | null;
  /** Text that is only whitespace, which XML readers drop from an element's body. */
  text?: string;
  description?: string;
  /** The older type names (object, array), written as their current ones (context, list). */
  type?: ValueType;
}

/** What the extension's JSON holds. */
export interface CarriedFields {
  tags?: unknown;
  parameters?: unknown;
  tests?: unknown;
  settings?: unknown;
  /** A simple rule written as `if … then … else …`, which a literal expression gives back only as one output. */
  simpleRule?: { when: unknown; then: unknown; otherwise?: unknown };
  exact?: Record<string, ExactValues>;
}
export const carriedFieldNames: readonly (keyof CarriedFields)[] = ['tags', 'parameters', 'tests', 'settings', 'simpleRule', 'exact'];

export const hitPolicyNames: Record<HitPolicy, string> = {
  unique: 'UNIQUE',
  first: 'FIRST',
  priority: 'PRIORITY',
  any: 'ANY',
  collect: 'COLLECT',
  ruleOrder: 'RULE ORDER',
  outputOrder: 'OUTPUT ORDER',
};
export const aggregationNames: Record<Aggregation, string> = { sum: 'SUM', min: 'MIN', max: 'MAX', count: 'COUNT' };

/** The typeRef each service type is written as: FEEL's own type names, which DMN 1.5 tools read. */
export const typeRefs: Record<ValueType, string> = {
  number: 'number',
  string: 'string',
  boolean: 'boolean',
  date: 'date',
  datetime: 'date and time',
  time: 'time',
  duration: 'days and time duration',
  list: 'list',
  context: 'context',
  object: 'context',
  array: 'list',
};

/** Built-in typeRefs as FEEL, Camunda (dmn-js), Drools and XML Schema write them, lower case, `feel:` or `xsd:` prefix dropped. */
const builtInTypes: Record<string, ValueType> = {
  number: 'number',
  integer: 'number',
  int: 'number',
  long: 'number',
  double: 'number',
  decimal: 'number',
  float: 'number',
  string: 'string',
  boolean: 'boolean',
  date: 'date',
  'date and time': 'datetime',
  datetime: 'datetime',
  time: 'time',
  'days and time duration': 'duration',
  'years and months duration': 'duration',
  daytimeduration: 'duration',
  yearmonthduration: 'duration',
  duration: 'duration',
  list: 'list',
  context: 'context',
};

/** The service type of a built-in typeRef, or undefined (an item definition's name, `Any`, or a type the service has not). */
export const builtInType = (typeRef: string): ValueType | undefined =>
  builtInTypes[
    typeRef
      .replace(/^(?:feel|xsd|xs):/i, '')
      .trim()
      .replace(/\s+/g, ' ')
      .toLowerCase()
  ];

/**
 * The XML id of a service id. Service ids are letters, digits, '.', '_' and
 * '-', starting with a letter or digit; an XML id may not start with a
 * digit, so such an id is written with a leading '_', which `serviceIdOf`
 * drops.
 */
export const xmlIdOf = (serviceId: string): string => (/^[0-9]/.test(serviceId) ? `_${serviceId}` : serviceId);

/**
 * The service id an XML id reads as: the id itself, without the leading
 * underscores that make ids valid XML (Drools starts every id with one), and
 * with any other character a service id cannot hold (a prefix's ':') made '_'.
 * Undefined when nothing is left.
 */
export function serviceIdOf(xmlId: string): string | undefined {
  const id = xmlId
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^[._-]+/, '')
    .slice(0, 128);
  return entityIdPattern.test(id) ? id : undefined;
}

interface SimpleRuleShape {
  when: string;
  then: Record<string, OutputEntry>;
  otherwise?: Record<string, OutputEntry>;
}

const contextText = (outputs: Record<string, OutputEntry>) =>
  `{${Object.entries(outputs)
    .map(([name, entry]) => `${feelStringLiteral(name)}: ${outputEntryText(entry)}`)
    .join(', ')}}`;

/** A simple rule as one FEEL expression, for tools that run DMN: its outputs as a context when the condition holds, the otherwise outputs (or null) when not. */
export const simpleRuleText = (d: SimpleRuleShape): string =>
  `if ${d.when}\nthen ${contextText(d.then)}\nelse ${d.otherwise ? contextText(d.otherwise) : 'null'}`;
