/**
 * Why a rule answered as it did, from the trace of a test: for a decision
 * table the tested table again, row by row, with the cells that matched, the
 * one that failed (with the value it was given) and those never checked; for
 * a simple rule its condition; for a rule set each entry in the order it ran,
 * a referenced rule's own trace inside. Colour is never the only sign: every
 * cell also says in words what happened to it.
 */
import { entryText, type AnyDefinition, type RuleTrace, type TableDefinition } from './model.ts';

type TableTrace = Extract<RuleTrace, { kind: 'decisionTable' }>;
type SimpleTrace = Extract<RuleTrace, { kind: 'simpleRule' }>;
type SetTrace = Extract<RuleTrace, { kind: 'ruleSet' }>;
type TracedRow = TableTrace['rows'][number];

/** A value as the trace gave it, in JSON (a string keeps its quotes, so "30" and 30 differ). */
const shown = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));

/** The words for a failed cell: `age: 30 did not match < 18`, and the reason when a type error made it fail. */
export function failureText(failed: NonNullable<TracedRow['failed']>): string {
  return `${failed.input}: ${shown(failed.value)} did not match ${failed.cell}${failed.reason ? ` (${failed.reason})` : ''}`;
}

export function TraceView({ trace, definition }: { trace: RuleTrace; definition: AnyDefinition | undefined }) {
  switch (trace.kind) {
    case 'decisionTable':
      return <TableTraceView trace={trace as TableTrace} definition={definition && 'inputs' in definition ? definition : undefined} />;
    case 'simpleRule':
      return <SimpleTraceView trace={trace as SimpleTrace} />;
    case 'ruleSet':
      return <SetTraceView trace={trace as SetTrace} />;
    default:
      return <pre>{JSON.stringify(trace, null, 2)}</pre>;
  }
}

/** The column a failure names: by its label, the first whose cell in that row is the failing text. */
function failingColumn(trace: TableTrace, row: TracedRow, cells: readonly string[] | undefined): number {
  const failed = row.failed;
  if (!failed) return -1;
  const candidates = trace.inputs.flatMap((input, c) => (input.label === failed.input ? [c] : []));
  return candidates.find((c) => cells?.[c] === failed.cell) ?? candidates[0] ?? -1;
}

function TableTraceView({ trace, definition }: { trace: TableTrace; definition: TableDefinition | undefined }) {
  // The trace is of the table as it was tested; without it (a referenced rule's trace), the rows are listed.
  const fits = definition && definition.inputs.length === trace.inputs.length && definition.rules.length === trace.rows.length;
  const matchedCount = trace.rows.filter((row) => row.matched).length;
  return (
    <div class="trace">
      <p>
        Inputs:{' '}
        {trace.inputs.map((input, c) => (
          <span key={c} class="trace-input">
            <code>{input.label}</code> = <code>{shown(input.value)}</code>
          </span>
        ))}
      </p>
      <p>
        {matchedCount === 0
          ? 'No row matched.'
          : `${matchedCount} of ${trace.rows.length} rows matched: ${trace.rows
              .filter((row) => row.matched)
              .map((row) => row.row)
              .join(', ')}.`}
      </p>
      {fits ? (
        <div class="scroll">
          <table class="grid trace-grid" aria-label="Trace of the decision table">
            <thead>
              <tr>
                <th scope="col">Row</th>
                {definition.inputs.map((input, c) => (
                  <th scope="col" key={`in-${c}`}>
                    {input.label || input.id}
                    <div class="muted">
                      = <code>{shown(trace.inputs[c]?.value)}</code>
                    </div>
                  </th>
                ))}
                {definition.outputs.map((output, o) => (
                  <th scope="col" key={`out-${o}`}>
                    {output.name}
                  </th>
                ))}
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {trace.rows.map((row) => {
                const cells = definition.rules[row.row - 1];
                const failing = failingColumn(trace, row, cells?.when);
                return (
                  <tr key={row.row} class={row.matched ? 'matched' : 'unmatched'}>
                    <th scope="row">{row.row}</th>
                    {definition.inputs.map((_, c) => {
                      const state = row.matched || c < failing ? 'matched' : c === failing ? 'failed-cell' : 'unchecked';
                      return (
                        <td key={`in-${c}`} class={state === 'unchecked' ? 'unmatched' : state}>
                          <code>{cells?.when[c]}</code>
                          {state === 'matched' && <span class="visually-hidden"> (matched)</span>}
                          {state === 'unchecked' && <span class="visually-hidden"> (not checked)</span>}
                          {state === 'failed-cell' && row.failed && <div class="problem">{failureText(row.failed)}</div>}
                        </td>
                      );
                    })}
                    {definition.outputs.map((_, o) => (
                      <td key={`out-${o}`} class={row.matched ? 'matched' : undefined}>
                        <code>{entryText(cells?.then[o])}</code>
                      </td>
                    ))}
                    <td>{row.matched ? <span class="badge ok">matched</span> : <span class="badge failed">no match</span>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : (
        <ol class="trace-rows">
          {trace.rows.map((row) => (
            <li key={row.row} class={row.matched ? 'matched' : 'failed-cell'}>
              Row {row.row}
              {row.id ? ` (${row.id})` : ''}: {row.matched ? 'matched' : row.failed ? failureText(row.failed) : 'did not match'}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function SimpleTraceView({ trace }: { trace: SimpleTrace }) {
  const state = trace.result === true ? 'matched' : trace.result === false ? 'unmatched' : 'failed-cell';
  return (
    <div class={`trace condition ${state}`}>
      <code>{trace.condition}</code>{' '}
      {trace.result === true
        ? 'held: the rule gave its “then” outputs.'
        : trace.result === false
          ? 'did not hold: the rule gave its “otherwise” outputs.'
          : 'could not be decided: the rule gave its “otherwise” outputs.'}
      {trace.reason && <div class="problem">Why: {trace.reason}</div>}
    </div>
  );
}

function SetTraceView({ trace }: { trace: SetTrace }) {
  return (
    <ol class="trace trace-entries">
      {trace.entries.map((entry) => (
        <li key={entry.id} class={entry.matched ? 'matched' : entry.reason ? 'failed-cell' : 'unmatched'}>
          <strong>{entry.id}</strong>:{' '}
          {entry.ruleId ? (
            <>
              rule <code>{entry.ruleId}</code>
            </>
          ) : (
            <code>{entry.condition}</code>
          )}{' '}
          {entry.matched ? 'matched' : 'did not match'}
          {entry.reason && <div class="problem">Why: {entry.reason}</div>}
          {entry.trace && <TraceView trace={entry.trace as RuleTrace} definition={undefined} />}
        </li>
      ))}
    </ol>
  );
}
