/** Every failure the API reports, with its status and code: one place to read them all. */
import type { TestCaseFailure } from '../engine/authoring.ts';
import type { EngineError, EngineErrorCode } from '../engine/errors.ts';
import { entityTypes } from './kinds.ts';

export class ApiError extends Error {
  /** Set on a refusal raised before the caller had a principal: the workspace whose audit log records it, and who tried. */
  refusedIn?: {
    workspaceId: string;
    actor: {
      kind?: 'person' | 'key' | 'service';
      keyId: string;
      owner: string;
      role: string;
      person?: { issuer: string; subject: string; email?: string; name?: string };
    };
  };

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: unknown = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * A refusal: the caller may not do this (403), or a protected branch does not
 * let it through (409 branch_protected). Every refusal is recorded in the
 * audit log, wherever in the call it was raised (lib/http/endpoint.ts).
 */
export const isRefusal = (error: unknown): error is ApiError => error instanceof ApiError && (error.status === 403 || error.code === 'branch_protected');

export interface FieldIssue {
  in: 'path' | 'query' | 'header' | 'body';
  field: string;
  message: string;
}

/** A problem of a rule or a record, by its path in the definition (`definition.rules[2].when[0]`). */
export interface PathProblem {
  path: string;
  message: string;
}

/** A saved test case that failed at publish: what it expected and what came (or the error it raised). */
export type FailedCase = TestCaseFailure;

/** Details naming the body field a failure is about, when there is one. */
const inBodyField = (field: string | undefined, message: string) => (field ? { errors: [{ in: 'body', field, message }] } : {});

/** An id as a message shows it: whole up to the longest any stored id can be, else its start (a caller's mistake need not be echoed at length). */
function shownId(id: string): string {
  // String(): lib/openapi/raised-errors.ts calls these with placeholders for arguments it cannot know.
  const text = String(id);
  return text.length > 128 ? `${text.slice(0, 60)}… (${text.length} characters)` : text;
}

/**
 * How much of a list of problems a failure shows. A body of 500 KB can hold
 * 20,000 faulty fields (each named in the details and again in the message),
 * and a rule's failing test cases can each have answered megabytes: in full,
 * such an answer outgrows what a function can send back (a Lambda function's
 * answer is at most 6 MB, and API Gateway answers 502 past it). The first few
 * show what is wrong; the message says how many more there are.
 */
export const shownProblems = {
  /** Entries of the details (`errors`, `problems`). */
  listed: 100,
  /** Of those, named in the message. */
  inMessage: 10,
  /** Characters of a field's name or a problem's text. */
  text: 500,
  /** Characters of a failing test case's answer as JSON; a larger one is left out, and the failure says so. */
  answer: 10_000,
} as const;

const clipped = (text: string) => (text.length > shownProblems.text ? `${text.slice(0, shownProblems.text)}… (${text.length} characters)` : text);

/** The first `shownProblems.inMessage` items, each as `text` gives it, and how many more there are. */
function summary<T>(items: readonly T[], text: (item: T) => string): string {
  const named = items.slice(0, shownProblems.inMessage).map(text).join('; ');
  const more = items.length - shownProblems.inMessage;
  return more > 0 ? `${named}; and ${more} more` : named;
}

const shownIssues = (issues: FieldIssue[]) =>
  issues.slice(0, shownProblems.listed).map((i) => ({ in: i.in, field: clipped(i.field), message: clipped(i.message) }));
const shownPathProblems = (problems: PathProblem[]) =>
  problems.slice(0, shownProblems.listed).map((p) => ({ path: clipped(p.path), message: clipped(p.message) }));
const listed = (problems: PathProblem[]) => summary(problems, (p) => `${clipped(p.path)}: ${clipped(p.message).replace(/\.$/, '')}`);

/** A failing test case as a failure shows it: an answer too large to show is left out, and the failure says so. */
function shownFailure(failure: FailedCase): FailedCase {
  const size = JSON.stringify(failure.actual)?.length ?? 0;
  if (size <= shownProblems.answer) return failure;
  return { ...failure, actual: null, error: `its answer, ${size} characters as JSON, is too large to show here: test the rule with these params to see it` };
}

export const errors = {
  apiKeyEmpty: () => new ApiError(401, 'service_api_key_empty', 'The Service-API-Key header is empty or missing: supply your API key in it.', null),
  apiKeyInvalid: () =>
    new ApiError(401, 'service_api_key_invalid', 'The Service-API-Key is not valid: it is unknown, revoked, or not tied to a workspace.', null),
  apiKeyExpired: () => new ApiError(401, 'service_api_key_expired', 'The Service-API-Key has expired: ask for a new key.', null),
  /** A person's bearer token that failed a check (lib/auth/person-token.ts): the code says which. */
  tokenInvalid: (
    code:
      | 'token_malformed'
      | 'token_expired'
      | 'token_not_yet_valid'
      | 'token_issuer_invalid'
      | 'token_audience_invalid'
      | 'token_algorithm_refused'
      | 'token_signature_invalid',
    why: string,
  ) => new ApiError(401, code, `The bearer token is not accepted: ${why}.`, null),
  bearerNotAccepted: () =>
    new ApiError(401, 'bearer_not_accepted', 'This service signs no one in with a bearer token: supply your API key in the Service-API-Key header.', null),
  notAMember: (workspace: string) =>
    new ApiError(
      403,
      'forbidden',
      `You have no role in the workspace "${shownId(workspace)}": its managers give roles to your groups or your e-mail (GET /dev/v1/access).`,
      { workspace },
    ),
  peopleOnly: () =>
    new ApiError(
      403,
      'people_only',
      'Only a person signed in (Authorization: Bearer) may do this: a personal key belongs to the person who made it. A key makes keys with POST /dev/v1/keys.',
    ),
  personalKeyOwner: (keyId: string) =>
    new ApiError(403, 'personal_key_owner', `The API key "${shownId(keyId)}" is a personal key: its owner is the person who made it, and does not change.`, {
      keyId,
    }),
  selfLockout: () =>
    new ApiError(
      409,
      'self_lockout',
      'This mapping would take the permission manage away from you: another manager must make that change, so the workspace keeps one.',
    ),
  signInUnavailable: () =>
    new ApiError(503, 'sign_in_unavailable', "The issuer's keys could not be read to verify the bearer token. Retry after a delay.", null),
  invalidRequest: (issues: FieldIssue[]) =>
    new ApiError(
      400,
      'invalid_request',
      `The request is not valid: ${summary(issues, (i) => `${clipped(i.field)}: ${clipped(i.message).replace(/\.$/, '')}`)}.`,
      { errors: shownIssues(issues) },
    ),
  forbidden: (permission: string, role: string) =>
    new ApiError(403, 'forbidden', `This key (role ${role}) lacks the permission "${permission}" this operation needs: use a key whose role grants it.`, {
      permission,
      role,
    }),
  branchForbidden: (branch: string, allowed: readonly string[]) =>
    new ApiError(
      403,
      'forbidden',
      `This key is limited to the branches ${allowed.map((b) => `"${shownId(b)}"`).join(', ')}: it cannot use "${shownId(branch)}".`,
      { branch, branches: [...allowed] },
    ),
  workspaceWide: (allowed: readonly string[]) =>
    new ApiError(
      403,
      'forbidden',
      `This key is limited to the branches ${allowed.map((b) => `"${shownId(b)}"`).join(', ')}: what the whole workspace shares (credentials and their hosts, integrations, the Git remote, the audit log's export) is changed or sent out only with a key without a branch limit.`,
      { workspaceWide: true, branches: [...allowed] },
    ),
  keyNotFound: (keyId: string) => new ApiError(404, 'key_not_found', `The workspace has no API key "${shownId(keyId)}".`),
  keyRevoked: (keyId: string) =>
    new ApiError(409, 'key_revoked', `The API key "${shownId(keyId)}" is revoked: a revoked key cannot be changed. Make a new one.`),
  ownerFixed: (keyId: string, since: string) =>
    new ApiError(
      403,
      'owner_fixed',
      `The API key "${shownId(keyId)}" has proposed or approved a change request (first on ${since}): its owner is fixed, so that its approvals stay one person's. Make a new key for another owner.`,
      { keyId, ownerFixedAt: since },
    ),
  lastAdmin: (keyId: string) =>
    new ApiError(
      409,
      'last_admin',
      `The API key "${shownId(keyId)}" is the workspace's last usable admin key (unexpired, on every branch): make another admin key before revoking, limiting, expiring or demoting it.`,
    ),
  branchProtected: (branch: string) =>
    new ApiError(
      409,
      'branch_protected',
      `The branch "${shownId(branch)}" is protected: a draft is published there only through an approved change request (POST .../change-requests, then publish with its changeRequestId), and a published rule or workflow is not deleted.`,
      { branch },
    ),
  deleteProtected: (branch: string, kept: string[]) =>
    new ApiError(
      409,
      'branch_protected',
      `The branch "${shownId(branch)}" is protected, and it serves or may roll out ${kept.slice(0, 10).map(shownId).join(', ')}${kept.length > 10 ? `, and ${kept.length - 10} more` : ''}: a published rule or workflow, or one with a candidate, is not deleted there. Deleting it needs the protection taken away first.`,
      { branch },
    ),
  candidateNotApproved: (branch: string, version: string) =>
    new ApiError(
      409,
      'branch_protected',
      `The branch "${shownId(branch)}" is protected: only a candidate that an approved change request published is rolled out or promoted there, and ${shownId(version)} was not (publish the draft with {"candidate": true} through a change request).`,
      { branch },
    ),
  pushUnapproved: (branch: string, drafts: string[]) =>
    new ApiError(
      409,
      'branch_protected',
      `The branch "${shownId(branch)}" is protected, and ${drafts.length === 1 ? 'a draft there is' : `${drafts.length} drafts there are`} not what it serves (${drafts.slice(0, 10).map(shownId).join(', ')}${drafts.length > 10 ? ', …' : ''}): a push from it sends only approved content. Publish them through change requests, or push from another branch.`,
      { branch },
    ),
  /** A branch named in the path (the header's is branchNotFound and invalidBranch, 400). */
  branchPathNotFound: (name: string) => new ApiError(404, 'branch_not_found', `The workspace has no branch "${shownId(name)}".`),
  changeRequestNotFound: (id: string) =>
    new ApiError(404, 'change_request_not_found', `No change request "${shownId(id)}" for this rule or workflow on this branch.`),
  changeRequestClosed: (id: string, state: string) =>
    new ApiError(409, 'change_request_closed', `The change request "${shownId(id)}" is ${state}: it can no longer be approved, rejected or published.`, {
      state,
    }),
  changeRequestStale: (id: string) =>
    new ApiError(
      409,
      'change_request_stale',
      `The draft was edited, or a version published, after the change request "${shownId(id)}" proposed it: propose the draft as it is now, and have that approved.`,
    ),
  selfApproval: (owner: string) =>
    new ApiError(403, 'self_approval', `The change request was proposed by "${shownId(owner)}": its author cannot approve it, with any key.`, { owner }),
  keyCannotApprove: () =>
    new ApiError(
      403,
      'key_cannot_approve',
      'An API key cannot approve a change request: people approve, signed in with their company identity (Authorization: Bearer), each counted once. A workspace that has no people yet may let its keys approve with keyApprovals: true in its access mapping (PUT /dev/v1/access).',
    ),
  approvalsMissing: (id: string, approvals: number, required: number) =>
    new ApiError(
      409,
      'approvals_missing',
      `The change request "${shownId(id)}" has ${approvals} of the ${required} approvals the branch requires (each by another person than its author).`,
      { approvals, required },
    ),
  nothingToPropose: (type: string, id: string) =>
    new ApiError(409, 'nothing_to_propose', `The draft of the ${type} "${shownId(id)}" is its latest published version: edit it before proposing.`),
  branchRequired: () => new ApiError(400, 'branch_required', 'The Service-Branch header is required for this operation.'),
  invalidBranch: (name: string) =>
    new ApiError(
      400,
      'invalid_branch',
      `"${name}" is not a valid branch name (git ref rules: no spaces, "..", "~", "^", ":", "?", "*", "[", "\\" or control characters).`,
    ),
  branchNotFound: (name: string) => new ApiError(400, 'branch_not_found', `The workspace has no branch "${name}".`),
  entityTypeNotFound: (type: string, served: readonly string[] = entityTypes) =>
    new ApiError(404, 'entity_type_not_found', `"${type}" is not an entity type of this operation: use ${served.map((t) => `"${t}"`).join(' or ')}.`),
  entityNotFound: (type: string, id: string) => new ApiError(404, 'entity_not_found', `No ${type} "${shownId(id)}" on this branch.`),
  versionNotFound: (type: string, id: string, version: string) =>
    new ApiError(404, 'version_not_found', `The ${type} "${id}" has no published version "${version}".`),
  entityExists: (type: string, id: string) =>
    new ApiError(
      409,
      'entity_exists',
      `The branch already has a ${type} "${id}" with other content: change it with PATCH and its checksum, or choose another id.`,
    ),
  checksumMismatch: (type: string, id: string) =>
    new ApiError(
      409,
      'checksum_mismatch',
      `The ${type} "${id}" has changed since the checksum you sent: get it again, and apply your change to what it holds now.`,
    ),
  publishRefused: (type: string, id: string, problems: PathProblem[]) =>
    new ApiError(409, 'publish_refused', `The ${type} "${id}" cannot be published: ${listed(problems)}.`, { problems: shownPathProblems(problems) }),
  testsFailed: (id: string, failures: FailedCase[]) =>
    new ApiError(
      409,
      'tests_failed',
      `The rule "${id}" is not published: ${failures.length} of its test cases failed (${summary(failures, (f) => `"${clipped(f.name)}"`)}).`,
      {
        failures: failures.slice(0, shownProblems.listed).map(shownFailure),
      },
    ),
  ruleInvalid: (id: string, problems: PathProblem[]) =>
    new ApiError(409, 'rule_invalid', `The rule "${id}" cannot run: its definition has problems (${listed(problems)}). Fix them with PATCH first.`, {
      problems: shownPathProblems(problems),
    }),
  ruleNotPrepared: (id: string, version: string) =>
    new ApiError(
      409,
      'rule_not_prepared',
      `Version ${version} of the rule "${id}" was published without the compiled form executing needs (before versions kept it, or with problems in its text): publish a new version.`,
    ),
  ruleNotPublished: (id: string) =>
    new ApiError(409, 'rule_not_published', `The rule "${id}" has no published version yet: publish it, or try the draft with POST .../test.`),
  ruleReferenceNotFound: (message: string) => new ApiError(409, 'rule_reference_not_found', message),
  ruleReferenceCycle: (message: string) => new ApiError(409, 'rule_reference_cycle', message),
  ruleReferencesTooMany: (message: string) => new ApiError(409, 'rule_reference_limit', message),
  workflowNotPublished: (id: string) =>
    new ApiError(409, 'workflow_not_published', `The workflow "${id}" has no published version yet: publish it, or try the draft with POST .../test.`),
  workflowInvalid: (id: string, problems: PathProblem[]) =>
    new ApiError(409, 'workflow_invalid', `The workflow "${id}" cannot run: its definition has problems (${listed(problems)}). Fix them with PATCH first.`, {
      problems: shownPathProblems(problems),
    }),
  workflowNotPrepared: (id: string, version: string) =>
    new ApiError(
      409,
      'workflow_not_prepared',
      `Version ${version} of the workflow "${id}" was published without the compiled form running needs (its text had problems): publish a new version.`,
    ),
  /** Every try to open a pull task lost a race with other pulls of the branch started at the same moment (docs/import-export.md, "Remote pull and push"). */
  pullConflict: () => new ApiError(409, 'pull_conflict', 'Other pulls of this branch were started at the same moment. Retry.'),
  /** Every try to open a push task lost a race with other pulls or pushes of the branch started at the same moment. */
  pushConflict: () => new ApiError(409, 'push_conflict', 'Other pulls or pushes of this branch were started at the same moment. Retry.'),
  /** A branch runs one pull or push at a time: asking for the other while one is open. */
  remoteBusy: (running: 'pull' | 'push', taskId: string) =>
    new ApiError(
      409,
      'remote_busy',
      `A ${running} of this branch is in progress (task ${taskId}): ${running === 'pull' ? 'push' : 'pull'} once it has ended (GET /dev/v1/tasks/${taskId}).`,
    ),
  stepNotFound: (workflowId: string, stepId: string) => new ApiError(404, 'step_not_found', `The workflow "${workflowId}" has no step "${shownId(stepId)}".`),
  evaluationFailed: (message: string) => new ApiError(422, 'evaluation_failed', message),
  scheduleNotSupported: () =>
    new ApiError(
      400,
      'schedule_not_supported',
      'Only rules are scheduled: a workflow has no schedule. Schedule the rules it runs, under /dev/v1/rule/{id}/schedule.',
    ),
  coverageNotSupported: () =>
    new ApiError(
      400,
      'coverage_not_supported',
      'Coverage is counted for rules only: a workflow has no rows, entries or branches to cover. Read the coverage of the rules it runs, under /dev/v1/rule/{id}/coverage.',
    ),
  /** With `field`, the details name the body field that asked for it. */
  rolloutNotSupported: (field?: string) => {
    const message =
      "Only rules have candidates and rollouts: a workflow's API-request steps have effects at its providers, which running a second version beside it would make twice. Roll out the rules it runs instead.";
    return new ApiError(400, 'rollout_not_supported', message, inBodyField(field, 'only rules have candidate versions'));
  },
  rolloutRefused: (id: string, why: string) => new ApiError(409, 'rollout_refused', `The rollout of the rule "${shownId(id)}" cannot start: ${why}`),
  promoteRefused: (id: string, why: string) => new ApiError(409, 'promote_refused', `The rule "${shownId(id)}" cannot be promoted: ${why}`),
  scheduleNotFound: (id: string) =>
    new ApiError(404, 'schedule_not_found', `The rule "${id}" has no schedule on this branch: save one with POST /dev/v1/rule/${id}/schedule.`),
  replayNotSupported: () =>
    new ApiError(
      400,
      'replay_not_supported',
      "Only rules are replayed: a workflow's API-request steps have effects on providers, which a replay would make again. Replay the rules it runs.",
    ),
  /** The publish gate (lib/replay/gate.ts): the draft changes too many recorded outcomes; the details hold the replay, a completed task. */
  replayGate: (id: string, gate: { changed: number; inputs: number; maxChangedRatio: number }, taskId: string, report: unknown) =>
    new ApiError(
      409,
      'replay_gate',
      `The rule "${id}" is not published: its draft changes the outcome of ${gate.changed} of the ${gate.inputs} recorded executions replayed, more than the share of ${gate.maxChangedRatio} its settings.replayGate allows. Look at the report (task ${taskId}); to publish anyway, publish with acknowledgeReplay: "${taskId}".`,
      { taskId, report },
    ),
  /** `acknowledgeReplay` names no replay a publish may go ahead on. */
  replayNotAcknowledgeable: (taskId: string, why: string) => {
    const message = `The task "${shownId(taskId)}" cannot acknowledge this publish: ${why}`;
    return new ApiError(409, 'replay_not_acknowledgeable', message, inBodyField('acknowledgeReplay', message));
  },
  /** With `field`, the details name the body field that named the credential. */
  credentialNotFound: (id: string, field?: string) => {
    const message = `The workspace has no credential "${shownId(id)}".`;
    return new ApiError(404, 'credential_not_found', message, inBodyField(field, message));
  },
  credentialNameTaken: (name: string) =>
    new ApiError(409, 'credential_name_taken', `Another credential of the workspace is named "${name}": choose another name, or change that credential.`),
  credentialBusy: (name: string) => new ApiError(409, 'credential_busy', `The credential "${name}" is being changed by another request: retry in a moment.`),
  credentialRevoked: (id: string, field?: string) => {
    const message = `The credential "${id}" is revoked and is never sent again: create a new credential.`;
    return new ApiError(409, 'credential_revoked', message, inBodyField(field, message));
  },
  integrationNotFound: (id: string) => new ApiError(404, 'integration_not_found', `The workspace has no integration "${shownId(id)}".`),
  integrationNameTaken: (name: string) =>
    new ApiError(409, 'integration_name_taken', `Another integration of the workspace is named "${name}": choose another name, or change that integration.`),
  integrationBusy: (name: string) => new ApiError(409, 'integration_busy', `The integration "${name}" is being changed by another request: retry in a moment.`),
  remoteNotConfigured: (status = 400) =>
    new ApiError(status, 'remote_not_configured', 'The workspace has no remote: set one with PUT /dev/v1/remote before pulling or pushing.'),
  writeConflict: (what: string) =>
    new ApiError(
      409,
      'write_conflict',
      `The ${what} was changed by other requests at the same moment, again and again while this one was written: retry after a short delay.`,
    ),
  taskNotFound: (id: string) => new ApiError(404, 'task_not_found', `No task "${shownId(id)}" in this workspace.`),
  fileTooLarge: (message: string) => new ApiError(413, 'file_too_large', message),
  /** A batch whose answers outgrow what one answer can carry (a Lambda function answers at most 6 MB), by the first `reached` of its inputs. */
  answerTooLarge: (reached: number, inputs: number, maxBytes: number) => {
    const message = `The answers to the first ${reached} of the ${inputs} inputs come to more than the ${maxBytes / 1024 / 1024} MiB one answer can carry: split paramsList into smaller lists.`;
    return new ApiError(413, 'answer_too_large', message, inBodyField('paramsList', message));
  },
  fileRefused: (bound: string, message: string) => new ApiError(400, 'file_refused', message, { bound }),
  unsupportedFile: (contentType: string, accepted: readonly string[]) =>
    new ApiError(
      415,
      'unsupported_media_type',
      `A file of the type "${clipped(contentType || 'none')}" cannot be imported: send DMN XML, an XLSX workbook, CSV or GoRules JDM JSON, with its Content-Type (${accepted.join(', ')}), or name the format with ?format=.`,
      { accepted: [...accepted] },
    ),
  importRefused: (problems: PathProblem[], notCarried: PathProblem[]) =>
    new ApiError(400, 'import_refused', `Nothing was imported: ${listed(problems)}.`, {
      problems: shownPathProblems(problems),
      notCarried: shownPathProblems(notCarried),
    }),
  /** An import over a draft that exists with other content, without the draft's checksum. */
  importWouldReplace: (type: string, id: string) =>
    new ApiError(
      409,
      'checksum_required',
      `The branch has a draft of the ${type} "${id}" with other content: to replace it, send the draft's checksum (?checksum=${id}:<checksum>), as an edit does. A dry run (?dryRun=true) shows what would change.`,
      { id },
    ),
  formatCannotHold: (format: string, id: string, reason: string) =>
    new ApiError(400, 'format_cannot_hold', `The rule "${shownId(id)}" cannot be written as ${format}: ${reason}`, { format }),
  internal: () => new ApiError(500, 'internal_error', 'The service failed unexpectedly. Retry after a delay, backing off exponentially.'),
};

/**
 * The status and code of each engine failure: the one place engine codes
 * become HTTP answers (the envelope's onError asks `fromEngineError`). Bad
 * params are the caller's input, so a 400 naming each param; a rule that
 * cannot answer for these params is 422; a rule set whose references do not
 * resolve is a conflict with the branch's state, 409.
 */
const engineErrorAnswers: Record<EngineErrorCode, (error: EngineError) => ApiError> = {
  invalid_params: (error) =>
    errors.invalidRequest(
      error.problems.length
        ? error.problems.map((p) => ({ in: 'body', field: p.field, message: p.message }))
        : [{ in: 'body', field: 'params', message: error.message }],
    ),
  evaluation_failed: (error) => errors.evaluationFailed(error.message),
  rule_reference_not_found: (error) => errors.ruleReferenceNotFound(error.message),
  rule_reference_cycle: (error) => errors.ruleReferenceCycle(error.message),
};

export const fromEngineError = (error: EngineError): ApiError => engineErrorAnswers[error.code](error);

/** A write that others kept changing under it until its tries ran out (`retryOnRevisionConflict`): a conflict the caller may retry, not a failure. */
export const fromRevisionConflict = (error: { what: string }): ApiError => errors.writeConflict(error.what);
