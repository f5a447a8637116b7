/**
 * The names a FEEL field may read, for its completion: what the save's check
 * lets that field read. A rule's FEEL reads its declared inputs
 * (`parameters`); a rule set's entry also reads the outputs of the entries
 * before it. A workflow step reads the workflow's inputs and the results of
 * the steps every run has passed through on its way there
 * (lib/entities/workflow-graph.ts `availableNames`, the check's own reckoning).
 */
import type { DeclaredInput, RuleSetDefinition } from '../../../engine/definitions.ts';
import { isReference } from '../../../engine/definitions.ts';
import { analyseGraph, availableNames, producesValue } from '../../../entities/workflow-graph.ts';
import type { WorkflowDefinition } from '../../../entities/workflow-definition.ts';
import type { FeelName } from './completions.ts';

/** A rule's declared inputs. */
export const parameterNames = (parameters: readonly DeclaredInput[] | undefined): FeelName[] =>
  (parameters ?? []).map((p) => ({ name: p.name, detail: `input: ${p.type}` }));

/** What the entry at `at` of a rule set reads: the declared inputs, then what the entries before it set (by the first name of each output path). */
export function ruleSetNames(definition: RuleSetDefinition, at: number): FeelName[] {
  const outputs = definition.rules
    .slice(0, at)
    .flatMap((entry) => (isReference(entry) ? [] : entry.then.map((set) => ({ name: set.set.split('.')[0]!, detail: `output of entry ${entry.id}` }))));
  return [...parameterNames(definition.parameters), ...outputs];
}

/** What the step at `index` of a workflow reads: the inputs, then the steps certainly run before it, in the definition's order. */
export function workflowNames(definition: WorkflowDefinition, index: number): FeelName[] {
  const available = availableNames(
    definition,
    analyseGraph(definition, () => undefined),
  )[index];
  const inputs = definition.inputs.map((input) => ({ name: input.name, detail: `input: ${input.type}` }));
  if (!available) return inputs;
  const steps = definition.steps
    .filter((step) => producesValue(step) && available.has(step.id))
    .map((step) => ({ name: step.id, detail: `result of the ${step.kind} step` }));
  return [...inputs, ...steps];
}
