/**
 * The parts of a rule that coverage is counted for (the engine's coverage
 * units: a decision table's rows, a rule set's entries, a simple rule's two
 * branches), each with its path in the definition, as warnings name what
 * they are about. A rule set's entries run by priority, so their order is
 * not the definition's: the path is found by the entry's id.
 */
import { coverageUnits, type CoverageUnit, type PreparedRule } from '../engine/index.ts';

export interface RuleUnit extends CoverageUnit {
  /** Where it is in the record: `definition.rules[6]`, `definition.then`. */
  path: string;
}

/** The branch a simple rule without `otherwise` takes when its condition is not true (answering null) is written nowhere but in its condition. */
const branchPath = (name: string, definition: { otherwise?: unknown }) =>
  name === 'then' ? 'definition.then' : definition.otherwise ? 'definition.otherwise' : 'definition.when';

export function ruleUnits(prepared: PreparedRule, definition: Record<string, unknown>): RuleUnit[] {
  const units = coverageUnits(prepared);
  if (prepared.kind === 'decisionTable') return units.map((unit) => ({ ...unit, path: `definition.rules[${unit.index}]` }));
  if (prepared.kind === 'simpleRule') return units.map((unit) => ({ ...unit, path: branchPath(unit.name, definition) }));
  const position = new Map(((definition.rules ?? []) as { id: string }[]).map((entry, i) => [entry.id, i]));
  return units.map((unit) => ({ ...unit, path: `definition.rules[${position.get(unit.id!)}]` }));
}

/** How a warning or a person names a unit: "row 7", "entry risk", "the then branch". */
export const unitTitle = (unit: CoverageUnit) => (unit.kind === 'branch' ? `the ${unit.name} branch` : unit.name);
