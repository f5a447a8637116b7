/**
 * The decision table's hit policy, in the grid's corner as DMN draws it:
 * which matching rows answer, and under "collect" how their outputs are
 * aggregated. An aggregation is kept only under "collect", the one policy
 * that reads it.
 */
import { aggregations, hitPolicies, type Aggregation, type HitPolicy } from '../../../engine/definitions.ts';
import { markOf, type Marks, type Touched } from './marks.tsx';
import type { TableDefinition } from './model.ts';

/** The default hit policy, when a table names none (as the API applies it). */
const defaultHitPolicy: HitPolicy = 'first';

export function HitPolicyCorner({
  definition,
  marks,
  onEdit,
}: {
  definition: TableDefinition;
  marks: Marks;
  onEdit(next: TableDefinition, touched: Touched): void;
}) {
  const hitPolicy = definition.hitPolicy ?? defaultHitPolicy;
  const hitPolicyMark = markOf(marks, 'definition.hitPolicy');
  const aggregationMark = markOf(marks, 'definition.aggregation');
  const { aggregation: _dropped, ...withoutAggregation } = definition;
  return (
    <div class="hit-policy">
      <select
        aria-label="Hit policy"
        class={hitPolicyMark.class}
        aria-describedby={hitPolicyMark.describedBy}
        value={hitPolicy}
        onChange={(event) => {
          const next = event.currentTarget.value as HitPolicy;
          onEdit(next === 'collect' ? { ...definition, hitPolicy: next } : { ...withoutAggregation, hitPolicy: next }, 'definition.hitPolicy');
        }}
      >
        {hitPolicies.map((policy) => (
          <option key={policy} value={policy}>
            {policy}
          </option>
        ))}
      </select>
      {hitPolicyMark.note}
      {hitPolicy === 'collect' && (
        <>
          <select
            aria-label="Aggregation"
            class={aggregationMark.class}
            aria-describedby={aggregationMark.describedBy}
            value={definition.aggregation ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              onEdit(value ? { ...withoutAggregation, aggregation: value as Aggregation } : withoutAggregation, 'definition.aggregation');
            }}
          >
            <option value="">list</option>
            {aggregations.map((aggregation) => (
              <option key={aggregation} value={aggregation}>
                {aggregation}
              </option>
            ))}
          </select>
          {aggregationMark.note}
        </>
      )}
    </div>
  );
}
