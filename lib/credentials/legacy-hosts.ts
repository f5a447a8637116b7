/**
 * The hosts of a credential made before `allowedHosts` was required, which has
 * none stored: those of what used it then, the base URLs of the workspace's
 * integrations and the URL of its Git remote that name it. They are derived
 * rather than asked of an operator, so that a deployment needs no manual step,
 * and stored the first time the credential is opened for a call, before
 * anything is sent (`openCredential` in ./service.ts): from then on pointing an
 * integration or the remote elsewhere does not move them, and no credential is
 * ever sent unbound. A credential nothing used gets none, and is refused
 * everywhere until an admin sets its allowedHosts. Until its first use, reads
 * show what it will get.
 *
 * URLs a step gives in full are not read: any editor may write one, so they
 * must not widen where a key may go.
 */
import { hostOf } from '../outbound/hosts.ts';
import type { IntegrationStore, RemoteStore } from '../store/types.ts';

/** What the hosts are derived from. */
export type CredentialUsers = Pick<IntegrationStore, 'listIntegrations'> & Pick<RemoteStore, 'getRemote'>;

/** For each credential id, the hosts of the integrations and the remote that use it (the integrations' first, each once); none for one nothing uses. */
export async function hostsOfUsers(store: CredentialUsers, workspaceId: string): Promise<(credentialId: string) => string[]> {
  const [integrations, remote] = await Promise.all([store.listIntegrations(workspaceId), store.getRemote(workspaceId)]);
  const users = [...integrations.map(({ credentialId, baseUrl }) => ({ credentialId, url: baseUrl })), ...(remote ? [remote] : [])];
  return (credentialId) => [...new Set(users.filter((user) => user.credentialId === credentialId).map((user) => hostOf(new URL(user.url))))];
}
