/**
 * The rules (or workflows) of the branch: the list API's filters, sorting and
 * paging as a form, its page as a table, and a form to create a draft.
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import { ImportRules } from '../rules/import-file.tsx';
import { hrefOf, navigate } from '../route.ts';
import { kindLabels, ruleKinds, starterDefinition, type EntityKind } from '../starters.ts';
import { Failure } from '../ui/failure.tsx';
import { usePermit, Why, type Permit } from '../ui/permitted.tsx';
import { useLoad } from '../ui/use-load.ts';

type SortBy = 'name' | 'createdAt' | 'updatedAt';

interface Filters {
  name: string;
  type: string;
  status: '' | 'draft' | 'published';
  sortBy: SortBy;
  sortDir: 'asc' | 'desc';
  pageNo: number;
  pageSize: number;
}

const firstFilters: Filters = { name: '', type: '', status: '', sortBy: 'name', sortDir: 'asc', pageNo: 1, pageSize: 20 };

export function EntityList({ entityType }: { entityType: 'rule' | 'workflow' }) {
  const { api } = useConsole();
  const [filters, setFilters] = useState(firstFilters);
  const set = (change: Partial<Filters>) => setFilters({ ...filters, pageNo: 1, ...change });
  const list = useLoad(
    () =>
      api.page(
        api.client.GET('/dev/v1/{entityType}', {
          params: {
            path: { entityType },
            query: {
              pageNo: filters.pageNo,
              pageSize: filters.pageSize,
              sortBy: filters.sortBy,
              sortDir: filters.sortDir,
              ...(filters.name && { name: filters.name }),
              ...(filters.type && { type: filters.type }),
              ...(filters.status && { status: filters.status }),
            },
          },
        }),
      ),
    [entityType, JSON.stringify(filters)],
  );
  const create = usePermit('createEntity');
  const importing = usePermit('importRules');
  const [importOpen, setImportOpen] = useState(false);
  const title = entityType === 'rule' ? 'Rules' : 'Workflows';
  const href = entityType === 'rule' ? hrefOf.rule : hrefOf.workflow;

  return (
    <section aria-labelledby="list-title">
      <div class="heading">
        <h1 id="list-title">{title}</h1>
        <div class="actions">
          {entityType === 'rule' && (
            <button type="button" disabled={!importing.allowed || importOpen} aria-describedby={importing.describedBy} onClick={() => setImportOpen(true)}>
              Import
            </button>
          )}
          <NewEntity entityType={entityType} permit={create} onCreated={(id) => navigate(href(id))} />
        </div>
      </div>
      <Why permits={entityType === 'rule' ? [create, importing] : [create]} />
      {importOpen && <ImportRules onImported={list.reload} onClose={() => setImportOpen(false)} />}
      <form class="filters" role="search" aria-label={`Filter ${title.toLowerCase()}`} onSubmit={(e) => e.preventDefault()}>
        <label>
          Name contains
          <input type="search" value={filters.name} onInput={(e) => set({ name: e.currentTarget.value })} />
        </label>
        {entityType === 'rule' && (
          <label>
            Kind
            <select value={filters.type} onChange={(e) => set({ type: e.currentTarget.value })}>
              <option value="">Any</option>
              {ruleKinds.map((kind) => (
                <option key={kind} value={kind}>
                  {kindLabels[kind]}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Status
          <select value={filters.status} onChange={(e) => set({ status: e.currentTarget.value as Filters['status'] })}>
            <option value="">Any</option>
            <option value="draft">Draft</option>
            <option value="published">Published</option>
          </select>
        </label>
        <label>
          Sort by
          <select value={filters.sortBy} onChange={(e) => set({ sortBy: e.currentTarget.value as SortBy })}>
            <option value="name">Name</option>
            <option value="createdAt">Created</option>
            <option value="updatedAt">Updated</option>
          </select>
        </label>
        <label>
          Order
          <select value={filters.sortDir} onChange={(e) => set({ sortDir: e.currentTarget.value as Filters['sortDir'] })}>
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
        </label>
      </form>
      <Failure error={list.error} title={`Could not list the ${title.toLowerCase()}`} />
      {list.value && (
        <>
          <div class="scroll">
            <table>
              <caption class="visually-hidden">{title} of the branch</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Status</th>
                  <th scope="col">Version</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {list.value.data.map((entity) => (
                  <tr key={entity.id}>
                    <td>
                      <a href={href(entity.id)}>{entity.name}</a>
                      <div class="muted">{entity.id}</div>
                    </td>
                    <td>{kindLabels[entity.type as EntityKind] ?? entity.type}</td>
                    <td>
                      <span class={`badge ${entity.status}`}>{entity.status}</span>
                    </td>
                    <td>{entity.version || '—'}</td>
                    <td>
                      <time dateTime={entity.updatedAt}>{new Date(entity.updatedAt).toLocaleString()}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {list.value.data.length === 0 && <p>Nothing matches.</p>}
          <nav class="pager" aria-label="Pages">
            <button type="button" disabled={filters.pageNo <= 1} onClick={() => setFilters({ ...filters, pageNo: filters.pageNo - 1 })}>
              Previous page
            </button>
            <span aria-live="polite">
              Page {list.value.pageNo} of {Math.max(1, list.value.totalPages)} · {list.value.totalCount} in all
            </span>
            <button type="button" disabled={filters.pageNo >= list.value.totalPages} onClick={() => setFilters({ ...filters, pageNo: filters.pageNo + 1 })}>
              Next page
            </button>
          </nav>
        </>
      )}
    </section>
  );
}

function NewEntity({ entityType, permit, onCreated }: { entityType: 'rule' | 'workflow'; permit: Permit; onCreated(id: string): void }) {
  const { api } = useConsole();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ id: '', name: '', type: (entityType === 'rule' ? 'decisionTable' : 'workflow') as EntityKind });
  const [error, setError] = useState<unknown>();
  if (!open)
    return (
      <button type="button" disabled={!permit.allowed} aria-describedby={permit.describedBy} onClick={() => setOpen(true)}>
        New {entityType}
      </button>
    );
  return (
    <form
      class="card new-entity"
      aria-label={`New ${entityType}`}
      onSubmit={async (event) => {
        event.preventDefault();
        setError(undefined);
        try {
          const created = await api.data(
            api.client.POST('/dev/v1/{entityType}', {
              params: { path: { entityType } },
              body: { id: form.id.trim(), name: form.name.trim(), type: form.type, definition: starterDefinition(form.type) },
            }),
          );
          onCreated(created.id);
        } catch (failure) {
          setError(failure);
        }
      }}
    >
      <label>
        Id
        <input required value={form.id} onInput={(e) => setForm({ ...form, id: e.currentTarget.value })} placeholder="shipping-fee" />
      </label>
      <label>
        Name
        <input required value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
      </label>
      {entityType === 'rule' && (
        <label>
          Kind
          <select value={form.type} onChange={(e) => setForm({ ...form, type: e.currentTarget.value as EntityKind })}>
            {ruleKinds.map((kind) => (
              <option key={kind} value={kind}>
                {kindLabels[kind]}
              </option>
            ))}
          </select>
        </label>
      )}
      <div class="actions">
        <button type="submit">Create draft</button>
        <button type="button" class="quiet" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      <Failure error={error} title={`Could not create the ${entityType}`} />
    </form>
  );
}
