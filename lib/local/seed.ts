import { importEntities } from '../entities/import.ts';
import type { Store } from '../store/types.ts';
import { addBranch, createApiKey, createWorkspace } from '../workspaces/admin.ts';
import { demoRules, demoWorkflows, editedAfterPublishing } from './demo-entities.ts';

export const demoWorkspaceId = 'demo';
const actor = 'seed';

const sources = (entities: typeof demoRules) => entities.map((content) => ({ origin: `demo:${content.id}`, content }));

/**
 * The demo workspace: branches main and staging, rules of every kind and
 * workflows on main, one rule published as v1 and edited since. Seeding again
 * changes nothing; with `apiKey` that key is (or stays) a key of the workspace.
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
  const { key } = await createApiKey(store, workspace.id, { label: 'demo', secret: options.apiKey });
  return { workspace, apiKey: key };
}
