/**
 * The rule's published versions (who published each, by name) and a
 * side-by-side difference between any two of them (or the saved draft): each
 * is read with ?version=, its definition pretty-printed, and the lines that
 * differ marked on both sides. The comparison starts from what an author asks
 * first (`comparison.ts`), and starts again from there once the saved draft or
 * the versions change, so that no result stays about a draft that is gone.
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { defaultComparison, draftLabel as draft, type Sides } from './comparison.ts';
import { DiffRows, DiffTable, linesOf } from './diff-table.tsx';
import { diffLines, sideBySide, type SideBySideRow } from './line-diff.ts';
import type { RuleRecord } from './model.ts';

interface Comparison extends Sides {
  rows: SideBySideRow[];
}

export function VersionsPanel({ rule }: { rule: RuleRecord }) {
  const { api } = useConsole();
  const labels = rule.versions.map((version) => version.version);
  // What the picks and the result are about: the saved draft and the versions there are.
  const about = `${rule.checksum} ${labels.join(' ')}`;
  const [picked, setPicked] = useState<Sides & { about: string }>();
  const { left, right } = picked?.about === about ? picked : defaultComparison(rule.versions, rule.checksum);
  const pick = (side: Partial<Sides>) => setPicked({ left, right, ...side, about });
  const [result, setResult] = useState<{ about: string; comparison?: Comparison; error?: unknown }>();
  const { comparison, error } = result?.about === about ? result : {};
  const [loading, setLoading] = useState(false);

  const definitionOf = async (label: string) => {
    const query = label === draft ? {} : { version: label };
    const record = await api.data(api.client.GET('/dev/v1/{entityType}/{entityId}', { params: { path: { entityType: 'rule', entityId: rule.id }, query } }));
    return linesOf(record.definition);
  };

  const compare = async (event: Event) => {
    event.preventDefault();
    setLoading(true);
    setResult(undefined);
    try {
      const [before, after] = await Promise.all([definitionOf(left), definitionOf(right)]);
      setResult({ about, comparison: { left, right, rows: sideBySide(diffLines(before, after)) } });
    } catch (failure) {
      setResult({ about, error: failure });
    } finally {
      setLoading(false);
    }
  };

  const name = (label: string) => (label === draft ? 'the saved draft' : label);
  const options = [...labels, draft].map((label) => (
    <option key={label} value={label}>
      {label === draft ? 'Saved draft' : label}
    </option>
  ));
  const sideField = (side: keyof Sides, label: string) => (
    <div class="field">
      <label for={`compare-${side}`}>{label}</label>
      <select id={`compare-${side}`} value={side === 'left' ? left : right} onChange={(event) => pick({ [side]: event.currentTarget.value })}>
        {options}
      </select>
    </div>
  );
  const changed = comparison?.rows.filter((row) => row.changed).length ?? 0;

  return (
    <section class="card" aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      {rule.versions.length === 0 ? (
        <p>Not published yet.</p>
      ) : (
        <div class="scroll">
          <table>
            <caption class="visually-hidden">Published versions</caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Published</th>
                <th scope="col">By</th>
                <th scope="col">Checksum</th>
              </tr>
            </thead>
            <tbody>
              {[...rule.versions].reverse().map((version) => (
                <tr key={version.version}>
                  <th scope="row">{version.version}</th>
                  <td>
                    <time dateTime={version.publishedAt}>{new Date(version.publishedAt).toLocaleString()}</time>
                  </td>
                  <td>{version.publishedByName}</td>
                  <td>
                    <code title={version.checksum}>{version.checksum.slice(0, 12)}</code>
                    {version.checksum === rule.checksum && <span class="badge ok">the draft</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rule.versions.length > 0 && (
        <form class="compare-form" aria-label="Compare versions" onSubmit={compare}>
          {/* Labels by `for`, not around the select: a wrapping label's text would take in every option's. */}
          {sideField('left', 'Compare')}
          {sideField('right', 'With')}
          <button type="submit" disabled={loading}>
            {loading ? 'Comparing…' : 'Compare'}
          </button>
        </form>
      )}
      <Failure error={error} title="Could not compare" />
      {comparison && (
        <>
          <p role="status">
            {changed === 0
              ? `${name(comparison.left)} and ${name(comparison.right)} have the same definition.`
              : `${changed} line${changed === 1 ? '' : 's'} differ between ${name(comparison.left)} and ${name(comparison.right)}.`}
          </p>
          <DiffTable
            caption={`Definition of ${name(comparison.left)} beside ${name(comparison.right)}; changed lines are marked`}
            left={name(comparison.left)}
            right={name(comparison.right)}
          >
            <DiffRows rows={comparison.rows} />
          </DiffTable>
        </>
      )}
    </section>
  );
}
