/**
 * A rule after `./prepare.ts`: every FEEL text parsed into its syntax tree,
 * plain JSON that can be kept with a published version. Compiling it
 * (`./compile.ts`) needs no parser.
 */
import type { Aggregation, DeclaredInput, HitPolicy, OutputEntry, ValueType } from './definitions.ts';
import type { Expr, UnaryTests } from './feel/ast.ts';

/** An output entry: a literal, or a FEEL expression. */
export type PreparedOutput = { literal: OutputEntry } | { expr: Expr; text: string };

export interface PreparedDecisionTable {
  kind: 'decisionTable';
  hitPolicy: HitPolicy;
  aggregation?: Aggregation;
  parameters?: DeclaredInput[];
  inputs: { label: string; expr: Expr; text: string; type: ValueType }[];
  outputs: { name: string; type: ValueType; allowedValues?: OutputEntry[]; default?: PreparedOutput }[];
  rows: { id?: string; cells: UnaryTests[]; cellTexts: string[]; outputs: PreparedOutput[] }[];
}

export interface PreparedSimpleRule {
  kind: 'simpleRule';
  parameters?: DeclaredInput[];
  when: Expr;
  whenText: string;
  then: [string, PreparedOutput][];
  otherwise?: [string, PreparedOutput][];
}

export type PreparedRuleSetEntry =
  { id: string; when: Expr; whenText: string; then: [string, PreparedOutput][] } | { id: string; ruleId: string; version?: string };

export interface PreparedRuleSet {
  kind: 'ruleSet';
  strategy: 'allMatch' | 'firstMatch';
  parameters?: DeclaredInput[];
  entries: PreparedRuleSetEntry[];
}

export type PreparedRule = PreparedDecisionTable | PreparedSimpleRule | PreparedRuleSet;
