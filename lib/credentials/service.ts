/**
 * API-key credentials of a workspace: create, read, change (rename, move,
 * rotate), revoke, and test against the provider. Values are sealed before
 * they are stored and opened only for the duration of an outbound call.
 */
import { auditEvent, type Auditor } from '../auth/auditor.ts';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { errors } from '../vocabulary/errors.ts';
import { logger } from '../logging/logger.ts';
import { describeProviderStatus, OutboundError, type OutboundCredential, type OutboundRequest } from '../outbound/index.ts';
import { retryOnRevisionConflict } from '../store/revision-retry.ts';
import type { CredentialStore, NameClaimStore, StoredCredential } from '../store/types.ts';
import { claimName, pageByName, putNew } from '../workspaces/named-items.ts';
import { createTtlCache } from '../store/ttl-cache.ts';
import { seal, unseal, type Keyring } from './sealing.ts';
import { hostsOfUsers, type CredentialUsers } from './legacy-hosts.ts';
import { placementIssues } from './placement.ts';
import type { CreateCredential, TestCredential, UpdateCredential } from './schema.ts';

export interface CredentialDeps {
  store: CredentialStore & NameClaimStore & CredentialUsers;
  keyring: Keyring;
}

/** What the API shows of a credential: never the value, only a hint of it. */
export type CredentialView = Omit<StoredCredential, 'secret' | 'revision' | 'workspaceId' | 'allowedHosts'> & {
  allowedHosts: string[];
  status: 'active' | 'revoked';
};

/**
 * The views of `credentials`. One made before hosts were required shows the
 * hosts its first use will bind it to (./legacy-hosts.ts), derived without
 * writing, so that reads stay reads; what uses the credentials is read once
 * for them all, and only when one has no hosts.
 */
async function viewsOf(store: CredentialUsers, workspaceId: string, credentials: StoredCredential[]): Promise<CredentialView[]> {
  const derived = credentials.every((credential) => credential.allowedHosts) ? undefined : await hostsOfUsers(store, workspaceId);
  return credentials.map(({ secret: _secret, revision: _revision, workspaceId: _workspaceId, ...rest }) => ({
    ...rest,
    allowedHosts: rest.allowedHosts ?? derived?.(rest.id) ?? [],
    status: rest.revokedAt ? 'revoked' : 'active',
  }));
}

const viewOf = async (store: CredentialUsers, credential: StoredCredential) => (await viewsOf(store, credential.workspaceId, [credential]))[0]!;

/** At most the last 4 characters, fewer for short values, so the hint never gives most of a key away. */
export const valueHint = (value: string) => `••••${value.slice(value.length - Math.min(4, Math.floor(value.length / 4)))}`;

const now = () => new Date().toISOString();
/** Host patterns as kept: lower case, each once. */
const normalHosts = (patterns: readonly string[]) => [...new Set(patterns.map((pattern) => pattern.toLowerCase()))];
const newId = () => `cred_${randomBytes(10).toString('hex')}`;

function assertPlacement(credential: Parameters<typeof placementIssues>[0]) {
  const issues = placementIssues(credential);
  if (issues.length) throw errors.invalidRequest(issues.map((i) => ({ in: 'body', ...i })));
}

async function sameValue(deps: CredentialDeps, stored: StoredCredential, value: string) {
  if (!stored.secret) return false;
  const current = Buffer.from(await unseal(deps.keyring, stored.secret, { workspaceId: stored.workspaceId, credentialId: stored.id }));
  const candidate = Buffer.from(value);
  return current.length === candidate.length && timingSafeEqual(current, candidate);
}

/** How credentials hold their names: a revoked one gives its name up. */
const nameClaims = (deps: CredentialDeps, workspaceId: string) => ({
  kind: 'credential' as const,
  read: (id: string) => deps.store.getCredential(workspaceId, id),
  usesName: (credential: StoredCredential) => !credential.revokedAt,
  busy: (name: string) => errors.credentialBusy(name),
});

/**
 * Creates a credential. Names are unique in a workspace, which makes a
 * retried create safe: the same request again returns the credential it made.
 * `id`: a fixed id instead of a new one (the demo seed's).
 */
export async function createCredential(deps: CredentialDeps, workspaceId: string, input: CreateCredential, options: { id?: string; auditor?: Auditor } = {}) {
  assertPlacement(input);
  const id = options.id ?? newId();
  const holder = await claimName(deps.store, workspaceId, input.name, id, nameClaims(deps, workspaceId));
  if (holder) {
    const same =
      holder.key === input.key &&
      holder.placement === input.placement &&
      holder.description === input.description &&
      holder.name === input.name &&
      JSON.stringify(holder.allowedHosts) === JSON.stringify(normalHosts(input.allowedHosts));
    if (same && (await sameValue(deps, await withSecret(deps, holder), input.value))) return { credential: await viewOf(deps.store, holder), created: false };
    throw errors.credentialNameTaken(input.name);
  }
  const timestamp = now();
  const credential: StoredCredential = {
    id,
    workspaceId,
    name: input.name,
    type: 'apiKey',
    key: input.key,
    placement: input.placement,
    description: input.description,
    allowedHosts: normalHosts(input.allowedHosts),
    valueHint: valueHint(input.value),
    secret: await seal(deps.keyring, input.value, { workspaceId, credentialId: id }),
    createdAt: timestamp,
    updatedAt: timestamp,
    revision: 1,
  };
  await putNew(
    () => deps.store.putCredential(credential, 0, auditEvent(options.auditor, credentialTarget(id))),
    async () => (await deps.store.getCredential(workspaceId, id)) !== undefined,
  );
  return { credential: await viewOf(deps.store, credential), created: true };
}

async function withSecret(deps: CredentialDeps, credential: StoredCredential) {
  return (await deps.store.getCredential(credential.workspaceId, credential.id, { withSecret: true })) ?? credential;
}

export async function getCredential(store: CredentialStore & CredentialUsers, workspaceId: string, id: string): Promise<CredentialView> {
  const credential = await store.getCredential(workspaceId, id);
  if (!credential) throw errors.credentialNotFound(id);
  return viewOf(store, credential);
}

/** One page of the workspace's credentials, by name. */
export async function listCredentials(store: CredentialStore & CredentialUsers, workspaceId: string, page: { pageNo: number; pageSize: number }) {
  const { data, paging } = pageByName(await store.listCredentials(workspaceId), page, (credential) => credential);
  return { data: await viewsOf(store, workspaceId, data), paging };
}

/** Renames, moves the key, edits the description or rotates the value, keeping the id that steps point at. */
export function updateCredential(deps: CredentialDeps, workspaceId: string, id: string, change: UpdateCredential, auditor?: Auditor) {
  return retryOnRevisionConflict(async () => {
    const current = await deps.store.getCredential(workspaceId, id, { withSecret: true });
    if (!current) throw errors.credentialNotFound(id);
    if (current.revokedAt) throw errors.credentialRevoked(id);
    const next: StoredCredential = {
      ...current,
      ...(change.name !== undefined && { name: change.name }),
      ...(change.key !== undefined && { key: change.key }),
      ...(change.placement !== undefined && { placement: change.placement }),
      ...(change.description !== undefined && { description: change.description }),
      ...(change.allowedHosts !== undefined && { allowedHosts: normalHosts(change.allowedHosts) }),
    };
    assertPlacement({ key: next.key, placement: next.placement, value: change.value });
    if (change.value === undefined && next.placement !== current.placement && next.placement === 'header') {
      // The stored value must also suit a header; check it without returning it.
      assertPlacement({ key: next.key, placement: next.placement, value: await unseal(deps.keyring, current.secret!, { workspaceId, credentialId: id }) });
    }
    const renamed = next.name.toLowerCase() !== current.name.toLowerCase();
    if (renamed && (await claimName(deps.store, workspaceId, next.name, id, nameClaims(deps, workspaceId)))) throw errors.credentialNameTaken(next.name);
    // One clock reading per change: a rotation's rotatedAt is its updatedAt.
    const timestamp = now();
    if (change.value !== undefined) {
      next.secret = await seal(deps.keyring, change.value, { workspaceId, credentialId: id });
      next.valueHint = valueHint(change.value);
      next.rotatedAt = timestamp;
    }
    const unchanged = JSON.stringify({ ...next, secret: undefined }) === JSON.stringify({ ...current, secret: undefined }) && change.value === undefined;
    if (unchanged) return viewOf(deps.store, current);
    next.updatedAt = timestamp;
    next.revision = current.revision + 1;
    const changed = (['name', 'key', 'placement', 'description', 'allowedHosts'] as const).filter(
      (f) => JSON.stringify(next[f]) !== JSON.stringify(current[f]),
    );
    if (change.value !== undefined) changed.push('value' as never);
    await deps.store.putCredential(next, current.revision, auditEvent(auditor, credentialTarget(id), { detail: { changed: changed.join(', ') } }));
    openedCredentials.forget(openedKey(workspaceId, id));
    if (renamed) await deps.store.releaseName('credential', workspaceId, current.name, id);
    return viewOf(deps.store, next);
  });
}

/** Revokes: the sealed value is deleted, so nothing can send it again. Revoking twice is harmless. */
export function revokeCredential(store: CredentialDeps['store'], workspaceId: string, id: string, auditor?: Auditor) {
  return retryOnRevisionConflict(async () => {
    const current = await store.getCredential(workspaceId, id);
    if (!current) throw errors.credentialNotFound(id);
    if (!current.revokedAt) {
      const timestamp = now();
      const revoked: StoredCredential = { ...current, revokedAt: timestamp, updatedAt: timestamp, revision: current.revision + 1 };
      delete revoked.secret;
      await store.putCredential(revoked, current.revision, auditEvent(auditor, credentialTarget(id)));
      openedCredentials.forget(openedKey(workspaceId, id));
      await store.releaseName('credential', workspaceId, current.name, id);
      return viewOf(store, revoked);
    }
    return viewOf(store, current);
  });
}

/** How long a warm function keeps an opened credential: a rotation or revocation made by another function is no longer sent after this; one made in this process at once. */
export const outboundCacheTtlMs = Number(process.env.OUTBOUND_CACHE_TTL_MS ?? 5_000);

const openedCredentials = createTtlCache<OutboundCredential>(outboundCacheTtlMs);
const openedKey = (workspaceId: string, id: string) => `${workspaceId}\u0000${id}`;

/**
 * `openCredential`, kept by a warm function for `outboundCacheTtlMs`: the
 * API-request steps of a busy workflow neither read the credential nor ask
 * KMS to open it on every call.
 */
export const openCredentialWarm = (deps: CredentialDeps, workspaceId: string, id: string): Promise<OutboundCredential> =>
  openedCredentials.get(openedKey(workspaceId, id), () => openCredential(deps, workspaceId, id)) as Promise<OutboundCredential>;

/** The credential ready to place on an outbound call; what steps and the Git remote use. */
export async function openCredential(deps: CredentialDeps, workspaceId: string, id: string): Promise<OutboundCredential> {
  const { credential, secret, allowedHosts } = await readForUse(deps, workspaceId, id);
  const value = await unseal(deps.keyring, secret, { workspaceId, credentialId: id });
  return { key: credential.key, value, placement: credential.placement, allowedHosts };
}

/**
 * The credential to send, with its sealed value and its hosts. One made
 * before hosts were required is bound first to the hosts of what uses it
 * (./legacy-hosts.ts): a write of the hosts alone, on the revision read and
 * only while it has none, so that its sealed value is never rewritten, an
 * admin's change made meanwhile is kept, and a retry or a concurrent first use
 * that lost the race reads the hosts the winner stored and uses those.
 */
function readForUse(deps: CredentialDeps, workspaceId: string, id: string) {
  return retryOnRevisionConflict(async () => {
    const credential = await deps.store.getCredential(workspaceId, id, { withSecret: true });
    if (!credential) throw errors.credentialNotFound(id);
    if (credential.revokedAt || !credential.secret) throw errors.credentialRevoked(id);
    if (credential.allowedHosts) return { credential, secret: credential.secret, allowedHosts: credential.allowedHosts };
    const allowedHosts = (await hostsOfUsers(deps.store, workspaceId))(id);
    // Recorded as the service's own change: no key asked for it.
    await deps.store.bindCredentialHosts(workspaceId, id, allowedHosts, credential.revision, {
      actor: { kind: 'service', keyId: 'service', owner: 'service', role: 'service' },
      operation: 'bindCredentialHosts',
      requestId: `bind:${id}:${credential.revision}`,
      outcome: 'ok',
      target: credentialTarget(id),
      detail: { allowedHosts: allowedHosts.join(', ') },
    });
    logger.info('credential bound to the hosts of what uses it', { workspaceId, credentialId: id, allowedHosts });
    return { credential, secret: credential.secret, allowedHosts };
  });
}

export interface TestResult {
  status: number;
  ok: boolean;
  durationMs: number;
  message: string;
  /** Why no answer came, when none did: dns, refused, timeout, tls, too_large, too_many_redirects, network. */
  failure?: string;
}

/** Calls the provider with the key placed, and says what its answer means for the key. */
export async function testCredential(
  deps: CredentialDeps & { send: (request: OutboundRequest) => Promise<{ status: number; durationMs: number }> },
  workspaceId: string,
  id: string,
  request: TestCredential,
): Promise<TestResult> {
  const credential = await openCredential(deps, workspaceId, id);
  const started = Date.now();
  try {
    const body = request.body === undefined ? undefined : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    const response = await deps.send({ url: request.url, method: request.method, headers: request.headers, body, credential });
    const ok = response.status >= 200 && response.status < 300;
    return { status: response.status, ok, durationMs: response.durationMs, message: describeProviderStatus(response.status) };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    // What the caller asked for cannot be sent: a 400, not a failed test.
    if (error.failure === 'invalid_url' || error.failure === 'blocked_address' || error.failure === 'host_not_allowed')
      throw errors.invalidRequest([{ in: 'body', field: 'url', message: error.message }]);
    if (error.failure === 'invalid_request') throw errors.invalidRequest([{ in: 'body', field: 'headers', message: error.message }]);
    return { status: 0, ok: false, durationMs: Date.now() - started, message: error.message, failure: error.failure };
  }
}

const credentialTarget = (id: string) => ({ type: 'credential', id });
