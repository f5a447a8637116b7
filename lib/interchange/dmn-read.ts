/**
 * Reading DMN XML (1.1 to 1.5, as Camunda, Drools/KIE and this service write
 * it) into rule records. What the service keeps, and what it reads from:
 *
 * - A decision whose logic is a decision table becomes a `decisionTable`
 *   record: the decision's id, name and description; the hit policy (DMN's
 *   default, UNIQUE, when none is written) and aggregation; each input
 *   clause's id, label, expression and typeRef; each output clause's id,
 *   label, name (the decision's variable when a single output has none),
 *   typeRef, output values (as `allowedValues`, when they are a list of
 *   literals) and default output entry; each rule's id, description and
 *   entries. A rule without a description takes its first annotation entry
 *   (DMN 1.3's annotation columns, which Drools writes); other annotation
 *   columns are reported.
 * - A decision whose logic is a literal expression becomes a `simpleRule`
 *   that always answers the expression under the decision's variable name:
 *   `{ when: "true", then: { <variable>: <expression> } }`; or the rule the
 *   service's extension carries, while the expression is still the one
 *   written beside it (`./dmn.ts`).
 * - typeRefs: FEEL's names, Camunda's and Drools' (`integer`, `long`,
 *   `double`, `dateTime`, `dayTimeDuration`, ...) with or without a `feel:`
 *   prefix, and item definitions that come down to one of them. A column
 *   with no typeRef, `Any`, or a type the service has not takes the type its
 *   literal entries share (string when they share none), and is reported.
 * - A decision that requires other decisions becomes a rule set with the
 *   decision's id, running the decisions it requires (all of them, in
 *   dependency order) and then its own logic, which is imported as
 *   `<id>.logic`: a reference runs a rule with the params and the outputs
 *   so far, so a decision reads the outputs of those it requires, as
 *   Camunda evaluates a DRD. When a required decision is not imported (it is
 *   in another file, or its logic is not carried), or the requirements form
 *   a cycle, no rule set is made and the requirement is reported.
 * - Input data a decision requires become its declared params (with the
 *   outputs of the decisions it requires), so that names with spaces, which
 *   Drools models use, read as FEEL names; but only where the decision's
 *   expressions name every one of them (Camunda's diagrams often show input
 *   data that the tables name otherwise), else nothing is declared and that
 *   is reported.
 * - Names, labels and descriptions are one line in the service: line breaks
 *   in them read as spaces, reported.
 *
 * Everything else the file holds is listed in `notCarried` by element, with
 * the reason: input data (they become the params), business knowledge
 * models, decision services, knowledge sources and their requirements, boxed
 * contexts, invocations, relations, lists and functions, item definitions,
 * imports, text annotations, associations and groups, other tools'
 * attributes and extension elements, DMN properties the service has no
 * place for (input values, a question, an output label, ...), the diagram's
 * layout, and whatever dmn-moddle could not read. Only the identity of the
 * file itself (the definitions' id, name, namespace and exporter) and the
 * ids of elements the service has no counterpart for (entries, expressions)
 * are left out unsaid: they describe the file, not the rules, and an export
 * makes its own.
 *
 * Records are raw: the caller validates each with the entity schema and
 * checks its FEEL with the engine. Bounds are checked before moddle reads
 * anything (`./xml-scan.ts`).
 */
import type { ModdleElement, ParseResult, ParseWarning } from 'dmn-moddle';
import { Decimal, isNum } from '../decimal/decimal.ts';
import { parseJson } from '../decimal/json.ts';
import { valueTypes, type OutputEntry, type ValueType } from '../engine/definitions.ts';
import {
  decisionBounds,
  aggregationNames,
  builtInType,
  carriedFieldNames,
  dmnModdle,
  hitPolicyNames,
  namespaceReadAs15,
  serviceExtensionType,
  serviceIdOf,
  simpleRuleText,
  typeRefs,
  type CarriedFields,
  type ExactValues,
} from './dmn-model.ts';
import { parseLiteralList } from './feel-literals.ts';
import { ImportBoundExceeded, importBounds, refuseOversizeFile, type FileReading, type Finding } from './format-contract.ts';
import { scanXml, utf8Text } from './xml-scan.ts';

interface DmnElement extends ModdleElement {
  id?: string;
  name?: string;
  label?: string;
  description?: string;
  typeRef?: string;
  extensionElements?: { values?: ModdleElement[] };
}
interface TextElement extends DmnElement {
  text?: string;
  expressionLanguage?: string;
}
interface InputClause extends DmnElement {
  inputExpression?: TextElement;
}
interface OutputClause extends DmnElement {
  outputValues?: TextElement;
  defaultOutputEntry?: TextElement;
}
interface DecisionRule extends DmnElement {
  inputEntry?: TextElement[];
  outputEntry?: TextElement[];
  annotationEntry?: TextElement[];
}
interface DecisionTable extends DmnElement {
  hitPolicy?: string;
  aggregation?: string;
  preferredOrientation?: string;
  input?: InputClause[];
  output?: OutputClause[];
  annotation?: DmnElement[];
  rule?: DecisionRule[];
}
interface Reference extends ModdleElement {
  href?: string;
}
interface Requirement extends DmnElement {
  requiredDecision?: Reference;
  requiredInput?: Reference;
  requiredKnowledge?: Reference;
  requiredAuthority?: Reference;
}
interface InputData extends DmnElement {
  variable?: DmnElement;
}
interface Decision extends InputData {
  informationRequirement?: Requirement[];
  knowledgeRequirement?: Requirement[];
  authorityRequirement?: Requirement[];
  decisionLogic?: DmnElement;
}
interface ItemDefinition extends DmnElement {
  isCollection?: boolean;
  itemComponent?: ItemDefinition[];
  allowedValues?: TextElement;
}
interface DiagramElement extends DmnElement {
  dmnElementRef?: ModdleElement;
}
interface Definitions extends DmnElement {
  expressionLanguage?: string;
  drgElement?: DmnElement[];
  itemDefinition?: ItemDefinition[];
  artifact?: DmnElement[];
  import?: DmnElement[];
  elementCollection?: DmnElement[];
  businessContextElement?: DmnElement[];
  dmnDI?: { diagrams?: (DmnElement & { diagramElements?: DiagramElement[] })[]; styles?: DmnElement[] };
}

/** What a decision becomes: its logic's record, and the decisions it requires (by href). */
interface ReadDecision {
  element: Decision;
  where: string;
  id: string;
  record: { id: string; name: string; definition: Definition; [field: string]: unknown };
  requires: Requirement[];
}

/** A definition as this reader makes it (the FEEL texts still text), before the entity schema reads it. */
interface Definition {
  hitPolicy?: string;
  aggregation?: string;
  inputs?: { expression: string; type: ValueType }[];
  outputs?: { name: string; type: ValueType; default?: string }[];
  rules?: { when: string[]; then: string[] }[];
  when?: string;
  then?: Record<string, OutputEntry>;
  otherwise?: Record<string, OutputEntry>;
  parameters?: unknown;
}

/** The FEEL texts of a definition, where the params it reads are named. */
const feelTexts = ({ inputs = [], outputs = [], rules = [], when, then = {}, otherwise = {} }: Definition): unknown[] => [
  when,
  ...Object.values(then),
  ...Object.values(otherwise),
  ...inputs.map((input) => input.expression),
  ...outputs.map((output) => output.default),
  ...rules.flatMap((rule) => [...rule.when, ...rule.then]),
];

/** The bounds on decisions, rows and columns, counted as the scan opens elements, before moddle builds any. */
function tableCounter(): (name: string, parent: string | undefined) => void {
  let decisions = 0;
  let rows = 0;
  let columns = 0;
  return (name, parent) => {
    if (name === 'decision' && parent === 'definitions' && ++decisions > importBounds.maxTables)
      throw new ImportBoundExceeded('maxTables', `the file holds more than ${importBounds.maxTables} decisions`);
    if (name === 'decisionTable') rows = columns = 0;
    if (parent !== 'decisionTable') return;
    if (name === 'rule' && ++rows > importBounds.maxRows)
      throw new ImportBoundExceeded('maxRows', `a decision table holds more than ${importBounds.maxRows} rules`);
    if ((name === 'input' || name === 'output' || name === 'annotation') && ++columns > importBounds.maxColumns)
      throw new ImportBoundExceeded('maxColumns', `a decision table holds more than ${importBounds.maxColumns} columns`);
  };
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, '; ');
const quoted = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
const localType = (element: ModdleElement) => {
  const name = element.$type.slice(element.$type.indexOf(':') + 1);
  return name[0]!.toLowerCase() + name.slice(1);
};
const named = (element: DmnElement) => `${localType(element)}#${element.id ?? '?'}${element.name ? ` (${quoted(element.name)})` : ''}`;
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Decimal);
const isOutputEntry = (value: unknown) => value === null || typeof value === 'string' || typeof value === 'boolean' || isNum(value);
const isOutputs = (value: unknown): value is Record<string, OutputEntry> => isObject(value) && Object.values(value).every(isOutputEntry);
const isFeel = (language: string | undefined) => language === undefined || /feel/i.test(language);

/** What the leading literal of an entry (`< 5`, `not("a")`, `[1..2]`, `date("…")`) is a literal of; undefined for `-`, empty and expressions. */
const literalKinds: [RegExp, ValueType][] = [
  [/^"/, 'string'],
  [/^(?:true|false)\b/, 'boolean'],
  [/^date and time\s*\(/, 'datetime'],
  [/^date\s*\(/, 'date'],
  [/^time\s*\(/, 'time'],
  [/^duration\s*\(/, 'duration'],
  [/^-?\.?\d/, 'number'],
];
function literalKind(entry: string): ValueType | undefined {
  const start = entry
    .trim()
    .replace(/^not\s*\(\s*/, '')
    .replace(/^(?:[<>]=?|!?=)\s*/, '')
    .replace(/^[[(\]]\s*/, '');
  return literalKinds.find(([pattern]) => pattern.test(start))?.[1];
}

/** The type a column's literal entries all have, if they have one. */
function sharedLiteralType(entries: readonly string[]): ValueType | undefined {
  let shared: ValueType | undefined;
  for (const entry of entries) {
    const kind = literalKind(entry);
    if (kind && shared && kind !== shared) return undefined;
    shared ??= kind;
  }
  return shared;
}

const hitPolicies = new Map(Object.entries(hitPolicyNames).map(([policy, name]) => [name, policy]));
const aggregations = new Map(Object.entries(aggregationNames).map(([aggregation, name]) => [name, aggregation]));

/** The values the DMN cannot give back, from the extension: only well-formed ones. */
function exactValues(raw: unknown): Map<string, ExactValues> {
  const found = new Map<string, ExactValues>();
  if (!isObject(raw)) return found;
  for (const [xmlId, values] of Object.entries(raw)) {
    if (!isObject(values)) continue;
    const { id, text, description, type } = values;
    found.set(xmlId, {
      ...((typeof id === 'string' || id === null) && { id }),
      ...(typeof text === 'string' && { text }),
      ...(typeof description === 'string' && { description }),
      ...((valueTypes as readonly unknown[]).includes(type) && { type: type as ValueType }),
    });
  }
  return found;
}

const drgElementNotes: Record<string, string> = {
  'dmn:InputData':
    'input data become the params of the decisions that require them (declared where their expressions name them): the element itself is not kept',
  'dmn:BusinessKnowledgeModel': 'business knowledge models (reusable functions) are not carried',
  'dmn:DecisionService': 'decision services are not carried',
  'dmn:KnowledgeSource': 'knowledge sources are not carried',
};
const logicNames: Record<string, string> = {
  'dmn:Context': 'a boxed context',
  'dmn:Invocation': 'an invocation',
  'dmn:Relation': 'a relation',
  'dmn:List': 'a boxed list',
  'dmn:FunctionDefinition': 'a function definition',
};

class Reading {
  readonly records: Record<string, unknown>[] = [];
  readonly problems: Finding[] = [];
  readonly notCarried: Finding[] = [];
  private readonly items: Map<string, ItemDefinition>;
  private readonly inputData: Map<string, InputData>;
  /** The current decision's exact values, by XML id. */
  private exact = new Map<string, ExactValues>();

  constructor(
    private readonly definitions: Definitions,
    private readonly warnings: ParseWarning[],
  ) {
    this.items = new Map((definitions.itemDefinition ?? []).flatMap((item) => (item.name ? [[item.name, item]] : [])));
    this.inputData = new Map(
      (definitions.drgElement ?? []).flatMap((element) => (element.$type === 'dmn:InputData' && element.id ? [[element.id, element as InputData]] : [])),
    );
  }

  private left(element: string, message: string) {
    this.notCarried.push({ element, message });
  }

  read(): FileReading {
    const d = this.definitions;
    this.parseWarnings();
    this.leftovers(d, 'definitions', [
      ...['id', 'name', 'namespace', 'exporter', 'exporterVersion', 'typeLanguage', 'expressionLanguage', 'drgElement', 'dmnDI'],
      ...['itemDefinition', 'artifact', 'import', 'elementCollection', 'businessContextElement'],
    ]);
    if (!isFeel(d.expressionLanguage))
      this.left('definitions', `the expression language ${quoted(d.expressionLanguage!)} is not carried: every expression is read as FEEL`);
    for (const item of d.itemDefinition ?? []) this.itemDefinition(item);
    const decisions: ReadDecision[] = [];
    (d.drgElement ?? []).forEach((element, index) => {
      if (element.$type !== 'dmn:Decision') {
        this.left(named(element), drgElementNotes[element.$type] ?? `${localType(element)} elements are not carried`);
        return;
      }
      const read = this.decision(element as Decision, index);
      if (read) decisions.push(read);
    });
    for (const element of [...(d.artifact ?? []), ...(d.import ?? []), ...(d.elementCollection ?? []), ...(d.businessContextElement ?? [])])
      this.left(named(element), `${localType(element)} elements are not carried`);
    this.declareInputs(decisions);
    const carried = this.requirements(decisions);
    this.diagrams(carried);
    if (this.records.length === 0 && this.problems.length === 0)
      this.problems.push({ element: 'definitions', message: 'the file holds no decision table or literal expression to import' });
    return { records: this.records, problems: this.problems, notCarried: this.notCarried };
  }

  /** What moddle could not read: elements it does not know, ids it refuses, references to what the file lacks. */
  private parseWarnings() {
    for (const warning of this.warnings) {
      // Unknown attributes are reported with their element (leftovers), a diagram's references to what the file lacks with the diagram.
      if (/^unknown attribute/.test(warning.message) || warning.property === 'dmndi:dmnElementRef') continue;
      const at = /^unparsable content (\S*).*?line: (\d+)\s+column: (\d+)/s.exec(warning.message);
      const cause = warning.error?.message ?? warning.message;
      if (at) this.left(`line ${Number(at[2]) + 1}, column ${Number(at[3]) + 1}: ${at[1]}`, `${oneLine(cause)}: the element and all it holds are not read`);
      else this.left('file', oneLine(warning.message));
    }
  }

  /**
   * Reports what an element holds beyond the properties read: DMN properties
   * the service has no place for, other tools' attributes (empty ones say
   * nothing), and extension elements other than the service's own.
   */
  private leftovers(element: DmnElement, where: string, read: readonly string[]) {
    for (const [property, value] of Object.entries(element)) {
      if (property.startsWith('$') || read.includes(property) || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
      if (property === 'extensionElements') {
        for (const extension of element.extensionElements?.values ?? [])
          if (extension.$type !== serviceExtensionType) this.left(where, `the extension element <${extension.$type}> is not carried`);
      } else this.left(where, `${property}${typeof value === 'string' ? ` ${quoted(value)}` : ''} is not carried`);
    }
    for (const [attribute, value] of Object.entries(element.$attrs))
      if (attribute !== 'xmlns' && !attribute.startsWith('xmlns:') && value !== '')
        this.left(where, `the attribute ${attribute}=${quoted(value)} is not carried`);
  }

  /** The service type an item definition comes down to, if any. */
  private itemType(name: string, seen = new Set<string>()): ValueType | undefined {
    const item = this.items.get(name);
    if (!item || seen.has(name)) return undefined;
    if (item.isCollection) return 'list';
    if (item.itemComponent?.length) return 'context';
    return item.typeRef ? (builtInType(item.typeRef) ?? this.itemType(item.typeRef, seen.add(name))) : undefined;
  }

  private itemDefinition(item: ItemDefinition) {
    const type = item.name === undefined ? undefined : this.itemType(item.name);
    const constraint = item.allowedValues?.text ? ` and its allowed values ${quoted(item.allowedValues.text)}` : '';
    this.left(
      named(item),
      type
        ? `item definitions are not kept: a column of this type is read as ${type}, without the definition's name${constraint}`
        : 'has no service type: a column of this type takes the type its entries share (reported with the column)',
    );
  }

  /** The service's extension of a decision (the first one, if several). */
  private carried(decision: Decision, where: string): CarriedFields {
    const ours = (decision.extensionElements?.values ?? []).filter((value) => value.$type === serviceExtensionType);
    if (ours.length === 0) return {};
    if (ours.length > 1) this.left(where, `${ours.length} <rules:entity> extensions: only the first is read`);
    let fields: unknown;
    try {
      fields = parseJson(String(ours[0]!.json ?? ''));
    } catch (error) {
      this.left(where, `the <rules:entity> extension is not JSON (${(error as Error).message}): not read`);
      return {};
    }
    if (!isObject(fields)) {
      this.left(where, 'the <rules:entity> extension is not a JSON object: not read');
      return {};
    }
    for (const field of Object.keys(fields))
      if (!(carriedFieldNames as readonly string[]).includes(field)) this.left(where, `the <rules:entity> extension's field "${field}" is not known: not read`);
    return fields;
  }

  private exactOf(element: DmnElement | undefined): ExactValues | undefined {
    return element?.id === undefined ? undefined : this.exact.get(element.id);
  }

  /** The service id of an element: the one the extension keeps, else its XML id read as a service id (reported when it changes), else `fallback`. */
  private idOf<T extends string | undefined>(element: DmnElement, where: string, fallback: T): string | T {
    const exact = this.exactOf(element);
    if (exact && 'id' in exact) return exact.id ?? fallback;
    if (element.id === undefined) return fallback;
    const id = serviceIdOf(element.id);
    if (id === undefined)
      this.left(where, `the id ${quoted(element.id)} cannot be a service id: read ${fallback === undefined ? 'without an id' : `as "${fallback}"`}`);
    else if (id !== element.id.replace(/^_+/, ''))
      this.left(where, `the id ${quoted(element.id)} is read as "${id}" (service ids are letters, digits, ".", "_" and "-")`);
    return id ?? fallback;
  }

  /** An element's body text, or the whitespace the extension keeps for it when the body is empty. */
  private textOf(element: TextElement | undefined): string {
    const text = element?.text ?? '';
    return text === '' ? (this.exactOf(element)?.text ?? text) : text;
  }

  private descriptionOf(element: DmnElement): string | undefined {
    const { description } = element;
    return description === undefined || description === '' ? (this.exactOf(element)?.description ?? description) : description;
  }

  /** Text the service keeps on one line (names, labels, descriptions): line breaks and other control characters are read as spaces, and reported. */
  private oneLine<T extends string | undefined>(text: T, where: string, what: string): T {
    const line = text?.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
    if (line !== text)
      this.left(where, `the line breaks (or other control characters) in its ${what} are read as spaces: the service keeps a ${what} on one line`);
    return line as T;
  }

  /** Reports a FEEL text another tool wrote in another expression language. */
  private language(element: TextElement | undefined, where: string) {
    if (element && !isFeel(element.expressionLanguage))
      this.left(where, `the expression language ${quoted(element.expressionLanguage!)} is not carried: the text is read as FEEL`);
  }

  /** A column's service type, from its typeRef; else the type its literal entries share, reported. */
  private columnType(element: DmnElement, typeRef: string | undefined, where: string, entries: () => string[]): ValueType {
    const type = this.typeOf(typeRef);
    const kept = this.exactOf(element)?.type;
    if (type) return kept !== undefined && typeRefs[kept] === typeRefs[type] ? kept : type;
    const shared = sharedLiteralType(entries());
    const fallback = shared ? `read as ${shared}, the type its literal entries share` : 'read as string (its entries share no literal type)';
    this.left(where, `${typeRef === undefined ? 'has no typeRef' : `the typeRef ${quoted(typeRef)} is not a type the service has`}: ${fallback}`);
    return shared ?? 'string';
  }

  private decision(decision: Decision, index: number): ReadDecision | undefined {
    const where = `decision#${decision.id ?? index + 1}`;
    const carried = this.carried(decision, where);
    this.exact = exactValues(carried.exact);
    this.leftovers(decision, where, [
      'id',
      'name',
      'description',
      'variable',
      'informationRequirement',
      'knowledgeRequirement',
      'authorityRequirement',
      'decisionLogic',
    ]);
    for (const requirement of [...(decision.knowledgeRequirement ?? []), ...(decision.authorityRequirement ?? [])]) {
      const target = requirement.requiredKnowledge ?? requirement.requiredAuthority ?? requirement.requiredDecision ?? requirement.requiredInput;
      this.left(where, `its ${localType(requirement)} on ${target?.href ?? 'an element'} is not carried`);
    }
    const logic = decision.decisionLogic;
    if (!logic || (logic.$type !== 'dmn:DecisionTable' && logic.$type !== 'dmn:LiteralExpression')) {
      const what = logic ? (logicNames[logic.$type] ?? `its ${localType(logic)}`) : 'no decision logic this reader knows';
      this.left(where, `holds ${what}: only decision tables and literal expressions become rules, so the decision is not imported`);
      return undefined;
    }
    const id = this.idOf(decision, where, `decision${index + 1}`);
    const name = this.oneLine(decision.name, where, 'name') ?? id;
    const definition: Definition | undefined =
      logic.$type === 'dmn:DecisionTable'
        ? this.table(logic as DecisionTable, decision, where)
        : this.simpleRule(logic as TextElement, decision, carried, where);
    if (!definition) return undefined;
    const { parameters, tests, settings } = carried;
    const record = {
      id,
      name,
      description: this.oneLine(this.descriptionOf(decision), where, 'description') ?? '',
      tags: carried.tags ?? [],
      type: logic.$type === 'dmn:DecisionTable' ? 'decisionTable' : 'simpleRule',
      definition: {
        ...definition,
        ...(parameters !== undefined && { parameters }),
        ...(tests !== undefined && { tests }),
        ...(settings !== undefined && { settings }),
      },
    };
    this.records.push(record);
    return { element: decision, where, id, record, requires: (decision.informationRequirement ?? []).filter((r) => r.requiredDecision) };
  }

  private simpleRule(logic: TextElement, decision: Decision, carried: CarriedFields, where: string): Definition {
    const at = `${where}/literalExpression`;
    this.leftovers(logic, at, ['id', 'text', 'typeRef', 'expressionLanguage']);
    this.language(logic, at);
    const typeRef = logic.typeRef ?? decision.variable?.typeRef;
    if (typeRef) this.left(at, `the typeRef ${quoted(typeRef)} is not carried: a simple rule's outputs have no declared type`);
    const text = this.textOf(logic);
    const kept = carried.simpleRule;
    if (kept) {
      const { when, then, otherwise } = kept;
      if (
        typeof when === 'string' &&
        isOutputs(then) &&
        (otherwise === undefined || isOutputs(otherwise)) &&
        simpleRuleText({ when, then, otherwise }) === text
      )
        return { when, then, ...(otherwise !== undefined && { otherwise }) };
      this.left(where, 'the rule the extension keeps is not the literal expression written beside it (edited elsewhere): the expression is read');
    }
    return { when: 'true', then: { [decision.variable?.name ?? decision.name ?? 'result']: text } };
  }

  private table(table: DecisionTable, decision: Decision, where: string): Definition | undefined {
    const at = `${where}/decisionTable`;
    const orientation = table.preferredOrientation === 'Rule-as-Row' ? ['preferredOrientation'] : [];
    this.leftovers(table, at, ['id', 'hitPolicy', 'aggregation', 'input', 'output', 'annotation', 'rule', ...orientation]);
    const hitPolicy = hitPolicies.get((table.hitPolicy ?? 'UNIQUE').toUpperCase());
    const aggregation = table.aggregation === undefined ? undefined : aggregations.get(table.aggregation.toUpperCase());
    if (!hitPolicy) this.problems.push({ element: at, message: `the hit policy ${quoted(table.hitPolicy!)} is not one DMN defines` });
    if (table.aggregation !== undefined && !aggregation)
      this.problems.push({ element: at, message: `the aggregation ${quoted(table.aggregation)} is not one DMN defines (SUM, MIN, MAX, COUNT)` });
    if (!hitPolicy || (table.aggregation !== undefined && !aggregation)) return undefined;
    const rules = table.rule ?? [];
    const inputs = (table.input ?? []).map((input, i) => {
      const inputWhere = `${at}/input#${input.id ?? i + 1}`;
      this.leftovers(input, inputWhere, ['id', 'label', 'inputExpression']);
      const expression = input.inputExpression;
      if (expression) {
        this.leftovers(expression, `${inputWhere}/inputExpression`, ['id', 'typeRef', 'text', 'expressionLanguage']);
        this.language(expression, `${inputWhere}/inputExpression`);
      }
      return {
        id: this.idOf(input, inputWhere, `input${i + 1}`),
        ...(input.label !== undefined && { label: this.oneLine(input.label, inputWhere, 'label') }),
        expression: this.textOf(expression),
        type: this.columnType(input, expression?.typeRef, inputWhere, () => rules.map((rule) => this.textOf(rule.inputEntry?.[i]))),
      };
    });
    const outputs = (table.output ?? []).map((output, o, all) => this.output(output, o, all.length, decision, at, rules));
    return {
      hitPolicy,
      ...(aggregation && { aggregation }),
      inputs,
      outputs,
      rules: rules.map((rule, r) => this.rule(rule, r, table.annotation ?? [], at)),
    };
  }

  private output(output: OutputClause, o: number, count: number, decision: Decision, at: string, rules: DecisionRule[]) {
    const where = `${at}/output#${output.id ?? o + 1}`;
    this.leftovers(output, where, ['id', 'label', 'name', 'typeRef', 'outputValues', 'defaultOutputEntry']);
    // A single output may go unnamed and untyped: the decision's variable names and types its value.
    const single = count === 1 ? decision.variable : undefined;
    const variableName = count === 1 ? (single?.name ?? decision.name) : undefined;
    const id = this.idOf(output, where, `output${o + 1}`);
    const values = output.outputValues && this.textOf(output.outputValues);
    const list = values ? parseLiteralList(values) : undefined;
    const allowedValues = list && 'values' in list && list.values.length ? list.values : undefined;
    if (output.outputValues) {
      this.leftovers(output.outputValues, `${where}/outputValues`, ['id', 'text']);
      if (list && 'problem' in list)
        this.left(`${where}/outputValues`, `${quoted(values!)} is not a list of literals (${list.problem}): the output values are not carried`);
    }
    const fallback = output.defaultOutputEntry;
    if (fallback) {
      this.leftovers(fallback, `${where}/defaultOutputEntry`, ['id', 'text', 'typeRef', 'expressionLanguage']);
      this.language(fallback, `${where}/defaultOutputEntry`);
    }
    return {
      id,
      ...(output.label !== undefined && { label: this.oneLine(output.label, where, 'label') }),
      name: this.oneLine(output.name || variableName || output.label || id, where, 'name'),
      type: this.columnType(output, output.typeRef ?? single?.typeRef, where, () => rules.map((rule) => this.textOf(rule.outputEntry?.[o]))),
      ...(allowedValues && { allowedValues }),
      ...(fallback && { default: this.textOf(fallback) }),
    };
  }

  private rule(rule: DecisionRule, r: number, annotations: DmnElement[], at: string) {
    const where = `${at}/rule#${rule.id ?? r + 1}`;
    this.leftovers(rule, where, ['id', 'description', 'inputEntry', 'outputEntry', 'annotationEntry']);
    for (const [kind, entries] of [
      ['inputEntry', rule.inputEntry],
      ['outputEntry', rule.outputEntry],
    ] as const)
      (entries ?? []).forEach((entry, e) => {
        this.leftovers(entry, `${where}/${kind}[${e + 1}]`, ['id', 'text', 'expressionLanguage']);
        this.language(entry, `${where}/${kind}[${e + 1}]`);
      });
    const id = this.idOf(rule, where, undefined);
    const description = this.descriptionOf(rule);
    // A row keeps one description: its own, else its first annotation; every other annotation is reported.
    const notes = (rule.annotationEntry ?? []).map((entry) => entry.text ?? '');
    const keptNote = description === undefined && notes[0] ? 0 : -1;
    notes.forEach((note, n) => {
      if (n !== keptNote && note !== '' && note !== description)
        this.left(where, `the annotation ${quoted(annotations[n]?.name ?? `${n + 1}`)} (${quoted(note)}) is not carried: a row keeps one description`);
    });
    return {
      ...(id !== undefined && { id }),
      ...((description !== undefined || keptNote === 0) && { description: this.oneLine(description ?? notes[0], where, 'description') }),
      when: (rule.inputEntry ?? []).map((entry) => this.textOf(entry)),
      then: (rule.outputEntry ?? []).map((entry) => this.textOf(entry)),
    };
  }

  /** The service type a typeRef names, if it names one. */
  private typeOf(typeRef: string | undefined): ValueType | undefined {
    return typeRef === undefined ? undefined : (builtInType(typeRef) ?? this.itemType(typeRef));
  }

  /**
   * Declares the params of decisions that require input data, as DMN scopes
   * a decision's expressions: the input data it requires and the values of
   * the decisions it requires (their outputs, which the rule set passes on).
   * Declared names may hold spaces (`Credit score`), which FEEL reads only
   * when they are declared. Where the expressions do not name every input
   * data (Camunda's diagrams often show input data their tables name
   * otherwise), nothing is declared, and the rule reads any params it names.
   */
  private declareInputs(decisions: ReadDecision[]) {
    const byXmlId = new Map(decisions.flatMap((d) => (d.element.id === undefined ? [] : [[d.element.id, d] as const])));
    for (const decision of decisions) {
      const { definition } = decision.record;
      const hrefs = (decision.element.informationRequirement ?? []).flatMap((r) => (r.requiredInput ? [r.requiredInput.href ?? ''] : []));
      if (hrefs.length === 0 || definition.parameters !== undefined) continue;
      const data = hrefs.map((href) => this.inputData.get(href.replace(/^#/, '')));
      if (data.some((element) => !element)) {
        this.left(decision.where, `it requires input data the file does not hold (${hrefs.map(quoted).join(', ')}): its params are not declared`);
        continue;
      }
      const texts = feelTexts(definition).filter((text) => typeof text === 'string');
      const names = data.map((element) => element!.variable?.name ?? element!.name ?? '');
      const unnamed = names.filter((name) => !texts.some((text) => name !== '' && text.includes(name)));
      if (unnamed.length > 0) {
        this.left(decision.where, `its expressions do not name the input data ${unnamed.map(quoted).join(', ')}: its params are not declared`);
        continue;
      }
      const parameters = new Map<string, ValueType>();
      data.forEach((element, i) => parameters.set(names[i]!, this.inputType(element!, names[i]!, definition)));
      for (const requirement of decision.requires) {
        const required = byXmlId.get((requirement.requiredDecision!.href ?? '').replace(/^#/, ''));
        for (const [name, type] of required ? this.outputTypes(required) : []) if (!parameters.has(name)) parameters.set(name, type);
      }
      definition.parameters = [...parameters].map(([name, type]) => ({ name, type }));
    }
  }

  /** An input data's type: its variable's typeRef, else the type of a column that reads it as it is, else string (reported). */
  private inputType(element: InputData, name: string, definition: Definition): ValueType {
    const typeRef = element.variable?.typeRef;
    const type = this.typeOf(typeRef) ?? definition.inputs?.find((input) => input.expression.trim() === name)?.type;
    if (type) return type;
    this.left(
      named(element),
      `${typeRef === undefined ? 'has no typeRef' : `the typeRef ${quoted(typeRef)} is not a type the service has`}: the param is declared string`,
    );
    return 'string';
  }

  /** The outputs a decision passes on, with their types: a table's outputs; a literal expression's value, typed by the decision's variable (string when it has no type the service has). */
  private outputTypes(decision: ReadDecision): [string, ValueType][] {
    const { outputs, then, otherwise } = decision.record.definition;
    if (outputs) return outputs.map((output) => [output.name, output.type]);
    const type = this.typeOf(decision.element.variable?.typeRef ?? (decision.element.decisionLogic as TextElement | undefined)?.typeRef) ?? 'string';
    return [...new Set([...Object.keys(then ?? {}), ...Object.keys(otherwise ?? {})])].map((name) => [name, type]);
  }

  /**
   * Decisions that require others become rule sets running them first (see
   * the module's comment). Gives the elements whose layout travels with
   * them: the decisions imported, and the requirements made references.
   */
  private requirements(decisions: ReadDecision[]): Set<ModdleElement> {
    const byXmlId = new Map(decisions.flatMap((d) => (d.element.id === undefined ? [] : [[d.element.id, d] as const])));
    const carried = new Set<ModdleElement>(decisions.map((d) => d.element));
    const ruleSets: { decision: ReadDecision; runs: ReadDecision[] }[] = [];
    for (const decision of decisions) {
      if (decision.requires.length === 0) continue;
      const runs: ReadDecision[] = [];
      const missing: string[] = [];
      const visit = (requiring: ReadDecision, path: readonly ReadDecision[]) => {
        for (const requirement of requiring.requires) {
          const href = requirement.requiredDecision!.href ?? '';
          const required = href.startsWith('#') ? byXmlId.get(href.slice(1)) : undefined;
          if (!required) missing.push(`${quoted(href)}${requiring === decision ? '' : ` (through ${requiring.where})`}, which is not imported`);
          else if (path.includes(required)) missing.push(`${quoted(href)}, which requires it in turn (a cycle)`);
          else if (!runs.includes(required)) {
            visit(required, [...path, required]);
            if (!runs.includes(required)) runs.push(required);
          }
        }
      };
      visit(decision, [decision]);
      if (missing.length > 0) {
        this.left(
          decision.where,
          `its requirement on ${missing.join(' and ')} is not carried: it is imported on its own, without a rule set running what it requires`,
        );
        continue;
      }
      ruleSets.push({ decision, runs });
      for (const requirement of decision.requires) carried.add(requirement);
    }
    const ownLogic = new Set(ruleSets.map((set) => set.decision));
    const logicId = (d: ReadDecision) => (ownLogic.has(d) ? `${d.id}.logic` : d.id);
    for (const { decision, runs } of ruleSets) {
      const { record } = decision;
      this.records.push({
        id: decision.id,
        name: record.name,
        description: record.description,
        tags: [],
        type: 'ruleSet',
        definition: { strategy: 'allMatch', rules: [...runs, decision].map((d) => ({ id: logicId(d), ruleId: logicId(d) })) },
      });
      record.id = logicId(decision);
      record.name = `${record.name} (logic)`;
    }
    return carried;
  }

  /** The diagram's layout is not kept (an export lays decisions out anew, as this service drew it: nothing to report then); its shapes of elements not carried are reported one by one. */
  private diagrams(carried: Set<ModdleElement>) {
    const dmnDI = this.definitions.dmnDI;
    for (const diagram of dmnDI?.diagrams ?? []) {
      const where = `DMNDiagram#${diagram.id ?? '?'}`;
      for (const shape of diagram.diagramElements ?? [])
        if (!shape.dmnElementRef || !carried.has(shape.dmnElementRef))
          this.left(
            `${where}/${localType(shape)}#${shape.id ?? '?'}`,
            `the layout of ${shape.dmnElementRef ? named(shape.dmnElementRef as DmnElement) : 'an element the file does not hold'} is not carried, as the element is not`,
          );
      if (!drawnAsExported(diagram)) this.left(where, 'the diagram layout is not kept: an export lays the decisions out anew');
    }
    if (dmnDI?.styles?.length) this.left('DMNDI', 'diagram styles are not kept');
  }
}

/**
 * Reads a DMN file.
 *
 * @throws ImportBoundExceeded when the file is past a bound, before it is parsed
 */
export async function readDmn(body: Uint8Array): Promise<FileReading> {
  refuseOversizeFile(body);
  const text = scanXml(utf8Text(body), { element: tableCounter(), namespace: namespaceReadAs15 });
  let parsed: ParseResult;
  try {
    parsed = await dmnModdle().fromXML(text);
  } catch (error) {
    return { records: [], problems: [{ element: 'file', message: `not a DMN 1.1–1.5 file: ${oneLine((error as Error).message)}` }], notCarried: [] };
  }
  return new Reading(parsed.rootElement as Definitions, parsed.warnings).read();
}

/** A diagram of one decision's shape where an export draws it: what this service writes, so its layout loses nothing. */
function drawnAsExported(diagram: ModdleElement): boolean {
  const [shape, ...others] = (diagram.diagramElements ?? []) as ModdleElement[];
  const bounds = shape?.bounds as Record<string, unknown> | undefined;
  return !others.length && !!bounds && Object.entries(decisionBounds).every(([side, value]) => bounds[side] === value);
}
