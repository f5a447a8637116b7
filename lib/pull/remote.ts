/** The workspace's Git remote: where pulls fetch from, and the credential they send. */
import { auditEvent, type Auditor } from '../audit/auditor.ts';
import * as z from 'zod/mini';
import { errors } from '../http/errors.ts';
import { strictBody } from '../http/queries.ts';
import type { CredentialStore, RemoteConfig, TaskStore } from '../store/types.ts';
import { remoteUrlSchema, validateRemoteUrl } from './remote-url.ts';

export const putRemoteSchema = strictBody({
  url: remoteUrlSchema,
  credentialId: z.optional(z.string().check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(128, { error: 'must be at most 128 characters' }))),
});

export async function putRemote(
  store: TaskStore & CredentialStore,
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
  const remote: RemoteConfig = { url: input.url, ...(input.credentialId && { credentialId: input.credentialId }), updatedAt: new Date().toISOString() };
  await store.putRemote(workspaceId, remote, auditEvent(auditor, { type: 'remote' }, { detail: { url: remote.url, credentialId: remote.credentialId ?? '' } }));
  return remote;
}

export async function getRemote(store: TaskStore, workspaceId: string): Promise<RemoteConfig> {
  const remote = await store.getRemote(workspaceId);
  if (!remote) throw errors.remoteNotConfigured(404);
  return remote;
}
