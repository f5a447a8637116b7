/**
 * A side-by-side difference as a table: the two sides' names over their
 * columns, then rows of changed and kept lines, each numbered on its side and
 * a change marked with its sign and, for a screen reader, in words. The
 * version comparison shows one difference; a change request one a field.
 */
import type { ComponentChildren } from 'preact';
import { pretty } from '../ui/json.ts';
import type { SideBySideRow } from './line-diff.ts';

/** A value's lines as the difference compares them: pretty JSON, none for a value that is absent. */
export const linesOf = (value: unknown): string[] => (value === undefined ? [] : pretty(value).split('\n'));

/** The table; its bodies are `DiffRows`, one or more. */
export function DiffTable(props: { caption: string; left: string; right: string; children: ComponentChildren }) {
  return (
    <div class="scroll">
      <table class="diff">
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col" colSpan={2}>
              {props.left}
            </th>
            <th scope="col" colSpan={2}>
              {props.right}
            </th>
          </tr>
        </thead>
        {props.children}
      </table>
    </div>
  );
}

/** One difference's rows, under a heading row when it is one of several. */
export function DiffRows({ rows, heading }: { rows: SideBySideRow[]; heading?: ComponentChildren }) {
  return (
    <tbody>
      {heading && (
        <tr class="diff-heading">
          <th scope="rowgroup" colSpan={4}>
            {heading}
          </th>
        </tr>
      )}
      {rows.map((row, at) => (
        <tr key={at} class={row.changed ? 'diff-changed' : undefined}>
          <DiffSide side={row.left} changed={row.changed} sign="−" what="removed" />
          <DiffSide side={row.right} changed={row.changed} sign="+" what="added" />
        </tr>
      ))}
    </tbody>
  );
}

function DiffSide({ side, changed, sign, what }: { side: SideBySideRow['left']; changed: boolean; sign: string; what: string }) {
  if (!side)
    return (
      <>
        <td class="diff-number" />
        <td class="diff-line diff-empty" />
      </>
    );
  return (
    <>
      <td class="diff-number">{side.number}</td>
      <td class={changed ? `diff-line diff-${what}` : 'diff-line'}>
        {changed && (
          <>
            <span class="diff-sign" aria-hidden="true">
              {sign}
            </span>
            <span class="visually-hidden">{what}: </span>
          </>
        )}
        <code>{side.text}</code>
      </td>
    </>
  );
}
