import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createCredential, updateCredential, type CredentialDeps } from '../credentials/service.ts';
import { importEntities } from '../publishing/import.ts';
import type { EntityInput } from '../entities/schema.ts';
import { ApiError } from '../vocabulary/errors.ts';
import { createIntegration, updateIntegration } from '../integrations/service.ts';
import { hostOf } from '../outbound/hosts.ts';
import { entityFile } from '../remote/entity-file.ts';
import type { Store } from '../store/types.ts';
import { addBranch, createApiKey, createWorkspace } from '../workspaces/admin.ts';
import { demoIntegrationIds, demoRules, demoWorkflows, editedAfterPublishing, remoteOnlyRules } from './demo-entities.ts';
import { demoProviderKey, demoProviderKeyHeader, demoProviderKeyParam } from './demo-provider.ts';
import { createRepository } from './git-server.ts';
import { demoAccess } from './demo-people.ts';

export const demoWorkspaceId = 'demo';
/** The demo workspace's key when SERVICE_API_KEY names none: fixed, so the examples of the README and its guides run as written (the local runtime listens on loopback only). */
export const demoApiKey = 'demo-key';
const actor = 'seed';

const sources = (entities: typeof demoRules) => entities.map((content) => ({ origin: `demo:${content.id}`, content }));

/**
 * The demo workspace: branches main and staging, rules of every kind and
 * workflows on main, one rule published as v1 and edited since. Seeding again
 * changes nothing; with `apiKey` that key is (or stays) a key of the workspace.
 * The demo people's groups are mapped to roles (./demo-people.ts).
 */
export async function seedDemo(store: Store, options: { apiKey?: string } = {}) {
  const workspace = await createWorkspace(store, { id: demoWorkspaceId, name: 'Demo workspace', defaultBranch: 'main' });
  await addBranch(store, workspace.id, 'staging');
  const main = { workspaceId: workspace.id, branch: 'main' };
  const [edited, others] = [demoRules.filter((r) => r.id === editedAfterPublishing.id), demoRules.filter((r) => r.id !== editedAfterPublishing.id)];
  await importEntities(store, main, sources([...others, ...demoWorkflows]), { actor, publish: true });
  // Publish-then-edit only once: a second run would otherwise put the published content back first.
  if (!(await store.getEntity({ ...main, entityType: 'rule', id: editedAfterPublishing.id }))) {
    await importEntities(store, main, sources(edited), { actor, publish: true });
    await importEntities(store, main, sources(edited.map(editedAfterPublishing.edit)), { actor });
  }
  await importEntities(store, { workspaceId: workspace.id, branch: 'staging' }, sources([...demoRules.slice(0, 4), demoWorkflows[0]!]), { actor });
  // The demo people's groups (./demo-people.ts), mapped once: a mapping changed since is the user's.
  // createWorkspace answers the stored workspace, so a mapping kept in DATA_DIR shows here.
  if (!workspace.access) await store.setWorkspaceAccess(workspace.id, { ...demoAccess, updatedAt: new Date().toISOString() });
  const { key } = await createApiKey(store, workspace.id, { label: 'demo', secret: options.apiKey });
  return { workspace, apiKey: key };
}

export const demoRepository = 'demo.git';

/** One file per entity, as a push writes them: rules/<id>.json and workflows/<id>.json. */
const repositoryFiles = async (entities: EntityInput[]) =>
  Object.fromEntries(
    await Promise.all(
      entities.map(async (entity) => {
        const { path, content } = await entityFile(entity, 'json');
        return [path, content] as const;
      }),
    ),
  );

/** Main as the seed leaves it: every demo rule and workflow, the one edited after publishing in its edited form. */
const seededMain = () => [...demoRules.map((rule) => (rule.id === editedAfterPublishing.id ? editedAfterPublishing.edit(rule) : rule)), ...demoWorkflows];

/**
 * The demo workspace's Git remote: a repository with main and staging holding
 * what the seed put on those branches (main also a rule only the remote has),
 * served by the local Git server, so that a demo pull adds that rule and
 * leaves the seeded drafts as they are. Made once; a remote the workspace was
 * given by hand is left as it is.
 */
export async function seedDemoRemote(store: Store, gitRoot: string, gitUrl: string) {
  if (!existsSync(join(gitRoot, demoRepository)))
    await createRepository(gitRoot, demoRepository, {
      main: await repositoryFiles([...seededMain(), ...remoteOnlyRules]),
      staging: await repositoryFiles([...demoRules.slice(0, 4), demoWorkflows[0]!]),
    });
  const url = `${gitUrl}/${demoRepository}`;
  const current = await store.getRemote(demoWorkspaceId);
  // A kept DATA_DIR may hold the demo remote at an earlier run's port: follow the server; keep any other remote.
  const isDemoRemote = !current || (current.url.startsWith('http://127.0.0.1:') && current.url.endsWith(`/${demoRepository}`));
  if (isDemoRemote && current?.url !== url) await store.putRemote(demoWorkspaceId, { url, updatedAt: new Date().toISOString() });
}

/**
 * The demo provider's credentials and integrations (./demo-provider.ts), with
 * fixed ids so that docs/integrations.md and the demo workflows can name them: the key
 * in a header for the risk-score route, in the query for the fx-rate route.
 */
export const demoProviderSeed = {
  credentials: {
    header: { id: 'cred_demo_header', name: 'Demo provider key (header)', key: demoProviderKeyHeader, placement: 'header' },
    query: { id: 'cred_demo_query', name: 'Demo provider key (query)', key: demoProviderKeyParam, placement: 'query' },
  },
  integrations: {
    risk: { id: demoIntegrationIds.risk, name: 'Demo risk API', credential: 'header', description: 'Risk scores for payments: POST /v1/risk-score' },
    fx: { id: demoIntegrationIds.fx, name: 'Demo FX API', credential: 'query', description: 'Exchange rates: GET /v1/fx-rate?from=EUR&to=USD' },
  },
} as const;

/** The refusals that mean the user did something since (took the name, revoked the credential): what they did wins over the seed. */
const userChangedSince = new Set(['credential_name_taken', 'integration_name_taken', 'credential_revoked']);

async function unlessRefused(create: Promise<unknown>) {
  try {
    await create;
  } catch (error) {
    if (!(error instanceof ApiError && userChangedSince.has(error.code))) throw error;
  }
}

/**
 * The demo provider's credentials holding its key, and integrations calling
 * it at `providerUrl`: made at the first seed only, so that what the user
 * deletes stays deleted. An integration kept in DATA_DIR from an earlier
 * start follows the provider to this start's port.
 */
export async function seedDemoProvider(deps: CredentialDeps & { store: Store }, providerUrl: string) {
  const { credentials, integrations } = demoProviderSeed;
  if (!(await deps.store.getCredential(demoWorkspaceId, credentials.header.id))) {
    for (const { id, name, key, placement } of Object.values(credentials)) {
      const credential = {
        name,
        type: 'apiKey' as const,
        key,
        value: demoProviderKey,
        placement,
        description: "The demo provider's key (npm start serves the provider)",
        // Bound to the provider's host and port: pointing an integration elsewhere cannot take the key there.
        allowedHosts: [hostOf(new URL(providerUrl))],
      };
      await unlessRefused(createCredential(deps, demoWorkspaceId, credential, { id }));
    }
    for (const { id, name, credential, description } of Object.values(integrations)) {
      const integration = {
        name,
        type: 'restApi',
        baseUrl: providerUrl,
        headers: {},
        credentialId: credentials[credential].id,
        timeoutMs: 5000,
        description,
      } as const;
      await unlessRefused(createIntegration(deps.store, demoWorkspaceId, integration, { id }));
    }
    return;
  }
  for (const { id } of Object.values(integrations)) {
    const current = await deps.store.getIntegration(demoWorkspaceId, id);
    if (current && current.baseUrl !== providerUrl && /^http:\/\/127\.0\.0\.1:\d+$/.test(current.baseUrl))
      await updateIntegration(deps.store, demoWorkspaceId, id, { baseUrl: providerUrl });
  }
  // The credentials follow the provider to this start's port too, where they were bound to its last one.
  for (const { id } of Object.values(credentials)) {
    const current = await deps.store.getCredential(demoWorkspaceId, id);
    const host = hostOf(new URL(providerUrl));
    if (
      current &&
      !current.revokedAt &&
      current.allowedHosts?.length === 1 &&
      /^127\.0\.0\.1:\d+$/.test(current.allowedHosts[0]!) &&
      current.allowedHosts[0] !== host
    )
      await updateCredential(deps, demoWorkspaceId, id, { allowedHosts: [host] });
  }
}
