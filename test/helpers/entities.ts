/** Entity records and workspaces for tests: small valid inputs, and a second workspace with its own key. */
import { importEntities } from '../../lib/publishing/import.ts';
import { entityInputSchema, type EntityInput } from '../../lib/entities/schema.ts';
import { demoRules, demoWorkflows } from '../../lib/local/demo-entities.ts';
import type { Store } from '../../lib/store/types.ts';
import { addBranch, createApiKey, createWorkspace } from '../../lib/workspaces/admin.ts';

export const simpleRule = (id: string, name: string, extra: Partial<EntityInput> = {}): EntityInput =>
  ({ id, name, description: `${name} (test)`, tags: ['test'], type: 'simpleRule', definition: { when: 'x > 1', then: { y: 1 } }, ...extra }) as EntityInput;

export const ruleSet = (id: string, name: string, extra: Partial<EntityInput> = {}): EntityInput =>
  ({
    id,
    name,
    description: `${name} (test)`,
    tags: ['test'],
    type: 'ruleSet',
    definition: { strategy: 'firstMatch', rules: [{ id: 'only', priority: 1, when: 'true', then: [{ set: 'y', value: 1 }] }] },
    ...extra,
  }) as EntityInput;

export const workflow = (id: string, name: string, extra: Partial<EntityInput> = {}): EntityInput =>
  ({
    id,
    name,
    description: `${name} (test)`,
    tags: ['test'],
    type: 'workflow',
    definition: {
      start: 'check',
      steps: [
        { id: 'check', kind: 'rule', ruleId: 'some-rule', next: 'done' },
        { id: 'done', kind: 'end' },
      ],
    },
    ...extra,
  }) as EntityInput;

export const sourcesOf = (inputs: unknown[]) => inputs.map((content, i) => ({ origin: `test-${i}.json`, content }));

/** A demo record as the import parses it (defaults applied): what checksums are computed from. */
export function demoInput(id: string): EntityInput {
  const found = [...demoRules, ...demoWorkflows].find((e) => e.id === id);
  if (!found) throw new Error(`no demo entity ${id}`);
  return entityInputSchema.parse(found);
}

/** A workspace with its default branch, more branches, entities on the default branch, and a fresh key. */
export async function createWorkspaceWithKey(
  store: Store,
  options: { id: string; defaultBranch?: string; branches?: string[]; entities?: EntityInput[]; publish?: boolean },
) {
  const workspace = await createWorkspace(store, { id: options.id, defaultBranch: options.defaultBranch });
  for (const branch of options.branches ?? []) await addBranch(store, workspace.id, branch);
  if (options.entities?.length)
    await importEntities(store, { workspaceId: workspace.id, branch: workspace.defaultBranch }, sourcesOf(options.entities), {
      actor: 'test',
      publish: options.publish,
    });
  const { key, record } = await createApiKey(store, workspace.id, { label: 'test' });
  return { workspace, key, keyId: record.keyId };
}

/** The list order: case-insensitive name, then id, both by code point (as DynamoDB compares UTF-8 keys). */
export function byNameThenId(a: { name: string; id: string }, b: { name: string; id: string }): number {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  if (x !== y) return codePointCompare(x, y);
  return codePointCompare(a.id, b.id);
}

export function codePointCompare(a: string, b: string): number {
  const [x, y] = [[...a].map((c) => c.codePointAt(0)!), [...b].map((c) => c.codePointAt(0)!)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** What the list operations return per entity (entitySummarySchema). */
export interface Summary {
  id: string;
  name: string;
  description: string;
  type: string;
  status: string;
  version: string;
  tags: string[];
  createdAt: string;
  updatedAt: string;
}

/** The ids of a list response's data, in order. */
export const idsOf = (data: unknown): string[] => (data as { id: string }[]).map((s) => s.id);
