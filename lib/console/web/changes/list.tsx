/**
 * The change requests of a rule or workflow on the branch, newest first, each
 * linked to its page: what it says it changes, who proposed it and when, its
 * state (stale when the draft was edited since) and its approvals against
 * what the branch requires. Shown on a protected branch, and on any branch
 * that has some (a branch's protection may have been taken away since).
 */
import { useConsole } from '../context.ts';
import { hrefOf, type EntityType } from '../route.ts';
import { Failure } from '../ui/failure.tsx';
import { useLoad } from '../ui/use-load.ts';
import { approvalsCell, type ChangeRequest } from './model.ts';
import { when } from '../ui/local-time.ts';

export function ChangeRequestList({ entityType, entityId }: { entityType: EntityType; entityId: string }) {
  const { api, requiredApprovals } = useConsole();
  const list = useLoad(
    () => api.data(api.client.GET('/dev/v1/{entityType}/{entityId}/change-requests', { params: { path: { entityType, entityId } } })),
    [entityType, entityId],
  );
  const requests = list.value ?? [];
  if (requiredApprovals === 0 && requests.length === 0 && !list.error) return null;
  return (
    <section class="card" aria-labelledby="change-requests-title">
      <div class="heading">
        <h2 id="change-requests-title">Change requests</h2>
        <button type="button" class="secondary" onClick={list.reload} disabled={list.loading}>
          Refresh change requests
        </button>
      </div>
      <Failure error={list.error} title="Could not list the change requests" />
      {list.value && requests.length === 0 && <p>None yet: propose the saved draft to make one.</p>}
      {requests.length > 0 && (
        <div class="scroll">
          <table>
            <caption class="visually-hidden">Change requests of {entityId}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Description</th>
                <th scope="col">State</th>
                <th scope="col">Approvals</th>
                <th scope="col">Proposed by</th>
                <th scope="col">Proposed</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((request) => (
                <tr key={request.id}>
                  <th scope="row">
                    <a href={hrefOf.changeRequest(entityType, entityId, request.id)}>{request.description}</a>
                  </th>
                  <td>
                    <StateBadges request={request} />
                  </td>
                  <td>{approvalsCell(request.approvalsCounted, request.requiredApprovals)}</td>
                  <td>{request.author.owner}</td>
                  <td>{when(request.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A request's state, and "stale" beside an open one whose draft was edited since. */
export function StateBadges({ request }: { request: Pick<ChangeRequest, 'state' | 'stale'> }) {
  return (
    <>
      <span class={`badge ${request.state}`}>{request.state}</span>
      {request.stale && <span class="badge stale">stale</span>}
    </>
  );
}
