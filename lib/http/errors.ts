/** Every failure the API reports, with its status and code: one place to read them all. */
export class ApiError extends Error {
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

export interface FieldIssue {
  in: 'path' | 'query' | 'header' | 'body';
  field: string;
  message: string;
}

export const errors = {
  apiKeyEmpty: () =>
    new ApiError(401, 'service_api_key_empty', 'The Service-API-Key header is empty or missing: supply your API key in it.', null),
  apiKeyInvalid: () =>
    new ApiError(401, 'service_api_key_invalid', 'The Service-API-Key is not valid: it is unknown, revoked, or not tied to a workspace.', null),
  apiKeyExpired: () => new ApiError(401, 'service_api_key_expired', 'The Service-API-Key has expired: ask for a new key.', null),
  invalidRequest: (issues: FieldIssue[]) =>
    new ApiError(
      400,
      'invalid_request',
      `The request is not valid: ${issues.map((i) => `${i.field}: ${i.message.replace(/\.$/, '')}`).join('; ')}.`,
      { errors: issues },
    ),
  branchRequired: () => new ApiError(400, 'branch_required', 'The Service-Branch header is required for this operation.'),
  invalidBranch: (name: string) =>
    new ApiError(400, 'invalid_branch', `"${name}" is not a valid branch name (git ref rules: no spaces, "..", "~", "^", ":", "?", "*", "[", "\\" or control characters).`),
  branchNotFound: (name: string) => new ApiError(400, 'branch_not_found', `The workspace has no branch "${name}".`),
  entityTypeNotFound: (type: string) =>
    new ApiError(404, 'entity_type_not_found', `"${type}" is not an entity type: use "rule" or "workflow".`),
  entityNotFound: (type: string, id: string) => new ApiError(404, 'entity_not_found', `No ${type} "${id}" on this branch.`),
  versionNotFound: (type: string, id: string, version: string) =>
    new ApiError(404, 'version_not_found', `The ${type} "${id}" has no published version "${version}".`),
  credentialNotFound: (id: string) => new ApiError(404, 'credential_not_found', `The workspace has no credential "${id}".`),
  credentialNameTaken: (name: string) =>
    new ApiError(409, 'credential_name_taken', `Another credential of the workspace is named "${name}": choose another name, or change that credential.`),
  credentialBusy: (name: string) =>
    new ApiError(409, 'credential_busy', `The credential "${name}" is being changed by another request: retry in a moment.`),
  credentialRevoked: (id: string) =>
    new ApiError(409, 'credential_revoked', `The credential "${id}" is revoked and is never sent again: create a new credential.`),
  remoteNotConfigured: (status = 400) =>
    new ApiError(status, 'remote_not_configured', 'The workspace has no remote: set one with PUT /dev/v1/remote before pulling.'),
  taskNotFound: (id: string) => new ApiError(404, 'task_not_found', `No task "${id}" in this workspace.`),
  internal: () =>
    new ApiError(500, 'internal_error', 'The service failed unexpectedly. Retry after a delay, backing off exponentially.'),
};
