/**
 * What reading and writing GoRules JDM share: the part of a node's content
 * that zen's model has no place for, and the column types jdm-editor names
 * and zen compares as dates. Writing is `./jdm.ts`, reading `./jdm-read.ts`.
 *
 * Lossless round trips: what zen's model has no place for is kept in the
 * node's content under `rulesService`, which zen ignores (jdm-editor drops it
 * when it re-saves a file): the real hit policy and aggregation, column types
 * zen has no name for, allowed values and defaults, the record's id,
 * description, tags, parameters, tests and settings, and the FEEL text of every
 * cell or expression whose zen text does not read back as the very FEEL
 * written (`{rule, column, zen, feel}`, with `zenCannotRun` and the reason when
 * the FEEL has no zen equivalent: that cell is written as its FEEL text, which
 * zen fails to compile, so zen never matches that row or set that output). A
 * carried cell is used only while the zen text beside it is unchanged; a cell
 * edited since is read from its zen text, and that is reported.
 */
import type { OutputEntry, ValueType } from '../engine/definitions.ts';
import type { EntityInput } from '../entities/schema.ts';

export type DecisionTable = Extract<EntityInput, { type: 'decisionTable' }>['definition'];

// ---------------------------------------------------------------------------
// What zen's model has no place for, kept under `rulesService`

/** The FEEL text of a cell (or an expression node's value) whose zen text does not read back as it. */
export interface CarriedCell {
  /** The rule's index; absent for an expression node's value. */
  rule?: number;
  /** The column id, or the expression's key. */
  column: string;
  zen: string;
  feel: OutputEntry;
  /** Why zen cannot run the FEEL: the zen text is the FEEL text as it is. */
  zenCannotRun?: string;
}

export interface Carried {
  id?: string;
  description?: string;
  tags?: string[];
  parameters?: DecisionTable['parameters'];
  tests?: DecisionTable['tests'];
  settings?: DecisionTable['settings'];
  hitPolicy?: DecisionTable['hitPolicy'];
  aggregation?: DecisionTable['aggregation'];
  inputs?: Record<string, { expression?: string; type?: ValueType }>;
  outputs?: Record<string, Partial<DecisionTable['outputs'][number]>>;
  cells?: CarriedCell[];
  /** A simple rule's condition, when its zen text does not read back as it. */
  when?: { zen: string; feel: string; zenCannotRun?: string };
}

// ---------------------------------------------------------------------------
// Types: jdm-editor's names, zen's date wrapping

/** Column types jdm-editor names (`fieldType`, `outputFieldType`); the others are carried. */
export const editorTypes = new Set<ValueType>(['number', 'string', 'boolean', 'date']);
/** Types zen compares as dates: the column's expression is wrapped in `date(...)`. */
export const dateTypes = new Set<ValueType>(['date', 'datetime']);

/** zen's `date(x)`, the way zen tables read a date column: x, or undefined. */
export const unwrapDate = (field: string): string | undefined => /^\s*date\s*\(([\s\S]*)\)\s*$/.exec(field)?.[1];
