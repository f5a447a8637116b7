/** What a push writes: each entity's file where the remote keeps it, only real changes, and files a pull reads back unchanged. */
import { describe, expect, it } from 'vitest';
import { entityChecksum } from '../../lib/entities/checksum.ts';
import { entityInputSchema, type EntityInput } from '../../lib/entities/schema.ts';
import { parseJson } from '../../lib/decimal/json.ts';
import { demoRules, demoWorkflows } from '../../lib/local/demo-entities.ts';
import { entityFile } from '../../lib/remote/entity-file.ts';
import { planPull, readEntityFiles, type RepositoryFile } from '../../lib/remote/pull-plan.ts';
import { authorOf, commitMessage, committer, planPush, type PushPlan } from '../../lib/remote/push-plan.ts';
import type { StoredEntity } from '../../lib/store/types.ts';

const [ruleA, ruleB, ruleC, ruleD] = demoRules.map((r) => entityInputSchema.parse(r)) as [EntityInput, EntityInput, EntityInput, EntityInput];
const flow = entityInputSchema.parse(demoWorkflows[0]);
/** Numbers a double cannot hold travel by their digits. */
const exact = entityInputSchema.parse(
  parseJson('{"id":"exact","name":"Exact","type":"simpleRule","definition":{"when":"x > 0.30000000000000001","then":{"y":12345678901234567890.5}}}'),
);

const stored = (input: EntityInput): StoredEntity => ({
  ...input,
  definition: input.definition as Record<string, unknown>,
  checksum: entityChecksum(input),
  status: 'draft',
  version: '',
  publishedChecksum: '',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  createdBy: 'api',
  updatedBy: 'api',
  revision: 1,
});
const branch = (rules: EntityInput[], workflows: EntityInput[] = []) => ({ rule: rules.map(stored), workflow: workflows.map(stored) });
const file = (path: string, content: unknown): RepositoryFile => ({
  path,
  content: Buffer.from(typeof content === 'string' ? content : JSON.stringify(content)),
});
const asFiles = async (inputs: EntityInput[]) => Promise.all(inputs.map(async (input) => ({ ...(await entityFile(input, 'json')) }) as RepositoryFile));
const plan = async (files: RepositoryFile[], current: ReturnType<typeof branch>) => planPush(await readEntityFiles(files), current, 'json');

describe('the file of an entity', () => {
  it('is rules/<id>.json or workflows/<id>.json, holding the record as the API serves its content', async () => {
    const written = await entityFile(ruleA, 'json');
    expect(written.path).toBe(`rules/${ruleA.id}.json`);
    const { id, name, description, tags, type, definition } = ruleA;
    expect(Buffer.from(written.content).toString()).toBe(`${JSON.stringify({ id, name, description, tags, type, definition }, null, 2)}\n`);
    expect((await entityFile(flow, 'json')).path).toBe(`workflows/${flow.id}.json`);
  });

  it('with a dmn remote: decision tables as DMN, which a pull reads back with the same checksum, and JSON for the rest', async () => {
    const rules = demoRules.map((rule) => entityInputSchema.parse(rule));
    const table = rules.find((rule) => rule.type === 'decisionTable')!;
    const other = rules.find((rule) => rule.type !== 'decisionTable')!;
    const written = await entityFile(table, 'dmn');
    expect(written.path).toBe(`rules/${table.id}.dmn`);
    expect(Buffer.from(written.content).toString('utf8')).toContain('https://www.omg.org/spec/DMN/20230324/MODEL/');
    expect((await entityFile(other, 'dmn')).path).toBe(`rules/${other.id}.json`);
    expect((await entityFile(flow, 'dmn')).path).toBe(`workflows/${flow.id}.json`);
    const { inputs, problems } = await readEntityFiles([{ path: written.path, content: Buffer.from(written.content) }]);
    expect(problems).toEqual([]);
    expect(inputs.rule.map(entityChecksum)).toEqual([entityChecksum(table)]);
  });

  it('splits a file of several rules that changed into a file a rule, deleting the shared one; leaves it while none changed', async () => {
    const [first, second] = demoRules.map((rule) => entityInputSchema.parse(rule)).filter((rule) => rule.type === 'decisionTable');
    const both = (await Promise.all([first!, second!].map((rule) => entityFile(rule, 'dmn')))).map((f) => Buffer.from(f.content).toString('utf8'));
    // One DMN file holding both decisions, as another tool writes it: the second file's decision and shape moved into the first.
    const decision = /<decision [\s\S]*<\/decision>/.exec(both[1]!)![0];
    const shape = /<dmndi:DMNShape [\s\S]*<\/dmndi:DMNShape>/.exec(both[1]!)![0];
    const shared = both[0]!.replace('</decision>', `</decision>\n${decision}`).replace('</dmndi:DMNShape>', `</dmndi:DMNShape>\n${shape}`);
    const remote = await readEntityFiles([file('rules/tables.dmn', shared)]);
    expect(remote.problems).toEqual([]);
    expect(remote.inputs.rule.map((r) => r.id).sort()).toEqual([first!.id, second!.id].sort());
    const unchanged = await planPush(remote, branch([first!, second!]), 'dmn');
    expect(unchanged.writes).toEqual([]);
    expect(unchanged.deletions).toEqual([]);
    const edited = await planPush(remote, branch([{ ...first!, name: 'Edited' }, second!]), 'dmn');
    expect(edited.deletions).toEqual(['rules/tables.dmn']);
    expect(edited.writes.map((w) => w.path).sort()).toEqual([`rules/${first!.id}.dmn`, `rules/${second!.id}.dmn`].sort());
  });

  it('is read back by a pull as the same content: the same checksum, every digit of every number kept', async () => {
    const inputs = [ruleA, ruleB, ruleC, ruleD, flow, exact];
    const { inputs: read, problems } = await readEntityFiles(await asFiles(inputs));
    expect(problems).toEqual([]);
    expect([...read.rule, ...read.workflow].map(entityChecksum).sort()).toEqual(inputs.map(entityChecksum).sort());
  });
});

describe('planPush', () => {
  it('writes the entities that are new or changed, deletes those the branch no longer has, and leaves the rest', async () => {
    const remote = [
      ...(await asFiles([ruleA, ruleB, flow])),
      file('rules/pricing/gone.json', { ...ruleC, id: 'gone' }),
      file('README.md', '# rules'),
      file('rules/notes.txt', 'not an entity'),
      file('docs/guide.md', 'guide'),
    ];
    const changedB = { ...ruleB, description: 'Edited in the service' };
    const result = await plan(remote, branch([ruleA, changedB, ruleD], [flow]));
    expect(result.summary).toEqual({
      rule: { added: 1, updated: 1, deleted: 1, unchanged: 1 },
      workflow: { added: 0, updated: 0, deleted: 0, unchanged: 1 },
      ignoredFolders: ['docs'],
    });
    expect(result.writes.map((w) => w.path)).toEqual([`rules/${ruleB.id}.json`, `rules/${ruleD.id}.json`]);
    expect(result.deletions).toEqual(['rules/pricing/gone.json']);
    expect(result.changes).toEqual([
      { type: 'rule', id: ruleB.id, change: 'updated', path: `rules/${ruleB.id}.json` },
      { type: 'rule', id: ruleD.id, change: 'added', path: `rules/${ruleD.id}.json` },
      { type: 'rule', id: 'gone', change: 'deleted', path: 'rules/pricing/gone.json' },
    ]);
  });

  it('rewrites a file where the remote keeps it, and leaves one formatted by hand alone while its content is the same', async () => {
    const handFormatted = file('rules/team/a.json', JSON.stringify({ ...ruleA, status: 'published' }));
    const moved = file('rules/team/b.json', { ...ruleB, description: 'Old text' });
    const result = await plan([handFormatted, moved], branch([ruleA, ruleB]));
    expect(result.summary.rule).toEqual({ added: 0, updated: 1, deleted: 0, unchanged: 1 });
    expect(result.writes.map((w) => w.path)).toEqual(['rules/team/b.json']);
    expect(result.deletions).toEqual([]);
  });

  it('changes nothing when the remote holds what the branch holds', async () => {
    const result = await plan(await asFiles([ruleA, exact, flow]), branch([ruleA, exact], [flow]));
    expect(result.changes).toEqual([]);
    expect(result.summary.rule.unchanged + result.summary.workflow.unchanged).toBe(3);
  });

  it('gives files that a pull of them finds unchanged', async () => {
    const current = branch([ruleA, ruleB, exact], [flow]);
    const result = await plan([file('README.md', '# rules')], current);
    const pushedFiles = result.writes.map((w) => ({ path: w.path, content: Buffer.from(w.content) }));
    const { inputs, ignoredFolders } = await readEntityFiles(pushedFiles);
    const pulled = planPull(inputs, current, ignoredFolders, '2026-02-01T00:00:00.000Z');
    expect(pulled.summary).toEqual({
      rule: { added: 0, updated: 0, deleted: 0, unchanged: 3 },
      workflow: { added: 0, updated: 0, deleted: 0, unchanged: 1 },
      ignoredFolders: [],
    });
  });
});

describe('the commit', () => {
  const changes = (n: number, change: 'added' | 'updated' | 'deleted', type: 'rule' | 'workflow' = 'rule') =>
    Array.from({ length: n }, (_, i) => ({ type, id: `${type[0]}${i + 1}`, change, path: `${type}s/${type[0]}${i + 1}.json` }));
  const planOf = (list: PushPlan['changes']): PushPlan => ({
    changes: list,
    writes: [],
    deletions: [],
    summary: { rule: { added: 0, updated: 0, deleted: 0, unchanged: 0 }, workflow: { added: 0, updated: 0, deleted: 0, unchanged: 0 }, ignoredFolders: [] },
  });

  it('names the change in its subject, and each file in its body, saying why a file is deleted', () => {
    const list = [
      { type: 'rule' as const, id: 'discount', change: 'updated' as const, path: 'rules/discount.json' },
      { type: 'rule' as const, id: 'fees', change: 'updated' as const, path: 'rules/fees.json' },
      { type: 'workflow' as const, id: 'onboard', change: 'added' as const, path: 'workflows/onboard.json' },
      { type: 'rule' as const, id: 'old', change: 'deleted' as const, path: 'rules/legacy/old.json' },
    ];
    expect(commitMessage('main', planOf(list), 'alice', false)).toBe(
      [
        'Push main from the rules service: 2 rules updated (discount, fees), 1 rule deleted (old), 1 workflow added (onboard); by alice',
        '',
        'updated rules/discount.json',
        'updated rules/fees.json',
        'added workflows/onboard.json',
        'deleted rules/legacy/old.json: the branch has no rule "old" any more',
        '',
      ].join('\n'),
    );
  });

  it('names five ids of a kind and counts the rest; a created branch says so, even with nothing changed', () => {
    expect(commitMessage('main', planOf(changes(7, 'added')), 'bob', false).split('\n')[0]).toBe(
      'Push main from the rules service: 7 rules added (r1, r2, r3, r4, r5, and 2 more); by bob',
    );
    expect(commitMessage('feature', planOf([]), 'bob', true)).toBe('Create feature from the rules service; by bob\n');
  });

  it('lists at most 100 files in the body', () => {
    const lines = commitMessage('main', planOf(changes(120, 'updated', 'workflow')), 'bob', false)
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(2 + 100 + 1);
    expect(lines.at(-1)).toBe('and 20 more files');
  });

  it("is authored by the key's owner with a no-reply address naming the key, and committed by the service", () => {
    expect(authorOf({ keyId: 'key_0123', owner: 'alice', role: 'publisher' })).toEqual({ name: 'alice', email: 'noreply+key_0123@rules-service.invalid' });
    expect(authorOf({ keyId: 'key_0123', owner: 'Eve <eve@example.com>', role: 'admin' }).name).toBe('Eve eve@example.com');
    expect(authorOf({ keyId: 'key_0123', owner: '<>', role: 'admin' }).name).toBe('key_0123');
    expect(authorOf(undefined)).toEqual(committer);
    expect(committer).toEqual({ name: 'Rules service', email: 'noreply@rules-service.invalid' });
  });
});
