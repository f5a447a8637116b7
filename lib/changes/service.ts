/**
 * Maker-checker on a branch. A branch's protection names how many people
 * must approve a change; on a protected branch a draft is published only
 * through a change request: proposed (with its diff against the latest
 * published version and its test cases run), approved by enough distinct
 * people other than its author (who may approve, and the approvals that count: ./approvals.ts), then published with its id (the gate a
 * publish passes is lib/publishing/gate.ts). The request
 * holds the checksum it proposed, so an edit after it makes it stale, and
 * neither an approval nor a publish goes through until it is proposed again.
 * A rule with a replay gate is replayed when it is proposed, as its publish
 * will be (lib/replay/gate.ts): the request keeps the replay's task, and
 * shows its report, so that reviewers see what the change does to recorded
 * decisions before they approve it.
 */
import { randomBytes } from 'node:crypto';
import { personFacts, type Principal } from '../auth/authenticate.ts';
import type { Person } from '../auth/person-token.ts';
import { auditEvent, entityTarget, type Auditor } from '../auth/auditor.ts';
import { checkRule, runTestCases, type TestCase } from '../engine/authoring.ts';
import type { RuleDefinition } from '../engine/index.ts';
import { workflowKind } from '../vocabulary/kinds.ts';
import { errors } from '../vocabulary/errors.ts';
import { replayForReview } from '../replay/gate.ts';
import { compileDraft } from '../rules/draft.ts';
import type { ApiKey, Approval, BranchProtection, ChangeRequest, EntityRef, Store, StoredEntity, TaskStore } from '../store/types.ts';
import { taskView } from '../tasks/view.ts';
import { isValidBranchName } from '../vocabulary/branch-name.ts';
import { recordDiff } from './record-diff.ts';
import { newestVersionOf } from '../entities/service.ts';
import { actsFor, personOf } from '../auth/vouching.ts';
import { authorNames, mayApprove, standingApprovers } from './approvals.ts';

const newId = () => `cr_${randomBytes(10).toString('hex')}`;
const now = () => new Date().toISOString();
/** Failures listed in a request: enough to see what broke, bounded like every answer. */
const listedFailures = 20;

const recordOf = ({ name, description, type, tags, definition }: Pick<StoredEntity, 'name' | 'description' | 'type' | 'tags' | 'definition'>) => ({
  name,
  description,
  type,
  tags,
  definition,
});

/** The draft's saved test cases, run as a publish would run them; a rule that does not compile fails them all, saying why. */
async function runDraftTests(store: Store, ref: EntityRef, draft: StoredEntity): Promise<ChangeRequest['tests']> {
  const cases = ((draft.definition as { tests?: TestCase[] }).tests ?? []) as TestCase[];
  if (draft.type === workflowKind || !cases.length) return { total: cases.length, failed: 0, failures: [] };
  const { problems } = checkRule({ kind: draft.type, definition: draft.definition } as unknown as RuleDefinition);
  if (problems.length)
    return { total: cases.length, failed: cases.length, failures: [{ name: '(the draft)', message: `does not compile: ${problems[0]!.message}` }] };
  const { rule } = await compileDraft(store, ref, draft);
  const failures = runTestCases(rule, cases);
  return {
    total: cases.length,
    failed: failures.length,
    failures: failures
      .slice(0, listedFailures)
      .map((f) => ({ name: f.name, message: f.error ?? `expected ${JSON.stringify(f.expected)}, got ${JSON.stringify(f.actual)}` })),
  };
}

/**
 * Whether the request no longer proposes what it was approved for: the draft
 * was edited since (an edit back to the proposed content does not revive it
 * once a version was published in between), or a version was published since.
 */
const isStale = (request: ChangeRequest, draft: StoredEntity | undefined) =>
  !draft || draft.checksum !== request.checksum || newestVersionOf(draft) !== (request.newestVersion ?? request.baseVersion);

/**
 * A request as the API shows it: whether the draft or its versions moved
 * since (stale), each approval with whether it counts now (`standing`, the
 * owners whose approvals count: ./approvals.ts), and what the branch requires now.
 */
export function changeRequestView(
  request: ChangeRequest,
  draft: StoredEntity | undefined,
  protection: BranchProtection | undefined,
  standing: ReadonlySet<string>,
) {
  const approvals = Object.values(request.approvals)
    .sort((a, b) => (a.at < b.at ? -1 : 1))
    .map(({ person, ...approval }) => ({
      ...approval,
      ...(person && { person: personFacts(person) }),
      counts: standing.has(approval.owner),
    }));
  const stale = request.state === 'open' && isStale(request, draft);
  const required = protection?.requiredApprovals ?? 0;
  return {
    ...request,
    approvals,
    approvalsCounted: standing.size,
    stale,
    requiredApprovals: required,
    publishable: request.state === 'open' && !stale && standing.size >= required,
  };
}

/** The view of a request read from the store, its approvals weighed now. */
const viewOf = async (store: Store, request: ChangeRequest, draft: StoredEntity | undefined, protection: BranchProtection | undefined) =>
  changeRequestView(request, draft, protection, await standingApprovers(store, request));

/** Fixes the owner of the key acting (lib/auth/vouching.ts): once it proposed or approved, its owner cannot change. */
async function fixOwner(store: Store, workspaceId: string, key: ApiKey | undefined) {
  if (key && !key.ownerFixedAt) await store.updateApiKey(workspaceId, key.keyId, { ownerFixedAt: now() });
}

/**
 * Proposes the draft whose checksum is `checksum`. Proposing the same draft
 * again while its request is open answers that request (a retry).
 *
 * @example
 * await proposeChange(store, ref, { checksum, description: 'Fee up 2%' }, auditor); // { id: 'cr_…', state: 'open', diff: [...], tests: {...} }
 */
export async function proposeChange(store: Store, ref: EntityRef, body: { checksum: string; description: string }, auditor: Auditor) {
  const draft = await store.getEntity(ref);
  if (!draft) throw errors.entityNotFound(ref.entityType, ref.id);
  if (draft.checksum !== body.checksum) throw errors.checksumMismatch(ref.entityType, ref.id);
  if (draft.version && draft.publishedChecksum === draft.checksum) throw errors.nothingToPropose(ref.entityType, ref.id);
  const [existing, branch] = await Promise.all([store.listChangeRequests(ref), store.getBranch(ref.workspaceId, ref.branch)]);
  const same = existing.find((r) => r.state === 'open' && r.checksum === draft.checksum && r.author.owner === auditor.actor.owner);
  if (same) return { request: await viewOf(store, same, draft, branch?.protection), created: false };
  const base = draft.version ? await store.getVersion(ref, draft.version) : undefined;
  const { changes, truncated } = recordDiff(base ? recordOf(base) : {}, recordOf(draft));
  const request: ChangeRequest = {
    id: newId(),
    workspaceId: ref.workspaceId,
    branch: ref.branch,
    entityType: ref.entityType,
    entityId: ref.id,
    checksum: draft.checksum,
    description: body.description,
    baseVersion: draft.version,
    baseChecksum: base?.checksum ?? '',
    newestVersion: newestVersionOf(draft),
    author: { owner: auditor.actor.owner, keyId: auditor.actor.keyId },
    createdAt: now(),
    state: 'open',
    approvals: {},
    diff: changes,
    diffTruncated: truncated,
    tests: await runDraftTests(store, ref, draft),
  };
  await fixOwner(store, ref.workspaceId, await store.getApiKeyById(ref.workspaceId, auditor.actor.keyId));
  const replayTaskId = draft.type === workflowKind ? undefined : await replayForReview(store, ref, draft);
  if (replayTaskId) request.replayTaskId = replayTaskId;
  await store.createChangeRequest(
    ref,
    request,
    auditEvent(auditor, entityTarget(ref), { checksumBefore: request.baseChecksum, checksumAfter: request.checksum, detail: { changeRequestId: request.id } }),
  );
  return { request: changeRequestView(request, draft, branch?.protection, new Set()), created: true };
}

/** The request, the draft and the branch's protection, read together. */
export async function loadChangeRequest(store: Store, ref: EntityRef, id: string) {
  const [request, draft, branch] = await Promise.all([store.getChangeRequest(ref, id), store.getEntity(ref), store.getBranch(ref.workspaceId, ref.branch)]);
  if (!request) throw errors.changeRequestNotFound(id);
  return { request, draft, protection: branch?.protection };
}

/** The replay run when the request was proposed, as its task shows it (only its id once the task expired). */
async function reviewedReplay(store: TaskStore, request: ChangeRequest) {
  if (!request.replayTaskId) return {};
  const task = await store.getTask(request.replayTaskId);
  return { replay: { taskId: request.replayTaskId, ...(task?.kind === 'replay' && taskView(task).replay) } };
}

export async function getChangeRequest(store: Store, ref: EntityRef, id: string) {
  const { request, draft, protection } = await loadChangeRequest(store, ref, id);
  return { ...(await viewOf(store, request, draft, protection)), ...(await reviewedReplay(store, request)) };
}

export async function listChangeRequests(store: Store, ref: EntityRef) {
  const [requests, draft, branch] = await Promise.all([store.listChangeRequests(ref), store.getEntity(ref), store.getBranch(ref.workspaceId, ref.branch)]);
  if (!draft && !requests.length) throw errors.entityNotFound(ref.entityType, ref.id);
  return Promise.all(requests.map((request) => viewOf(store, request, draft, branch?.protection)));
}

/** Refuses a request that cannot move on: closed, or stale. */
export function mustBeOpen(request: ChangeRequest, draft: StoredEntity | undefined) {
  if (request.state !== 'open') throw errors.changeRequestClosed(request.id, request.state);
  if (isStale(request, draft)) throw errors.changeRequestStale(request.id);
}

/**
 * Approves as the caller: a person signed in (`person`), or an API key where
 * the workspace lets keys approve (./approvals.ts, refused first, before the
 * request is read). Never the author, by any name they go by, with any key,
 * nor a key that acts for the author (made by the author's key, or vouched for
 * by it) or is the same person (lib/auth/vouching.ts); once per owner (again
 * answers the request as it is).
 */
export async function approveChange(store: Store, ref: EntityRef, id: string, comment: string, auditor: Auditor, person?: Person) {
  await mayApprove(store, ref.workspaceId, person);
  const { request, draft, protection } = await loadChangeRequest(store, ref, id);
  mustBeOpen(request, draft);
  const { owner, keyId } = auditor.actor;
  const key = await store.getApiKeyById(ref.workspaceId, keyId);
  const [author, approver] = await Promise.all([authorNames(store, request), key && personOf(store, key)]);
  if (author.has(owner) || author.has(keyId) || (approver !== undefined && author.has(approver)) || (key && (await actsFor(store, key, request.author))))
    throw errors.selfApproval(request.author.owner);
  await fixOwner(store, ref.workspaceId, key);
  const approval: Approval = {
    owner,
    keyId,
    comment,
    at: now(),
    ...(person && { person: { ...personFacts(person), groups: person.groups } }),
  };
  const added = await store.approveChangeRequest(
    ref,
    id,
    approval,
    auditEvent(auditor, entityTarget(ref), { checksumAfter: request.checksum, detail: { changeRequestId: id } }),
  );
  const after = await loadChangeRequest(store, ref, id);
  // Not added: this owner approved already (answered as it is), or it closed meanwhile.
  if (!added && !after.request.approvals[owner]) mustBeOpen(after.request, after.draft);
  return viewOf(store, after.request, after.draft, protection);
}

/** Rejects and closes the request; rejecting a rejected one answers it as it is. */
export async function rejectChange(store: Store, ref: EntityRef, id: string, comment: string, auditor: Auditor) {
  const { request, draft, protection } = await loadChangeRequest(store, ref, id);
  if (request.state === 'rejected') return viewOf(store, request, draft, protection);
  if (request.state !== 'open') throw errors.changeRequestClosed(id, request.state);
  const { owner, keyId } = auditor.actor;
  const rejection: Approval = { owner, keyId, comment, at: now() };
  const closed = await store.closeChangeRequest(
    ref,
    id,
    { state: 'rejected', closedAt: rejection.at, rejection },
    auditEvent(auditor, entityTarget(ref), { detail: { changeRequestId: id } }),
  );
  const after = await loadChangeRequest(store, ref, id);
  if (!closed && after.request.state !== 'rejected') throw errors.changeRequestClosed(id, after.request.state);
  return viewOf(store, after.request, after.draft, protection);
}

/** Protects a branch (or, with null, takes its protection away): a key limited to branches may do so only on its own (held in the stack, lib/http/endpoint.ts). */
export async function setProtection(store: Store, caller: Principal, branch: string, requiredApprovals: number | null, auditor: Auditor) {
  if (!isValidBranchName(branch)) throw errors.branchPathNotFound(branch);
  const protection = requiredApprovals === null ? null : { requiredApprovals, updatedAt: now() };
  const detail = { requiredApprovals: requiredApprovals ?? 0 };
  if (!(await store.setBranchProtection(caller.workspace.id, branch, protection, auditEvent(auditor, { type: 'branch', id: branch, branch }, { detail }))))
    throw errors.branchPathNotFound(branch);
  return { branch, protection };
}
