/** What a pulled commit changes: validation of every file first, then only real changes. */
import { describe, expect, it } from 'vitest';
import { entityChecksum } from '../../lib/entities/checksum.ts';
import { entityInputSchema } from '../../lib/entities/schema.ts';
import { demoRules, demoWorkflows } from '../../lib/local/demo-entities.ts';
import { planPull, readEntityFiles, type RepositoryFile } from '../../lib/remote/pull-plan.ts';
import type { StoredEntity } from '../../lib/store/types.ts';

const file = (path: string, content: unknown): RepositoryFile => ({
  path,
  content: Buffer.from(typeof content === 'string' ? content : JSON.stringify(content)),
});
const [ruleA, ruleB, ruleC] = demoRules.map((r) => entityInputSchema.parse(r));
const flow = entityInputSchema.parse(demoWorkflows[0]);

const stored = (input: typeof ruleA, extra: Partial<StoredEntity> = {}): StoredEntity => ({
  ...input!,
  definition: input!.definition as Record<string, unknown>,
  checksum: entityChecksum(input!),
  status: 'draft',
  version: '',
  publishedChecksum: '',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  createdBy: 'cli',
  updatedBy: 'cli',
  revision: 3,
  ...extra,
});

describe('reading the repository', () => {
  it('reads rules/ and workflows/, reports other folders, skips other files', async () => {
    const { inputs, ignoredFolders, problems } = await readEntityFiles([
      file('rules/a.json', ruleA),
      file('workflows/flow.json', flow),
      file('README.md', '# rules'),
      file('rules/notes.txt', 'hello'),
      file('docs/guide.json', {}),
      file('scripts/x/y.sh', 'echo'),
    ]);
    expect(problems).toEqual([]);
    expect(inputs.rule.map((r) => r.id)).toEqual([ruleA!.id]);
    expect(inputs.workflow.map((w) => w.id)).toEqual([flow!.id]);
    expect(ignoredFolders).toEqual(['docs', 'scripts']);
  });

  it('lists every bad file: invalid JSON, invalid record, wrong folder, duplicate id', async () => {
    const { problems } = await readEntityFiles([
      file('rules/broken.json', '{ nope'),
      file('rules/invalid.json', { ...ruleA, name: '' }),
      file('rules/flow.json', flow),
      file('rules/one.json', ruleB),
      file('rules/two.json', ruleB),
    ]);
    expect(problems.map((p) => p.path)).toEqual(['rules/broken.json', 'rules/flow.json', 'rules/invalid.json', 'rules/two.json']);
    expect(problems.find((p) => p.path === 'rules/flow.json')!.message).toMatch(/belongs in workflows\//);
    expect(problems.find((p) => p.path === 'rules/two.json')!.message).toMatch(/also used by rules\/one.json/);
  });

  it('refuses a file holding a key a DynamoDB map cannot keep, naming where, instead of dropping "__proto__" or failing the write on "constructor"', async () => {
    const withCase = (params: string) =>
      `{"id":"keys","name":"Keys","type":"simpleRule","definition":{"parameters":[{"name":"a","type":"number"}],"when":"a > 1","then":{"x":"1"},"tests":[{"name":"t","params":${params},"expected":{"x":1}}]}}`;
    const { inputs, problems } = await readEntityFiles([
      file('rules/proto.json', withCase('{"__proto__":{"a":2}}')),
      file('rules/constructor.json', withCase('{"constructor":{"name":"Set"}}')),
      file('rules/fine.json', withCase('{"a":2}')),
    ]);
    expect(inputs.rule.map((r) => r.id)).toEqual(['keys']);
    expect(problems).toEqual([
      {
        path: 'rules/constructor.json',
        message: 'definition.tests.0.params.constructor: is a key "constructor", which the service cannot store: name it otherwise',
      },
      { path: 'rules/proto.json', message: 'definition.tests.0.params.__proto__: is a key "__proto__", which the service cannot store: name it otherwise' },
    ]);
  });
});

describe('planning', () => {
  const now = '2026-06-01T00:00:00.000Z';
  const none = { rule: [], workflow: [] };

  it('adds what is new, updates what changed, keeps what is equal, deletes what the remote dropped', async () => {
    const changedB = { ...ruleB!, description: 'changed upstream' };
    const current = {
      rule: [
        stored(ruleA, { source: 'remote' }),
        stored(ruleB, { source: 'remote', version: 'v2', publishedChecksum: 'x' }),
        stored(ruleC, { source: 'remote' }),
      ],
      workflow: [],
    };
    const plan = planPull({ rule: [ruleA!, changedB], workflow: [flow!] }, current, ['docs'], now);
    expect(plan.summary).toEqual({
      rule: { added: 0, updated: 1, deleted: 1, unchanged: 1 },
      workflow: { added: 1, updated: 0, deleted: 0, unchanged: 0 },
      ignoredFolders: ['docs'],
    });
    expect(plan.writes.rule.map((w) => w.entity.id)).toEqual([ruleB!.id]);
    expect(plan.writes.rule[0]!.entity).toMatchObject({
      version: 'v2',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: now,
      revision: 4,
      source: 'remote',
      status: 'draft',
    });
    expect(plan.deletions.rule).toEqual([ruleC!.id]);
  });

  it('keeps entities made on the branch itself when the remote lacks them, and adopts equal ones without counting a change', async () => {
    const plan = planPull({ rule: [ruleA!], workflow: [] }, { rule: [stored(ruleA), stored(ruleB)], workflow: [] }, [], now);
    expect(plan.deletions.rule).toEqual([]);
    expect(plan.writes.rule.map((w) => [w.entity.id, w.entity.updatedAt])).toEqual([[ruleA!.id, '2026-01-01T00:00:00.000Z']]);
    expect(plan.summary.rule).toEqual({ added: 0, updated: 0, deleted: 0, unchanged: 1 });
  });

  it('writes nothing for a commit the branch already has', async () => {
    const current = { rule: [stored(ruleA, { source: 'remote' })], workflow: [stored(flow, { source: 'remote' })] };
    const plan = planPull({ rule: [ruleA!], workflow: [flow!] }, current, [], now);
    expect([...plan.writes.rule, ...plan.writes.workflow, ...plan.deletions.rule, ...plan.deletions.workflow]).toEqual([]);
    expect(planPull(none, none, [], now).summary.rule).toEqual({ added: 0, updated: 0, deleted: 0, unchanged: 0 });
  });

  it('marks a pulled entity published when it equals the published version', async () => {
    const published = stored(ruleA, {
      source: 'remote',
      version: 'v1',
      publishedChecksum: entityChecksum(ruleA!),
      description: 'edited locally',
    } as Partial<StoredEntity>);
    published.checksum = 'edited';
    const plan = planPull({ rule: [ruleA!], workflow: [] }, { rule: [published], workflow: [] }, [], now);
    expect(plan.writes.rule[0]!.entity).toMatchObject({ status: 'published', version: 'v1' });
  });

  it("keeps a rule's candidate and rollout when a pull changes its draft: only a publish or the rollout operations change them", async () => {
    const candidate = { version: 'v2', checksum: 'c2' };
    const rollout = { id: 'ro_0123456789abcdef', candidate: 'v2', mode: 'shadow' as const, startedAt: now, startedBy: 'key:k' };
    const before = stored(ruleA, { version: 'v1', publishedChecksum: 'c1', candidate, rollout, description: 'edited locally' } as Partial<StoredEntity>);
    before.checksum = 'edited';
    const plan = planPull({ rule: [ruleA!], workflow: [] }, { rule: [before], workflow: [] }, [], now);
    expect(plan.writes.rule[0]!.entity).toMatchObject({ version: 'v1', candidate, rollout });
  });
});
