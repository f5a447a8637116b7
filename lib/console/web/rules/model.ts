/**
 * What the rule views hold: the API's rule record (typed by the generated
 * schema) and its definition, typed by the engine's own definition types.
 * The API leaves `definition` untyped; these types are imported as types
 * only, so none of the engine is bundled into the page.
 */
import type { DecisionTableDefinition, OutputEntry, RuleSetDefinition, SimpleRuleDefinition } from '../../../engine/definitions.ts';
import type { operations } from '../schema.ts';

export type RuleRecord = operations['getEntity']['responses'][200]['content']['application/json']['data'];
export type TestAnswer = Extract<operations['testEntity']['responses'][200]['content']['application/json']['data'], { trace: unknown }>;
export type RuleTrace = TestAnswer['trace'];
export type Warning = RuleRecord['warnings'][number];

/** A saved test case: publishing runs them all and refuses when one fails. */
export interface SavedCase {
  name: string;
  params: Record<string, unknown>;
  expected: unknown;
}

/** A rule's settings, as the API takes them (lib/entities/schema.ts). */
export interface RuleSettingsValue {
  /** Record API executions of the version run (scheduled runs are always recorded). */
  recordExecutions?: boolean;
  /** The IANA time zone a schedule that names none is read in. */
  timezone?: string;
  /** Publishing replays recorded executions first, and stops when more than this share of them change. */
  replayGate?: { maxChangedRatio: number; window: string };
}

/** What every kind carries besides its logic. */
interface Authoring {
  tests?: SavedCase[];
  settings?: RuleSettingsValue;
}

export type TableDefinition = DecisionTableDefinition & Authoring;
export type SimpleDefinition = SimpleRuleDefinition & Authoring;
export type SetDefinition = RuleSetDefinition & Authoring;
export type AnyDefinition = TableDefinition | SimpleDefinition | SetDefinition;

export type RuleKind = 'decisionTable' | 'simpleRule' | 'ruleSet';

export const isRuleKind = (type: string): type is RuleKind => type === 'decisionTable' || type === 'simpleRule' || type === 'ruleSet';

/** How an output entry is written in a text field: FEEL text as it is, a literal as JSON. */
export function entryText(entry: OutputEntry | undefined): string {
  return typeof entry === 'string' ? entry : JSON.stringify(entry ?? null);
}

/**
 * The output entry a field's text stands for. `true`, `false`, `null` and
 * plain numbers become literals (FEEL reads them the same); anything else is
 * FEEL text. An unchanged text keeps the entry it came from, so that opening
 * and saving a rule does not rewrite its FEEL "5000" as the literal 5000.
 */
export function entryOf(text: string, previous: OutputEntry | undefined): OutputEntry {
  if (previous !== undefined && entryText(previous) === text) return previous;
  const trimmed = text.trim();
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  if (trimmed === 'null') return null;
  // A number a double holds exactly as written is kept as a number; any other digits stay FEEL text, which the API reads as the exact decimal.
  if (plainNumber.test(trimmed) && String(Number(trimmed)) === trimmed) return Number(trimmed);
  return text;
}

const plainNumber = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/**
 * How an output's allowed value is written: as the FEEL literal it stands
 * for ("gold" with its quotes, 0.15, true). Allowed values are values, not
 * FEEL text, so the string gold is stored as "gold" but written "\"gold\"".
 * A slot the page holds for text that is not a literal is null: written empty.
 */
export const allowedText = (value: OutputEntry | undefined): string => (value === undefined || value === null ? '' : JSON.stringify(value));

/**
 * The allowed value a field's text stands for, or why it stands for none: a
 * quoted string, a plain number, true or false (the API takes no other). As
 * for cells, an unchanged text keeps the value it came from.
 */
export function allowedOf(text: string, previous: OutputEntry | undefined): { ok: true; value: Exclude<OutputEntry, null> } | { ok: false; error: string } {
  if (previous !== undefined && previous !== null && allowedText(previous) === text) return { ok: true, value: previous };
  const trimmed = text.trim();
  if (trimmed === 'true' || trimmed === 'false') return { ok: true, value: trimmed === 'true' };
  if (plainNumber.test(trimmed)) return { ok: true, value: Number(trimmed) };
  if (/^".*"$/s.test(trimmed)) {
    try {
      return { ok: true, value: JSON.parse(trimmed) as string };
    } catch {
      // Not a well-formed string: said below like any other text.
    }
  }
  return { ok: false, error: 'Not a FEEL literal: write a string with its quotes ("gold"), a number, true or false.' };
}

/** The definition of a record the API served, as its kind's type: the API checked it against that kind's schema when it was saved. */
export const definitionOf = (record: { definition: Record<string, unknown> }): AnyDefinition => record.definition as unknown as AnyDefinition;
