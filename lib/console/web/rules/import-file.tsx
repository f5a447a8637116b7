/**
 * Rules from a file, on the rules list: pick a DMN, Excel, CSV or GoRules JDM
 * file, read the dry run's report (what would be created, replaced or left
 * as it is, every problem, every element the service does not carry, and for
 * a draft it would replace, the difference), then import it. The import
 * replaces exactly the drafts the report showed: it sends their checksums,
 * so a draft edited since is refused, not overwritten.
 */
import './rules.css';
import { useState } from 'preact/hooks';
import { formatFiles, formatOfExtension } from '../../../interchange/format-contract.ts';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { useLoad } from '../ui/use-load.ts';
import { DiffRows, DiffTable, linesOf } from './diff-table.tsx';
import { diffLines, sideBySide } from './line-diff.ts';

interface Finding {
  path: string;
  message: string;
}

interface ImportedRecord {
  id: string;
  type: string;
  name: string;
  action: 'create' | 'replace' | 'unchanged';
  checksum: string;
  previousChecksum?: string;
  checksumRequired?: boolean;
  warnings: Finding[];
  record?: { name: string; description: string; definition: unknown };
}

interface Report {
  dryRun: boolean;
  records: ImportedRecord[];
  problems: Finding[];
  notCarried: Finding[];
}

const accepted = Object.values(formatFiles).flatMap((format) => format.extensions);
const actionWords = { create: 'will be created', replace: 'will replace the draft', unchanged: 'is the same as the draft: left as it is' };

export function ImportRules({ onImported, onClose }: { onImported(): void; onClose(): void }) {
  const { api } = useConsole();
  const [file, setFile] = useState<File>();
  const [report, setReport] = useState<Report>();
  const [done, setDone] = useState<Report>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const send = async (chosen: File, dryRun: boolean, checksum?: string): Promise<Report> => {
    const format = formatOfExtension(chosen.name);
    return (await api.data(
      api.client.POST('/dev/v1/{entityType}/import', {
        params: {
          path: { entityType: 'rule' },
          query: { fileName: chosen.name, ...(dryRun && { dryRun: 'true' as const }), ...(format && { format }), ...(checksum && { checksum }) },
        },
        body: chosen as never,
        bodySerializer: (body: unknown) => body as BodyInit,
        headers: { 'Content-Type': 'application/octet-stream' },
      }),
    )) as unknown as Report;
  };

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const check = (chosen: File) =>
    run(async () => {
      setDone(undefined);
      setReport(await send(chosen, true));
    });

  const importIt = () =>
    run(async () => {
      const replaced = report!.records.filter((r) => r.action === 'replace').map((r) => `${r.id}:${r.previousChecksum}`);
      setDone(await send(file!, false, replaced.join(',') || undefined));
      setReport(undefined);
      onImported();
    });

  return (
    <section class="card import-rules" aria-labelledby="import-title">
      <h2 id="import-title">Import rules from a file</h2>
      <p class="muted">DMN 1.5 XML (Camunda, Drools), Excel or CSV decision tables, or a GoRules JDM graph. Nothing is saved until you import.</p>
      <label>
        File
        <input
          type="file"
          accept={accepted.join(',')}
          onChange={(event) => {
            const chosen = event.currentTarget.files?.[0];
            setFile(chosen);
            setReport(undefined);
            if (chosen) void check(chosen);
          }}
        />
      </label>
      {busy && <p role="status">Reading the file…</p>}
      <Failure error={error} title="The file could not be imported" />
      {report && <ImportReport report={report} />}
      {done && (
        <p role="status">
          Imported: {done.records.map((r) => `${r.id} (${r.action === 'create' ? 'created' : r.action === 'replace' ? 'replaced' : 'unchanged'})`).join(', ')}.
        </p>
      )}
      <div class="actions">
        <button type="button" disabled={!report || busy || report.problems.length > 0 || report.records.length === 0} onClick={importIt}>
          Import {report ? `${report.records.length} rule${report.records.length === 1 ? '' : 's'}` : ''}
        </button>
        <button type="button" class="quiet" onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}

function ImportReport({ report }: { report: Report }) {
  return (
    <div class="import-report">
      <h3>What the import would do</h3>
      {report.records.length === 0 && <p>The file holds no rule the service can import.</p>}
      <ul>
        {report.records.map((record) => (
          <li key={record.id}>
            <strong>{record.name}</strong> <code>{record.id}</code> ({record.type}) {actionWords[record.action]}
            {record.warnings.length > 0 && ` · ${record.warnings.length} warning${record.warnings.length === 1 ? '' : 's'}`}
            {record.action === 'replace' && <ReplacedDraft record={record} />}
          </li>
        ))}
      </ul>
      <Findings title="Problems (nothing is imported until they are fixed)" findings={report.problems} />
      <Findings title="Not carried: in the file, but kept by no rule" findings={report.notCarried} />
    </div>
  );
}

function Findings({ title, findings }: { title: string; findings: Finding[] }) {
  if (findings.length === 0) return null;
  return (
    <>
      <h4>{title}</h4>
      <ul class="findings">
        {findings.map((finding, at) => (
          <li key={at}>
            <code>{finding.path}</code>: {finding.message}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The draft an import replaces beside what the file holds, line by line. */
function ReplacedDraft({ record }: { record: ImportedRecord }) {
  const { api } = useConsole();
  const draft = useLoad(
    () => api.data(api.client.GET('/dev/v1/{entityType}/{entityId}', { params: { path: { entityType: 'rule', entityId: record.id } } })),
    [record.id],
  );
  if (!draft.value || !record.record) return <Failure error={draft.error} title={`Could not read the draft of ${record.id}`} />;
  const before = { name: draft.value.name, description: draft.value.description, definition: draft.value.definition };
  const after = { name: record.record.name, description: record.record.description, definition: record.record.definition };
  return (
    <DiffTable caption={`The draft of ${record.id} beside the file's table; changed lines are marked`} left="Draft" right="File">
      <DiffRows rows={sideBySide(diffLines(linesOf(before), linesOf(after)))} />
    </DiffTable>
  );
}
