/**
 * The workspace's audit log, for a key that manages it: its records newest
 * first, filtered as the API filters them (time range, owner, key,
 * operation, target type and id, branch, outcome), a page at a time ("Load
 * older records" goes on from the page's `next`); and the check of its hash
 * chain, which says the chain is intact or names the first record that does
 * not fit, and why.
 */
import { Fragment, type ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import type { operations } from '../schema.ts';
import { Failure } from '../ui/failure.tsx';
import { instantOf, when } from '../ui/local-time.ts';
import { Notice } from '../ui/notice.tsx';
import { PermittedView, usePermit, Why } from '../ui/permitted.tsx';
import { useLoad } from '../ui/use-load.ts';

type Page = operations['listAudit']['responses'][200]['content']['application/json']['data'];
type AuditRecord = Page['records'][number];
type Verification = operations['verifyAudit']['responses'][200]['content']['application/json']['data'];

/** The filters the API matches exactly, with their labels. */
const exact = [
  ['owner', 'Owner'],
  ['keyId', 'Key id'],
  ['operation', 'Operation'],
  ['targetType', 'Target type'],
  ['targetId', 'Target id'],
  ['branch', 'Branch'],
] as const;
type ExactFilter = (typeof exact)[number][0];

type Filters = Record<ExactFilter, string> & {
  /** datetime-local values; empty: unbounded. */
  from: string;
  to: string;
  outcome: '' | 'ok' | 'forbidden';
  limit: number;
};

const noFilters: Filters = { from: '', to: '', owner: '', keyId: '', operation: '', targetType: '', targetId: '', branch: '', outcome: '', limit: 50 };
const pageSizes = [10, 25, 50, 100];

/** The API's query for the filters, from `before` on (the newest first when absent). */
const queryOf = (filters: Filters, before: number | undefined) => ({
  limit: filters.limit,
  ...(before !== undefined && { before }),
  ...(filters.from && { from: instantOf(filters.from) }),
  ...(filters.to && { to: instantOf(filters.to) }),
  ...(filters.outcome && { outcome: filters.outcome }),
  ...Object.fromEntries(exact.flatMap(([name]) => (filters[name].trim() ? [[name, filters[name].trim()]] : []))),
});

export function AuditView() {
  return (
    <PermittedView operation="listAudit" title="Audit log">
      <AuditPage />
    </PermittedView>
  );
}

function AuditPage() {
  const { api } = useConsole();
  // The form as typed, and what the table shows: a filter applies when the form is sent.
  const [typed, setTyped] = useState(noFilters);
  const [applied, setApplied] = useState(noFilters);
  const read = (before: number | undefined) => api.data(api.client.GET('/dev/v1/audit', { params: { query: queryOf(applied, before) } }));
  const first = useLoad(() => read(undefined), [applied]);
  // The pages after the first, as "Load older records" adds them; a new first page starts the list again.
  const [older, setOlder] = useState<Page>();
  const [olderError, setOlderError] = useState<unknown>();
  const [loadingOlder, setLoadingOlder] = useState(false);
  const shownFirst = useRef(first.value);
  shownFirst.current = first.value;
  useEffect(() => {
    setOlder(undefined);
    setOlderError(undefined);
  }, [first.value]);

  const records = [...(first.value?.records ?? []), ...(older?.records ?? [])];
  const next = older ? older.next : (first.value?.next ?? null);

  const loadOlder = async () => {
    if (next === null) return;
    const from = first.value;
    setLoadingOlder(true);
    setOlderError(undefined);
    try {
      const page = await read(next);
      // Records of filters applied since then would mix with the new list.
      if (shownFirst.current === from) setOlder({ records: [...(older?.records ?? []), ...page.records], next: page.next });
    } catch (failure) {
      setOlderError(failure);
    } finally {
      setLoadingOlder(false);
    }
  };

  return (
    <section aria-labelledby="audit-title" class="audit">
      <h1 id="audit-title">Audit log</h1>
      <p class="muted">
        Every write and every refusal (403) of the workspace, newest first: who did it (key, owner, role), the operation, its target and the outcome. Each
        record holds the hash of the one before, so a record changed, removed or put out of order breaks the chain.
      </p>
      <VerifyChain />
      <form
        class="filters"
        role="search"
        aria-label="Filter the audit log"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied(typed);
        }}
      >
        <label>
          From
          <input type="datetime-local" value={typed.from} onInput={(e) => setTyped({ ...typed, from: e.currentTarget.value })} />
        </label>
        <label>
          To
          <input type="datetime-local" value={typed.to} onInput={(e) => setTyped({ ...typed, to: e.currentTarget.value })} />
        </label>
        {exact.map(([name, label]) => (
          <label key={name}>
            {label}
            <input value={typed[name]} onInput={(e) => setTyped({ ...typed, [name]: e.currentTarget.value })} />
          </label>
        ))}
        <label>
          Outcome
          <select value={typed.outcome} onChange={(e) => setTyped({ ...typed, outcome: e.currentTarget.value as Filters['outcome'] })}>
            <option value="">Any</option>
            <option value="ok">ok</option>
            <option value="forbidden">forbidden (refused with 403)</option>
          </select>
        </label>
        <label>
          Per page
          <select value={typed.limit} onChange={(e) => setTyped({ ...typed, limit: Number(e.currentTarget.value) })}>
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <div class="actions">
          <button type="submit">Show records</button>
          <button type="button" class="quiet" onClick={() => (setTyped(noFilters), setApplied(noFilters))}>
            Clear filters
          </button>
        </div>
      </form>
      <p class="hint">Operation is an operationId of the API, such as createKey or publishEntity; times are in your browser's time zone.</p>
      <Failure error={first.error} title="Could not read the audit log" />
      {first.value && records.length === 0 && <p>No record matches.</p>}
      {records.length > 0 && (
        <div class="scroll">
          <table class="audit-records">
            <caption class="visually-hidden">Audit records, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Record</th>
                <th scope="col">Who</th>
                <th scope="col">Operation</th>
                <th scope="col">Target</th>
                <th scope="col">Outcome</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {records.map((record) => (
                <RecordRow key={record.seq} record={record} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Failure error={olderError} title="Could not read older records" />
      {records.length > 0 && (
        <div class="actions">
          {next !== null ? (
            <button type="button" class="secondary" onClick={loadOlder} disabled={loadingOlder}>
              {loadingOlder ? 'Loading…' : 'Load older records'}
            </button>
          ) : (
            <span class="muted">No older records match.</span>
          )}
          <span aria-live="polite" class="muted">
            {records.length} shown
          </span>
        </div>
      )}
    </section>
  );
}

function RecordRow({ record }: { record: AuditRecord }) {
  // What the operation changed (its detail), then what ties the record to its request and to the chain; a write without a checksum has none to show.
  const facts: [string, ComponentChildren][] = [
    ...Object.entries(record.detail ?? {}).map(([name, value]): [string, ComponentChildren] => [name, String(value)]),
    ['Checksum before', record.checksumBefore && <code>{record.checksumBefore}</code>],
    ['Checksum after', record.checksumAfter && <code>{record.checksumAfter}</code>],
    ['Request id', <code>{record.requestId}</code>],
    ['Hash', <code class="hash">{record.hash}</code>],
  ];
  return (
    <tr>
      <th scope="row">
        {`#${record.seq}`}
        <div class="muted">
          <time dateTime={record.at}>{when(record.at)}</time>
        </div>
      </th>
      <td>
        <Actor actor={record.actor} />
      </td>
      <td>
        <code>{record.operation}</code>
      </td>
      <td>
        {record.target.type}
        {record.target.id && (
          <>
            {' '}
            <code>{record.target.id}</code>
          </>
        )}
        {record.target.branch && <div class="muted">on {record.target.branch}</div>}
      </td>
      <td>
        <span class={`badge ${record.outcome}`}>{record.outcome}</span>
      </td>
      <td>
        <details>
          <summary>
            Details<span class="visually-hidden"> of record {record.seq}</span>
          </summary>
          <dl class="facts">
            {facts
              .filter(([, value]) => value)
              .map(([name, value]) => (
                <Fragment key={name}>
                  <dt>{name}</dt>
                  <dd>{value}</dd>
                </Fragment>
              ))}
          </dl>
        </details>
      </td>
    </tr>
  );
}

/** "Verify chain": the API recomputes the chain and answers intact, or the first record that does not fit and why. */
function VerifyChain() {
  const { api } = useConsole();
  const permit = usePermit('verifyAudit');
  const [result, setResult] = useState<Verification>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const verify = async () => {
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      setResult(await api.data(api.client.GET('/dev/v1/audit/verify')));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="verify-title">
      <h2 id="verify-title">Hash chain</h2>
      <div class="actions">
        <button type="button" onClick={verify} disabled={busy || !permit.allowed} aria-describedby={permit.describedBy}>
          {busy ? 'Verifying…' : 'Verify chain'}
        </button>
        <span class="hint">Recomputes the hash of every kept record and its link to the one before.</span>
      </div>
      <Why permits={[permit]} />
      <Failure error={error} title="The chain could not be checked" />
      {result?.intact && (
        <Notice>
          The chain is intact:{' '}
          {result.checked === 0
            ? 'no records yet.'
            : `${result.checked} records checked, #${result.first} to #${result.last}${result.head ? `; the head is #${result.head.seq}` : ''}.`}
        </Notice>
      )}
      {result && !result.intact && (
        <div class="failure" role="alert">
          <strong>The chain is broken at record #{result.break?.seq ?? '?'}</strong>
          <p>{result.break?.reason ?? 'The API named no reason.'}</p>
          <p class="muted">{result.checked} records checked.</p>
        </div>
      )}
    </section>
  );
}

/** Who acted: a person by their name (and e-mail) as the issuer said then, a key by its owner and id, a personal key with its person. */
function Actor({ actor }: { actor: AuditRecord['actor'] }) {
  const { person } = actor;
  if (actor.kind === 'person' || (!actor.kind && person && actor.keyId.startsWith('person_')))
    return (
      <>
        {person?.name ?? person?.email ?? actor.owner}
        <div class="muted">
          person{person?.name && person.email ? ` · ${person.email}` : ''} · {actor.role || 'no role'}
        </div>
      </>
    );
  return (
    <>
      {actor.owner}
      <div class="muted">
        {person ? 'personal key' : actor.kind === 'service' ? 'the service' : 'key'} <code>{actor.keyId}</code> · {actor.role}
      </div>
    </>
  );
}
