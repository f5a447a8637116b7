/**
 * The decision table's hit policy, in the grid's corner as DMN draws it:
 * which matching rows answer, and under "collect" how their outputs are
 * aggregated. An aggregation is kept only under "collect", the one policy
 * that reads it. What the chosen policy does is said in one line
 * (`HitPolicyNote`, words from ./hit-policy-words.ts) that both selects name
 * in aria-describedby.
 */
import { aggregations, hitPolicies, type Aggregation, type HitPolicy } from '../../../engine/definitions.ts';
import { describedBy } from '../ui/described-by.ts';
import { hitPolicyLine } from './hit-policy-words.ts';
import { markOf, type Marks, type Touched } from './marks.tsx';
import type { TableDefinition } from './model.ts';

/** The default hit policy, when a table names none (as the API applies it). */
const defaultHitPolicy: HitPolicy = 'first';

/** What the table's hit policy (and aggregation) does, in one line; `id` is what the selects are described by. */
export function HitPolicyNote({ definition, id }: { definition: TableDefinition; id: string }) {
  return (
    <p class="hint" id={id}>
      {hitPolicyLine(definition.hitPolicy ?? defaultHitPolicy, definition.aggregation)}
    </p>
  );
}

export function HitPolicyCorner({
  definition,
  marks,
  noteId,
  onEdit,
}: {
  definition: TableDefinition;
  marks: Marks;
  /** The id of the table's HitPolicyNote. */
  noteId: string;
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
        aria-describedby={describedBy(noteId, hitPolicyMark.describedBy)}
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
            aria-describedby={describedBy(noteId, aggregationMark.describedBy)}
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
