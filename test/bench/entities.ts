/**
 * Synthetic rules for the read and pull benchmarks: valid rules of every
 * kind (as files and as working copies), with names that sort
 * deterministically and a word that a name filter can select one entity in
 * ten by.
 */
import { entityChecksum } from '../../lib/entities/checksum.ts';
import type { EntityInput, RuleKind } from '../../lib/entities/schema.ts';
import type { StoredEntity } from '../../lib/store/types.ts';

const subjects = ['pricing', 'credit', 'shipping', 'discount', 'fraud', 'eligibility', 'routing', 'tax', 'loyalty', 'refund'] as const;
/** One subject in ten: what the name-filtered list asks for. */
export const filterWord = subjects[0];

const kinds: readonly RuleKind[] = ['decisionTable', 'ruleSet', 'simpleRule'];

function definitionOf(kind: RuleKind, i: number): EntityInput['definition'] {
  switch (kind) {
    case 'decisionTable':
      return {
        hitPolicy: 'first',
        inputs: [{ id: 'amount', expression: 'order.amount', type: 'number' }],
        outputs: [{ id: 'rate', name: 'rate', type: 'number' }],
        rules: [
          { when: [`> ${i % 1000}`], then: [0.1] },
          { when: ['-'], then: [0] },
        ],
      };
    case 'ruleSet':
      return {
        strategy: 'allMatch',
        rules: [{ id: 'r1', priority: 0, when: `order.items > ${i % 50}`, then: [{ set: 'bulk', value: true }] }],
      };
    case 'simpleRule':
      return { when: `customer.score >= ${i % 900}`, then: { approved: true }, otherwise: { approved: false } };
  }
}

/**
 * The i-th synthetic rule as a file or an import holds it; serials are
 * zero-padded so that names, and so the name index, sort by subject then
 * serial. `edition` 2 and up is the same rule edited (description and
 * definition changed), for the pull benchmark's changed commit.
 */
export function syntheticRuleInput(i: number, edition = 1): EntityInput {
  const kind = kinds[i % kinds.length]!;
  const serial = String(i).padStart(6, '0');
  return {
    id: `rule-${serial}`,
    name: `${subjects[i % subjects.length]} rule ${serial}`,
    description: `Synthetic ${kind} number ${serial}, generated for the read benchmark.${edition > 1 ? ` Edition ${edition}.` : ''}`,
    type: kind,
    tags: ['bench', subjects[i % subjects.length]!],
    definition: definitionOf(kind, i + (edition - 1) * 7),
  } as EntityInput;
}

/** The i-th synthetic rule as the store holds it, a draft made by `actor` at `at`. */
export function syntheticRule(i: number, actor: string, at: string): { entity: StoredEntity; kind: RuleKind } {
  const input = syntheticRuleInput(i);
  const kind = input.type as RuleKind;
  const entity: StoredEntity = {
    ...input,
    checksum: entityChecksum(input),
    status: 'draft',
    version: '',
    publishedChecksum: '',
    createdAt: at,
    updatedAt: at,
    createdBy: actor,
    updatedBy: actor,
    revision: 1,
  } as StoredEntity;
  return { entity, kind };
}
