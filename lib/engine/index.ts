/**
 * The rules engine's runtime surface: compile a prepared rule, run it. Pure
 * (no AWS, no I/O) and without the FEEL parser, so that the functions that
 * only evaluate (execute, scheduled runs, workflows) stay small; saving and
 * publishing use `./authoring.ts`.
 */
export { compileRule, convertParams, evaluateRule, type CompiledRule, type ReferenceResolver, type RuleTrace, type RunOptions } from './compile.ts';
export type { RuleDefinition } from './definitions.ts';
export { EngineError, type EngineErrorCode, type FieldProblem } from './errors.ts';
export type { PreparedRule } from './prepared.ts';
export { compareOutcomes, comparisons, evaluateOutcome, hitsOf, keptFailure, sameValue, type Comparison, type Failure, type Outcome } from './outcome.ts';
export { coverageUnits, otherwiseBranch, thenBranch, type CoverageUnit } from './coverage.ts';
