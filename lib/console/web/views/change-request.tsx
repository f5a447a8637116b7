/**
 * One change request of a rule or workflow: its state (and, when the draft
 * was edited since it was proposed, that it is stale and why), its
 * description and author, what it changes field by field against the version
 * it was proposed on (each field's before and after as a line difference, as
 * the version comparison shows), its test cases' results, and its approvals
 * and comments or its rejection. While it is open: Approve and Reject, each
 * with a comment, and Publish once it is publishable. Each follows what the
 * key may do, and the API's refusals are shown in its own words: the
 * author's own approval (self_approval), a stale request, approvals missing.
 */
import '../rules/rules.css';
import '../changes/changes.css';
import { useId, useState } from 'preact/hooks';
import { StateBadges } from '../changes/list.tsx';
import { approvalsAgainst, approvalsOf, publishableOnce, type ChangeRequest } from '../changes/model.ts';
import { useConsole } from '../context.ts';
import { hrefOf, type EntityType } from '../route.ts';
import { DiffRows, DiffTable, linesOf } from '../rules/diff-table.tsx';
import { diffLines, sideBySide } from '../rules/line-diff.ts';
import { Failure } from '../ui/failure.tsx';
import { Field } from '../ui/field.tsx';
import { useFocusOnOpen } from '../ui/focus.ts';
import { when } from '../ui/local-time.ts';
import { Notice } from '../ui/notice.tsx';
import { usePermit, Why } from '../ui/permitted.tsx';
import { FailingCases, PublishOutcome, usePublish } from '../ui/publish.tsx';
import { PanelForm } from '../ui/record-section.tsx';
import { useLoad } from '../ui/use-load.ts';

interface Props {
  entityType: EntityType;
  entityId: string;
  changeRequestId: string;
}

type Verdict = 'approve' | 'reject';

/** Another request is another page: nothing of one request's forms or answers carries over to the next. */
export function ChangeRequestView(props: Props) {
  return <ChangeRequestPage key={`${props.entityType}/${props.entityId}/${props.changeRequestId}`} {...props} />;
}

/** Why an open request cannot be published yet; undefined when it can. */
function waitsFor(request: ChangeRequest): string | undefined {
  if (request.publishable) return undefined;
  if (request.stale) return 'Publish waits for the draft as it is now to be proposed and approved: this request is stale.';
  return `Publish waits for ${approvalsOf(request.requiredApprovals)}; it has ${request.approvalsCounted}.`;
}

function ChangeRequestPage({ entityType, entityId, changeRequestId }: Props) {
  const { api, caller } = useConsole();
  const loaded = useLoad(
    () =>
      api.data(
        api.client.GET('/dev/v1/{entityType}/{entityId}/change-requests/{changeRequestId}', { params: { path: { entityType, entityId, changeRequestId } } }),
      ),
    [],
  );
  const [verdict, setVerdict] = useState<Verdict>();
  const [notice, setNotice] = useState<string>();
  const publishing = usePublish(entityType, entityId, { published: loaded.reload });
  const permits = { approve: usePermit('approveChange'), reject: usePermit('rejectChange'), publish: usePermit('publishEntity') };
  const waitingNote = useId();
  const ownNote = useId();
  const request = loaded.value;
  // The author's own approval can only be refused (403 self_approval): Approve says so beforehand. The API also refuses keys that act for the author.
  const own = request !== undefined && (request.author.keyId === caller.keyId || request.author.owner === caller.owner);
  const section = entityType === 'rule' ? { href: hrefOf.rules, label: 'Rules' } : { href: hrefOf.workflows, label: 'Workflows' };
  const trail = (
    <p class="muted">
      <a href={section.href}>{section.label}</a> / <a href={hrefOf.entity(entityType, entityId)}>{entityId}</a> / change request
    </p>
  );

  if (loaded.error && !request)
    return (
      <section aria-labelledby="change-request-title">
        {trail}
        <h1 id="change-request-title">Change request {changeRequestId}</h1>
        <Failure error={loaded.error} title="Could not read the change request" />
      </section>
    );
  if (!request) return <p role="status">Loading the change request…</p>;

  const waiting = waitsFor(request);
  const decided = (message: string) => {
    setVerdict(undefined);
    setNotice(message);
    loaded.reload();
  };

  return (
    <article class="change-request" aria-labelledby="change-request-title">
      {trail}
      <h1 id="change-request-title">
        Change request for {entityId} <StateBadges request={request} />
      </h1>
      <dl class="facts">
        <dt>Proposed by</dt>
        <dd>
          {request.author.owner} <span class="muted">(key {request.author.keyId})</span>, {when(request.createdAt)}
        </dd>
        <dt>Changes</dt>
        <dd>
          {request.baseVersion ? `${request.baseVersion}, the latest published version when it was proposed` : 'nothing published yet: the first version'}
        </dd>
        <dt>Approvals</dt>
        <dd>
          {approvalsAgainst(request.approvalsCounted, request.requiredApprovals)}
          {request.approvalsCounted < request.approvals.length && ` (${request.approvals.length - request.approvalsCounted} no longer count)`}
        </dd>
        {request.publishedVersion && (
          <>
            <dt>Published as</dt>
            <dd>{request.publishedVersion}</dd>
          </>
        )}
        {request.closedAt && (
          <>
            <dt>Closed</dt>
            <dd>{when(request.closedAt)}</dd>
          </>
        )}
      </dl>
      {request.stale && (
        <div class="warning">
          <strong>Stale: the draft was edited after this request proposed it</strong>
          <p>
            It can be neither approved nor published as it is. Propose the draft as it is now from the{' '}
            <a href={hrefOf.entity(entityType, entityId)}>{entityType}'s page</a>, and have that approved.
          </p>
        </div>
      )}
      <Notice>{notice}</Notice>
      <PublishOutcome published={publishing.published} error={publishing.error} />

      <section class="card" aria-labelledby="description-title">
        <h2 id="description-title">Description</h2>
        <p class="description">{request.description}</p>
      </section>

      {request.state === 'open' && (
        <section class="card" aria-labelledby="review-title">
          <h2 id="review-title">Review</h2>
          <p class="hint">Each person's approval counts once, and not the author's, with any key. {publishableOnce(request.requiredApprovals)}</p>
          <div class="actions">
            {(['approve', 'reject'] as const).map((each) => (
              <button
                key={each}
                type="button"
                class={each === 'reject' ? 'danger' : 'secondary'}
                aria-expanded={verdict === each}
                disabled={!permits[each].allowed || (each === 'approve' && own)}
                aria-describedby={[permits[each].describedBy, each === 'approve' && own && ownNote].filter(Boolean).join(' ') || undefined}
                onClick={() => (setNotice(undefined), setVerdict(each))}
              >
                {verdicts[each].button}
              </button>
            ))}
            <button
              type="button"
              onClick={() => (setNotice(undefined), publishing.publish({ changeRequestId: request.id }))}
              disabled={publishing.publishing || !request.publishable || !permits.publish.allowed}
              aria-describedby={[permits.publish.describedBy, waiting && waitingNote].filter(Boolean).join(' ') || undefined}
            >
              {publishing.publishing ? 'Publishing…' : 'Publish'}
            </button>
          </div>
          <Why permits={[permits.approve, permits.reject, permits.publish]} />
          {own && (
            <p class="hint" id={ownNote}>
              {caller.person ? 'You' : `${request.author.owner}, whose key you use,`} proposed this change: another person approves it.
            </p>
          )}
          {waiting && (
            <p class="hint" id={waitingNote}>
              {waiting}
            </p>
          )}
          {verdict && (
            <VerdictForm key={verdict} verdict={verdict} request={request} onDone={decided} onFailed={loaded.reload} onCancel={() => setVerdict(undefined)} />
          )}
        </section>
      )}

      <Changes request={request} />
      <Tests tests={request.tests} />
      <Reviews request={request} />
    </article>
  );
}

const verdicts = {
  approve: { button: 'Approve', title: 'Approve this change', submit: 'Send approval', failure: 'Not approved', done: 'Approved.' },
  reject: { button: 'Reject', title: 'Reject this change', submit: 'Send rejection', failure: 'Not rejected', done: 'Rejected: the request is closed.' },
} as const;

/** Approve or reject with a comment; a refusal stays in the form, in the API's words, and the request is read again (it may have gone stale). */
function VerdictForm(props: { verdict: Verdict; request: ChangeRequest; onDone(message: string): void; onFailed(): void; onCancel(): void }) {
  const { api } = useConsole();
  const [comment, setComment] = useState('');
  const first = useFocusOnOpen<HTMLTextAreaElement>();
  const words = verdicts[props.verdict];
  const send = async () => {
    const { entityType, entityId, id } = props.request;
    const call = { params: { path: { entityType, entityId, changeRequestId: id } }, body: { comment: comment.trim() } };
    try {
      await api.data(
        props.verdict === 'approve'
          ? api.client.POST('/dev/v1/{entityType}/{entityId}/change-requests/{changeRequestId}/approve', call)
          : api.client.POST('/dev/v1/{entityType}/{entityId}/change-requests/{changeRequestId}/reject', call),
      );
    } catch (failure) {
      props.onFailed();
      throw failure;
    }
    props.onDone(words.done);
  };
  return (
    <PanelForm
      title={words.title}
      hint={props.verdict === 'approve' ? 'Your approval, with what you checked.' : 'Closes the request for good: say why, for its author.'}
      submit={words.submit}
      busy="Sending…"
      cancel="Cancel"
      failureTitle={words.failure}
      onSubmit={send}
      onCancel={props.onCancel}
    >
      {(problems) => (
        <Field label="Comment" problem={problems.get('comment')} class="full">
          {(control) => (
            <textarea
              {...control}
              ref={first}
              rows={3}
              required={props.verdict === 'reject'}
              value={comment}
              onInput={(e) => setComment(e.currentTarget.value)}
            />
          )}
        </Field>
      )}
    </PanelForm>
  );
}

/** What the request changes, field by field: each field's value before and after, as a line difference of its JSON. */
function Changes({ request }: { request: ChangeRequest }) {
  const base = request.baseVersion ? `Published ${request.baseVersion}` : 'Not published';
  const count = request.diff.length;
  return (
    <section class="card" aria-labelledby="changes-title">
      <h2 id="changes-title">What changes</h2>
      <p>
        {count} field{count === 1 ? '' : 's'} change against {request.baseVersion || 'nothing published'}.
        {request.diffTruncated && ` Only the first ${count} are listed: the change is larger.`}
      </p>
      {count > 0 && (
        <DiffTable caption={`Each field that changes: ${base} beside the proposed draft; changed lines are marked`} left={base} right="Proposed">
          {request.diff.map((change) => (
            <DiffRows key={change.path} heading={<code>{change.path}</code>} rows={sideBySide(diffLines(linesOf(change.before), linesOf(change.after)))} />
          ))}
        </DiffTable>
      )}
    </section>
  );
}

/** The draft's saved cases, as they ran when it was proposed. */
function Tests({ tests }: { tests: ChangeRequest['tests'] }) {
  return (
    <section class="card" aria-labelledby="tests-title">
      <h2 id="tests-title">Test cases</h2>
      <p>
        {tests.total === 0
          ? 'The draft has no saved test cases.'
          : `${tests.total - tests.failed} of ${tests.total} passed when it was proposed${tests.failed ? `; ${tests.failed} failed` : ''}.`}
      </p>
      <FailingCases failures={tests.failures} columns={[{ header: 'What failed', cell: (failed) => failed.message }]} />
    </section>
  );
}

/**
 * Who approved it, when and with what comment, oldest first; and who rejected
 * it, why. An approval that no longer counts (its key revoked, expired, out of
 * the branch, renamed, or acting for the author) says so.
 */
function Reviews({ request }: { request: ChangeRequest }) {
  const reviews = [
    ...request.approvals.map((review) => ({ review, verb: 'approved', lapsed: !review.counts })),
    ...(request.rejection ? [{ review: request.rejection, verb: 'rejected', lapsed: false }] : []),
  ];
  return (
    <section class="card" aria-labelledby="reviews-title">
      <h2 id="reviews-title">Approvals and comments</h2>
      {reviews.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <ul class="reviews">
          {reviews.map(({ review, verb, lapsed }) => (
            <li key={`${verb} ${review.owner}`} class={verb}>
              <strong>{review.owner}</strong> {verb} <span class="muted">(key {review.keyId})</span>, {when(review.at)}
              {lapsed && <em>: no longer counts (its key was revoked, expired, moved off the branch or renamed, or acts for the author)</em>}
              {review.comment && <blockquote>{review.comment}</blockquote>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
