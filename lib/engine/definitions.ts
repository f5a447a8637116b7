/**
 * What a rule definition holds, as the engine reads it: the shapes that
 * `lib/entities/schema.ts` validates (decision tables, simple rules, rule
 * sets). Expressions and unary tests are FEEL text here; `./prepare.ts`
 * parses them once into the prepared form that `./compile.ts` evaluates.
 */
import type { Num } from '../decimal/decimal.ts';

/** The types an input or output may declare. `object` and `array` are the older names of `context` and `list`. */
export const valueTypes = ['number', 'string', 'boolean', 'date', 'datetime', 'time', 'duration', 'list', 'context', 'object', 'array'] as const;
export type ValueType = (typeof valueTypes)[number];

export const hitPolicies = ['unique', 'any', 'priority', 'first', 'outputOrder', 'ruleOrder', 'collect'] as const;
export type HitPolicy = (typeof hitPolicies)[number];

export const aggregations = ['sum', 'min', 'max', 'count'] as const;
export type Aggregation = (typeof aggregations)[number];

/** A literal JSON value, or (for a string) FEEL text: a string output is an expression, so a string literal is written `"gold"`. */
export type OutputEntry = string | Num | boolean | null;

export interface DeclaredInput {
  name: string;
  type: ValueType;
}

export interface DecisionTableDefinition {
  hitPolicy?: HitPolicy;
  aggregation?: Aggregation;
  /** Declared rule inputs (the params); when given, FEEL may name only these. */
  inputs: { id: string; label?: string; expression: string; type: ValueType }[];
  outputs: { id: string; label?: string; name: string; type: ValueType; allowedValues?: OutputEntry[]; default?: OutputEntry }[];
  rules: { id?: string; description?: string; when: string[]; then: OutputEntry[] }[];
  parameters?: DeclaredInput[];
}

export interface SimpleRuleDefinition {
  when: string;
  then: Record<string, OutputEntry>;
  otherwise?: Record<string, OutputEntry>;
  parameters?: DeclaredInput[];
}

export interface InlineRuleSetEntry {
  id: string;
  description?: string;
  priority?: number;
  when: string;
  then: { set: string; value: OutputEntry }[];
}

/** Another rule of the branch, run with the rule set's inputs and the outputs so far. */
export interface RuleReference {
  id: string;
  ruleId: string;
  /** A published version label such as v2; absent for the latest published version. */
  version?: string;
}

export interface RuleSetDefinition {
  strategy?: 'allMatch' | 'firstMatch';
  rules: (InlineRuleSetEntry | RuleReference)[];
  parameters?: DeclaredInput[];
}

export const isReference = (entry: InlineRuleSetEntry | RuleReference): entry is RuleReference => 'ruleId' in entry;

export type RuleDefinition =
  | { kind: 'decisionTable'; definition: DecisionTableDefinition }
  | { kind: 'simpleRule'; definition: SimpleRuleDefinition }
  | { kind: 'ruleSet'; definition: RuleSetDefinition };
