/**
 * What a workflow names outside itself, looked up before a save or publish:
 * the rules of its branch, and the integrations and credentials of its
 * workspace. Each is read once (a definition names at most as many as it has
 * steps), so that `./validate.ts` can list every missing or unusable one as a
 * problem without doing any I/O itself.
 */
import type { CredentialStore, EntityScope, EntityStore, IntegrationStore } from '../store/types.ts';
import type { WorkflowDefinition } from '../entities/workflow-definition.ts';
import type { WorkflowLookups } from './validate.ts';

export type ReferenceStore = Pick<EntityStore, 'getEntityHead' | 'getVersion'> &
  Pick<CredentialStore, 'getCredential'> &
  Pick<IntegrationStore, 'getIntegration'>;

const distinct = <T>(values: T[]) => [...new Set(values)];

/**
 * Reads what `definition` refers to. With `published`, a rule step must also
 * have something to run: its pinned version, or a published one when unpinned
 * (what a publish checks, since a published workflow runs published rules).
 */
export async function workflowLookups(
  store: ReferenceStore,
  scope: Pick<EntityScope, 'workspaceId' | 'branch'>,
  definition: WorkflowDefinition,
  options: { published?: boolean } = {},
): Promise<WorkflowLookups> {
  const { workspaceId, branch } = scope;
  const ruleRefs = distinct(definition.steps.flatMap((s) => (s.kind === 'rule' ? [`${s.ruleId}\u0000${s.version ?? ''}`] : [])));
  const integrationIds = distinct(
    definition.steps.flatMap((s) => (s.kind === 'apiRequest' && s.request.integrationId !== undefined ? [s.request.integrationId] : [])),
  );
  const credentialIds = distinct(definition.steps.flatMap((s) => (s.kind === 'apiRequest' && s.credentialId !== undefined ? [s.credentialId] : [])));

  const ruleProblem = async (key: string): Promise<string | undefined> => {
    const [id, version] = key.split('\u0000') as [string, string];
    const ref = { workspaceId, branch, entityType: 'rule' as const, id };
    const head = await store.getEntityHead(ref);
    if (!head) return `no rule "${id}" on this branch`;
    if (!options.published) return undefined;
    if (version) return (await store.getVersion(ref, version)) ? undefined : `the rule "${id}" has no published version ${version}`;
    return head.version ? undefined : `the rule "${id}" has no published version: publish it first, or pin a version`;
  };
  const credentialProblem = async (id: string) => {
    const credential = await store.getCredential(workspaceId, id);
    if (!credential) return `no credential "${id}" in this workspace`;
    return credential.revokedAt ? `the credential "${id}" is revoked` : undefined;
  };
  const integrationProblem = async (id: string) => {
    const integration = await store.getIntegration(workspaceId, id);
    if (!integration) return `no integration "${id}" in this workspace`;
    const problem = integration.credentialId === undefined ? undefined : await credentialProblem(integration.credentialId);
    return problem && `the integration "${id}" sends a credential that cannot be used: ${problem}`;
  };

  const settle = async (keys: string[], problem: (key: string) => Promise<string | undefined>) =>
    new Map(await Promise.all(keys.map(async (key) => [key, await problem(key)] as const)));
  const [rules, integrations, credentials] = await Promise.all([
    settle(ruleRefs, ruleProblem),
    settle(integrationIds, integrationProblem),
    settle(credentialIds, credentialProblem),
  ]);
  return {
    rule: (id, version) => rules.get(`${id}\u0000${version ?? ''}`),
    integration: (id) => integrations.get(id),
    credential: (id) => credentials.get(id),
  };
}
