/** The workspace's Git remote: where pulls fetch from and pushes send to, the credential they send, and the format pushes write decision tables in. */
import { auditEvent, type Auditor } from '../auth/auditor.ts';
import * as z from 'zod/mini';
import { errors } from '../vocabulary/errors.ts';
import { strictBody } from '../http/queries.ts';
import { remoteFormats, type CredentialStore, type RemoteConfig, type RemoteStore } from '../store/types.ts';
import { remoteUrlSchema, validateRemoteUrl } from './remote-url.ts';

export const putRemoteSchema = strictBody({
  url: remoteUrlSchema,
  credentialId: z.optional(z.string().check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(128, { error: 'must be at most 128 characters' }))),
  /** How a push writes decision tables (json when absent); a pull reads either. */
  format: z.optional(z.enum(remoteFormats)),
});

export async function putRemote(
  store: RemoteStore & CredentialStore,
  workspaceId: string,
  input: z.output<typeof putRemoteSchema>,
  auditor?: Auditor,
): Promise<RemoteConfig> {
  const problem = validateRemoteUrl(input.url);
  if (problem) throw errors.invalidRequest([{ in: 'body', field: 'url', message: problem }]);
  if (input.credentialId) {
    const credential = await store.getCredential(workspaceId, input.credentialId);
    if (!credential) throw errors.invalidRequest([{ in: 'body', field: 'credentialId', message: `no credential "${input.credentialId}" in this workspace` }]);
    if (credential.revokedAt) throw errors.invalidRequest([{ in: 'body', field: 'credentialId', message: 'the credential is revoked' }]);
    if (credential.placement !== 'header')
      throw errors.invalidRequest([{ in: 'body', field: 'credentialId', message: 'Git over HTTPS takes the key in a header: use a header credential' }]);
  }
  const format = input.format ?? 'json';
  const remote: RemoteConfig = { url: input.url, ...(input.credentialId && { credentialId: input.credentialId }), format, updatedAt: new Date().toISOString() };
  const detail = { url: remote.url, credentialId: remote.credentialId ?? '', format };
  await store.putRemote(workspaceId, remote, auditEvent(auditor, { type: 'remote' }, { detail }));
  return remote;
}

/** The remote as set, its format json when it was set before remotes had one. */
export const withFormat = (remote: RemoteConfig): RemoteConfig & Required<Pick<RemoteConfig, 'format'>> => ({ ...remote, format: remote.format ?? 'json' });

export async function getRemote(store: RemoteStore, workspaceId: string): Promise<RemoteConfig> {
  const remote = await store.getRemote(workspaceId);
  if (!remote) throw errors.remoteNotConfigured(404);
  return withFormat(remote);
}
