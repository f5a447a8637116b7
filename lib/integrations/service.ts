/**
 * REST integrations of a workspace: what many API-request steps share (a
 * base URL, headers, a credential, a timeout), kept once so that a step
 * names the integration and a path. Create, read, change, delete, and test
 * a path of one against the provider through the steps' own call.
 */
import { auditEvent, type Auditor } from '../auth/auditor.ts';
import { randomBytes } from 'node:crypto';
import { errors } from '../vocabulary/errors.ts';
import { describeProviderStatus } from '../outbound/index.ts';
import { retryOnRevisionConflict } from '../store/revision-retry.ts';
import type { CredentialStore, IntegrationStore, NameClaimStore, StoredIntegration } from '../store/types.ts';
import { claimName, pageByName, putNew } from '../workspaces/named-items.ts';
import { callApi, CallFailure, forgetIntegration, type ApiCallerDeps, type CallFailureKind } from './call.ts';
import { integrationLimits, type CreateIntegration, type TestIntegration, type UpdateIntegration } from './schema.ts';

type Store = IntegrationStore & CredentialStore & NameClaimStore;

/** What the API shows of an integration. */
export type IntegrationView = Omit<StoredIntegration, 'workspaceId'>;

export const toView = ({ workspaceId: _workspaceId, ...view }: StoredIntegration): IntegrationView => view;

const now = () => new Date().toISOString();
const newId = () => `intg_${randomBytes(10).toString('hex')}`;

/** How integrations hold their names: from create to delete. */
const nameClaims = (store: Store, workspaceId: string) => ({
  kind: 'integration' as const,
  read: (id: string) => store.getIntegration(workspaceId, id),
  busy: (name: string) => errors.integrationBusy(name),
});

/**
 * The integration's credential must be one of the workspace's that can still
 * be sent, and a header it places must not be one of the integration's own
 * headers (the outbound client would refuse every call).
 */
async function assertUsableCredential(store: Store, workspaceId: string, credentialId: string, headers: Record<string, string>) {
  const credential = await store.getCredential(workspaceId, credentialId);
  if (!credential) throw errors.credentialNotFound(credentialId, 'credentialId');
  if (credential.revokedAt) throw errors.credentialRevoked(credentialId, 'credentialId');
  const clash = credential.placement === 'header' && Object.keys(headers).find((name) => name.toLowerCase() === credential.key.toLowerCase());
  if (clash)
    throw errors.invalidRequest([
      { in: 'body', field: `headers.${clash}`, message: `is the header the credential "${credentialId}" places its key in: remove it, the credential adds it` },
    ]);
}

/** What a create sets, as one text: equal for the same integration, headers in any order (a DynamoDB map keeps none). */
const contentOf = (integration: Pick<StoredIntegration, 'name' | 'type' | 'baseUrl' | 'headers' | 'credentialId' | 'timeoutMs' | 'description'>) =>
  JSON.stringify([
    integration.name,
    integration.type,
    integration.baseUrl,
    Object.entries(integration.headers).sort(([a], [b]) => (a < b ? -1 : 1)),
    integration.credentialId ?? null,
    integration.timeoutMs,
    integration.description,
  ]);

/**
 * Creates an integration. Names are unique in a workspace, which makes a
 * retried create safe: the same request again returns the integration it
 * made. `id`: a fixed id instead of a new one (the demo seed's).
 */
export async function createIntegration(store: Store, workspaceId: string, input: CreateIntegration, options: { id?: string; auditor?: Auditor } = {}) {
  const { credentialId, ...fields } = input;
  if (credentialId) await assertUsableCredential(store, workspaceId, credentialId, input.headers);
  const timestamp = now();
  const integration: StoredIntegration = {
    id: options.id ?? newId(),
    workspaceId,
    ...fields,
    ...(credentialId && { credentialId }),
    createdAt: timestamp,
    updatedAt: timestamp,
    revision: 1,
  };
  const holder = await claimName(store, workspaceId, input.name, integration.id, nameClaims(store, workspaceId));
  if (holder) {
    if (contentOf(holder) === contentOf(integration)) return { integration: toView(holder), created: false };
    throw errors.integrationNameTaken(input.name);
  }
  await putNew(
    () => store.putIntegration(integration, 0, auditEvent(options.auditor, integrationTarget(integration.id))),
    async () => (await store.getIntegration(workspaceId, integration.id)) !== undefined,
  );
  return { integration: toView(integration), created: true };
}

export async function getIntegration(store: IntegrationStore, workspaceId: string, id: string): Promise<StoredIntegration> {
  const integration = await store.getIntegration(workspaceId, id);
  if (!integration) throw errors.integrationNotFound(id);
  return integration;
}

/** One page of the workspace's integrations, by name. */
export async function listIntegrations(store: IntegrationStore, workspaceId: string, page: { pageNo: number; pageSize: number }) {
  return pageByName(await store.listIntegrations(workspaceId), page, toView);
}

/** Changes only the fields given, keeping the id that steps name; `credentialId: null` detaches the credential. */
export function updateIntegration(store: Store, workspaceId: string, id: string, change: UpdateIntegration, auditor?: Auditor) {
  return retryOnRevisionConflict(async () => {
    const current = await getIntegration(store, workspaceId, id);
    const { credentialId, ...fields } = change;
    const next: StoredIntegration = { ...current, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) };
    if (credentialId === null) delete next.credentialId;
    else if (credentialId !== undefined) next.credentialId = credentialId;
    if (next.credentialId !== undefined && (credentialId !== undefined || change.headers !== undefined))
      await assertUsableCredential(store, workspaceId, next.credentialId, next.headers);
    if (contentOf(next) === contentOf(current)) return toView(current);
    const renamed = next.name.toLowerCase() !== current.name.toLowerCase();
    if (renamed && (await claimName(store, workspaceId, next.name, id, nameClaims(store, workspaceId)))) throw errors.integrationNameTaken(next.name);
    next.updatedAt = now();
    next.revision = current.revision + 1;
    const changed = Object.keys(next).filter(
      (f) =>
        f !== 'updatedAt' && f !== 'revision' && JSON.stringify(next[f as keyof StoredIntegration]) !== JSON.stringify(current[f as keyof StoredIntegration]),
    );
    if (current.credentialId && !next.credentialId) changed.push('credentialId');
    await store.putIntegration(next, current.revision, auditEvent(auditor, integrationTarget(id), { detail: { changed: changed.join(', ') } }));
    forgetIntegration(workspaceId, id);
    if (renamed) await store.releaseName('integration', workspaceId, current.name, id);
    return toView(next);
  });
}

/**
 * Deletes an integration and frees its name; answers it as it was. One that
 * is not there (never was, or deleted before) is not found: a retried delete
 * answers 404. Steps that name it fail from then on, saying so.
 */
export function deleteIntegration(store: Store, workspaceId: string, id: string, auditor?: Auditor) {
  return retryOnRevisionConflict(async () => {
    const current = await getIntegration(store, workspaceId, id);
    await store.deleteIntegration(workspaceId, id, current.revision, auditEvent(auditor, integrationTarget(id)));
    forgetIntegration(workspaceId, id);
    await store.releaseName('integration', workspaceId, current.name, id);
    return toView(current);
  });
}

export interface IntegrationTestResult {
  status: number;
  ok: boolean;
  durationMs: number;
  message: string;
  /** Why no usable answer came, when none did. */
  failure?: CallFailureKind;
  /** The provider's JSON answer, when it gave one that is not too large to show. */
  body?: unknown;
  /** Set when the answer was larger than a test shows (`integrationLimits.testAnswerBytes`). */
  bodyOmitted?: true;
}

/**
 * Calls a path of the integration as an API-request step would, and says
 * what the answer means. A call that got no usable answer is a result too,
 * with `failure` saying why; a request that may not be sent is a 400 naming
 * the field at fault.
 */
export async function testIntegration(deps: ApiCallerDeps, workspaceId: string, id: string, input: TestIntegration): Promise<IntegrationTestResult> {
  const integration = await getIntegration(deps.store, workspaceId, id);
  const started = performance.now();
  try {
    const answer = await callApi(
      deps,
      workspaceId,
      { stepId: 'test', ...input, integrationId: id, timeoutMs: Math.min(integration.timeoutMs, integrationLimits.testTimeoutMs) },
      integration,
    );
    const shown =
      answer.body === null
        ? {}
        : Buffer.byteLength(JSON.stringify(answer.body)) > integrationLimits.testAnswerBytes
          ? { bodyOmitted: true as const }
          : { body: answer.body };
    return {
      status: answer.status,
      ok: answer.status >= 200 && answer.status < 300,
      durationMs: answer.durationMs,
      message: describeProviderStatus(answer.status),
      ...shown,
    };
  } catch (error) {
    if (!(error instanceof CallFailure)) throw error;
    // The integration's credential cannot be sent: the state of the workspace, not a failed test.
    if (error.failure === 'credential_not_found') throw errors.credentialNotFound(integration.credentialId ?? '');
    if (error.failure === 'credential_revoked') throw errors.credentialRevoked(integration.credentialId ?? '');
    if (error.field) throw errors.invalidRequest([{ in: 'body', field: error.field, message: error.message }]);
    return { status: 0, ok: false, durationMs: Math.round(performance.now() - started), message: error.message, failure: error.failure };
  }
}

const integrationTarget = (id: string) => ({ type: 'integration', id });
