/** Maker-checker: branch protection and the change requests of a rule or workflow. */
import { proposeChangeSchema, protectionSchema, reviewChangeSchema } from '../entities/authoring-schema.ts';
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';

const onRequests = { branch: 'optional', query: emptyQuery } as const;
const flow =
  'On a protected branch a draft is published only through a change request: proposed (with its diff against the latest published version and its test cases run), approved by as many people as the branch requires (each a person other than the author, signed in, counted once; an API key approves only in a workspace whose access mapping sets keyApprovals, for one that has no people yet), then published with `changeRequestId`. An edit to the draft after it was proposed makes the request stale (409 change_request_stale) until it is proposed again; a rejected or published request is closed.';

export const changeRoutes = {
  protectBranch: {
    operationId: 'protectBranch',
    permission: 'manage',
    method: 'PUT',
    path: '/dev/v1/branches/{branch}/protection',
    handler: 'protect-branch',
    summary: 'Protect a branch: publishing there needs approved change requests',
    description: `Sets how many people must approve a change before it is published on the branch (1 to 5). ${flow}`,
    branch: 'none',
    query: emptyQuery,
    body: protectionSchema,
    tableAccess: 'readWrite',
  },
  unprotectBranch: {
    operationId: 'unprotectBranch',
    permission: 'manage',
    method: 'DELETE',
    path: '/dev/v1/branches/{branch}/protection',
    handler: 'unprotect-branch',
    summary: "Take a branch's protection away",
    description: 'Publishing on the branch no longer needs a change request. Open requests stay, and may still be published.',
    branch: 'none',
    query: emptyQuery,
    tableAccess: 'readWrite',
  },
  proposeChange: {
    ...onRequests,
    operationId: 'proposeChange',
    permission: 'write',
    method: 'POST',
    path: '/dev/v1/{entityType}/{entityId}/change-requests',
    handler: 'propose-change',
    summary: 'Propose the draft for publication (a change request)',
    description: `Proposes the draft whose \`checksum\` you name (201), with the field-by-field diff against the latest published version and the draft's test cases run; proposing the same draft again answers its open request (200). ${flow}`,
    body: proposeChangeSchema,
    tableAccess: 'readWrite',
  },
  listChangeRequests: {
    ...onRequests,
    operationId: 'listChangeRequests',
    permission: 'read',
    method: 'GET',
    path: '/dev/v1/{entityType}/{entityId}/change-requests',
    handler: 'list-change-requests',
    summary: 'The change requests of a rule or workflow',
    description: `Every change request of the rule or workflow on the branch, newest first, with its state, whether it is stale, its approvals and what the branch requires. ${flow}`,
    tableAccess: 'read',
  },
  getChangeRequest: {
    ...onRequests,
    operationId: 'getChangeRequest',
    permission: 'read',
    method: 'GET',
    path: '/dev/v1/{entityType}/{entityId}/change-requests/{changeRequestId}',
    handler: 'get-change-request',
    summary: 'One change request',
    description: `The request with its diff, test results, approvals and comments. ${flow}`,
    tableAccess: 'read',
  },
  approveChange: {
    ...onRequests,
    operationId: 'approveChange',
    permission: 'approve',
    method: 'POST',
    path: '/dev/v1/{entityType}/{entityId}/change-requests/{changeRequestId}/approve',
    handler: 'approve-change',
    summary: 'Approve a change request',
    description: `Adds the caller's approval, with a comment; approving again counts once. The author cannot approve (403 self_approval). An API key, personal keys included, is refused (403 key_cannot_approve) unless the workspace's access mapping sets keyApprovals. ${flow}`,
    body: reviewChangeSchema,
    tableAccess: 'readWrite',
  },
  rejectChange: {
    ...onRequests,
    operationId: 'rejectChange',
    permission: 'approve',
    method: 'POST',
    path: '/dev/v1/{entityType}/{entityId}/change-requests/{changeRequestId}/reject',
    handler: 'reject-change',
    summary: 'Reject a change request',
    description: `Closes the request as rejected, with a comment (its author may withdraw it so). A key may reject: a rejection publishes nothing. ${flow}`,
    body: reviewChangeSchema,
    tableAccess: 'readWrite',
  },
} satisfies Record<string, Route>;
