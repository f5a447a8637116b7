/**
 * What each place a credential's key can go (a header or the query, as
 * the store lists them) accepts. Apart from ./schema.ts so that opening a
 * credential for a workflow step builds none of the request schemas.
 */
import { DROPPED_HEADERS as unsendableHeaders } from '../outbound/headers.ts';
import type { CredentialPlacement } from '../store/types.ts';

/** RFC 9110 token: what a header name may be. */
export const headerNamePattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible characters with inner spaces: what a header value may carry without being altered or split. */
export const headerValuePattern = /^[\x21-\x7e\x80-\xff](?:[\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$/;

/** Checks that depend on where the key goes; for a change they run on the merged result. */
export function placementIssues(credential: { key: string; placement: CredentialPlacement; value?: string }) {
  const issues: { field: string; message: string }[] = [];
  if (credential.placement === 'header' && !headerNamePattern.test(credential.key))
    issues.push({ field: 'key', message: "must be a valid HTTP header name (letters, digits and !#$%&'*+.^_`|~-) when placed in a header" });
  else if (credential.placement === 'header' && unsendableHeaders.has(credential.key.toLowerCase()))
    issues.push({ field: 'key', message: `"${credential.key}" is a header the HTTP client sets itself and cannot carry a key` });
  if (credential.placement === 'header' && credential.value !== undefined && !headerValuePattern.test(credential.value))
    issues.push({ field: 'value', message: 'must be visible ASCII or Latin-1 characters when placed in a header' });
  return issues;
}
