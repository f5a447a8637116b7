import { describe, expect, it } from 'vitest';
import { ImportRejected, importEntities } from '../../lib/publishing/import.ts';
import { entityInputSchema, entityTypeOf } from '../../lib/entities/schema.ts';
import { demoRules, demoWorkflows } from '../../lib/local/demo-entities.ts';
import type { EntityStore } from '../../lib/store/types.ts';
import { sourcesOf, workflow } from '../helpers/entities.ts';

const problemsOf = (value: unknown) => {
  const result = entityInputSchema.safeParse(value);
  expect(result.success).toBe(false);
  return result.error!.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

const table = (rows: { when: string[]; then: unknown[] }[]) => ({
  id: 'table',
  name: 'Table',
  type: 'decisionTable',
  definition: {
    inputs: [
      { id: 'a', expression: 'x.a', type: 'number' },
      { id: 'b', expression: 'x.b', type: 'string' },
    ],
    outputs: [{ id: 'out', name: 'out', type: 'number' }],
    rules: rows,
  },
});

describe('entity input schema', () => {
  it('keeps an output entry that is only a literal as that value, and FEEL text otherwise', () => {
    const entries = ['0.5', ' -3 ', '007', '-0', 'true', 'false', 'null', '0.1234567890123456789012345', '1e3', '"5"', 'x + 1', `1${'0'.repeat(200)}`];
    const parsed = entityInputSchema.parse({
      ...table([]),
      definition: {
        ...table([]).definition,
        outputs: [{ id: 'o', name: 'o', type: 'number', default: '2.50' }],
        inputs: [{ id: 'a', expression: 'a', type: 'number' }],
        rules: entries.map((e) => ({ when: ['-'], then: [e] })),
      },
    });
    const kept = (parsed.definition as { rules: { then: unknown[] }[] }).rules.map((r) => r.then[0]);
    expect(kept.map((v) => (typeof v === 'object' && v !== null ? `decimal ${String(v)}` : v))).toEqual([
      0.5,
      -3,
      7,
      0,
      true,
      false,
      null,
      'decimal 0.1234567890123456789012345',
      '1e3',
      '"5"',
      'x + 1',
      `1${'0'.repeat(200)}`,
    ]);
    expect((parsed.definition as { outputs: { default: unknown }[] }).outputs[0]!.default).toBe(2.5);
  });

  it.each([...demoRules, ...demoWorkflows].map((e) => [e.id, e] as const))('accepts the demo entity %s', (_, entity) => {
    const result = entityInputSchema.safeParse(entity);
    expect(result.error?.issues).toBeUndefined();
    expect(result.data).toMatchObject({ id: entity.id, name: entity.name, type: entity.type });
  });

  it('applies defaults for description, tags and the definition', () => {
    const parsed = entityInputSchema.parse({
      id: 'r',
      name: 'R',
      type: 'ruleSet',
      definition: { rules: [{ id: 'x', when: 'true', then: [{ set: 'a', value: 1 }] }] },
    });
    expect(parsed).toMatchObject({ description: '', tags: [], definition: { strategy: 'allMatch', rules: [{ priority: 0 }] } });
  });

  it('ignores server-managed fields of a served record', () => {
    const parsed = entityInputSchema.parse({ ...demoRules[0], status: 'published', version: 'v3', checksum: 'x', createdAt: 'yesterday' });
    expect(parsed).not.toHaveProperty('status');
    expect(parsed).not.toHaveProperty('checksum');
  });

  it('maps kinds to entity types', () => {
    expect(['decisionTable', 'ruleSet', 'simpleRule', 'workflow'].map((k) => entityTypeOf(k as never))).toEqual(['rule', 'rule', 'rule', 'workflow']);
  });

  it('points at the decision table row whose width does not match the inputs or outputs', () => {
    expect(
      problemsOf(
        table([
          { when: ['1', '"x"'], then: [1] },
          { when: ['1'], then: [1] },
          { when: ['1', '-'], then: [1, 2] },
        ]),
      ),
    ).toEqual([
      { path: 'definition.rules.1.when', message: 'needs 2 entries, one per input' },
      { path: 'definition.rules.2.then', message: 'needs 1 entries, one per output' },
    ]);
  });

  it('refuses unknown fields inside a rule definition, naming each (a misspelt hitpolicy would otherwise fall back to first)', () => {
    const misspelt = { ...table([{ when: ['-', '-'], then: [1] }]) };
    misspelt.definition = { ...misspelt.definition, hitpolicy: 'collect' } as never;
    expect(problemsOf(misspelt)).toEqual([{ path: 'definition', message: expect.stringMatching(/hitpolicy/) }]);
    const row = table([{ when: ['-', '-'], then: [1], whn: ['x'] } as never]);
    expect(problemsOf(row)).toEqual([{ path: 'definition.rules.0', message: expect.stringMatching(/whn/) }]);
  });

  it('points at the workflow step that refers to a missing step', () => {
    const flow = workflow('flow', 'Flow', {
      definition: {
        start: 'a',
        steps: [
          { id: 'a', kind: 'rule', ruleId: 'r', next: 'b' },
          { id: 'b', kind: 'branch', cases: [{ when: 'x', next: 'nowhere' }], otherwise: 'c' },
          { id: 'c', kind: 'end' },
        ],
      },
    } as never);
    expect(problemsOf(flow)).toEqual([{ path: 'definition.steps.1.cases.0.next', message: 'no step has the id "nowhere"' }]);
  });

  it('reports duplicate step ids and a start that is no step', () => {
    const flow = workflow('flow', 'Flow', {
      definition: {
        start: 'begin',
        steps: [
          { id: 'a', kind: 'end' },
          { id: 'a', kind: 'end' },
        ],
      },
    } as never);
    expect(problemsOf(flow)).toEqual([
      { path: 'definition.steps.1.id', message: '"a" is the id of steps[0] too' },
      { path: 'definition.start', message: 'no step has the id "begin"' },
    ]);
  });

  it.each([
    ['an id with a colon', { id: 'a:b' }, 'id'],
    ['an id starting with a dot', { id: '.a' }, 'id'],
    ['an empty name', { name: '' }, 'name'],
    ['a name with surrounding spaces', { name: ' Name' }, 'name'],
    ['a control character in the description', { description: 'a\u0001b' }, 'description'],
    ['an unknown kind', { type: 'script' }, 'type'],
  ])('rejects %s', (_, change, path) => {
    expect(problemsOf({ ...demoRules[0], ...change }).map((p) => p.path)).toContain(path);
  });
});

describe('importEntities validation', () => {
  /** A store that fails the test if anything reaches it. */
  const untouchable = new Proxy({} as EntityStore, {
    get: (_, name) => () => {
      throw new Error(`the store was called (${String(name)}) although the import is invalid`);
    },
  });

  it('rejects the whole import, listing each problem with its origin, before writing anything', async () => {
    const sources = sourcesOf([demoRules[0], { ...demoRules[1], name: '' }, demoWorkflows[0], { ...demoRules[2], id: 'bad id' }]);
    const rejection = await importEntities(untouchable, { workspaceId: 'w', branch: 'main' }, sources, { actor: 't' }).catch((e: unknown) => e);
    expect(rejection).toBeInstanceOf(ImportRejected);
    expect((rejection as ImportRejected).problems).toEqual([
      { origin: 'test-1.json', field: 'name', message: expect.any(String) },
      { origin: 'test-3.json', field: 'id', message: expect.any(String) },
    ]);
    expect((rejection as ImportRejected).message).toMatch(/^nothing imported: test-1\.json: name .*; test-3\.json: id /);
  });

  it('rejects two records with the same type and id, naming the earlier one', async () => {
    const sources = sourcesOf([demoRules[0], { ...demoRules[0], name: 'Other' }]);
    const rejection = (await importEntities(untouchable, { workspaceId: 'w', branch: 'main' }, sources, { actor: 't' }).catch(
      (e: unknown) => e,
    )) as ImportRejected;
    expect(rejection.problems).toEqual([{ origin: 'test-1.json', field: 'id', message: `"${demoRules[0]!.id}" is also in test-0.json` }]);
  });

  it('lets a rule and a workflow share an id', async () => {
    const written: string[] = [];
    const store = {
      getEntity: async () => undefined,
      putEntity: async (ref: { entityType: string; id: string }) => void written.push(`${ref.entityType}/${ref.id}`),
    } as unknown as EntityStore;
    const shared = { ...demoWorkflows[0]!, id: demoRules[0]!.id };
    await importEntities(store, { workspaceId: 'w', branch: 'main' }, sourcesOf([demoRules[0], shared]), { actor: 't' });
    expect(written).toEqual([`rule/${demoRules[0]!.id}`, `workflow/${demoRules[0]!.id}`]);
  });
});

describe('numbers the table cannot keep', () => {
  it('refuses a definition holding one, wherever the record comes from (a save, an import, a pulled file), naming where', () => {
    const record = { id: 'huge', name: 'Huge', type: 'simpleRule', definition: { when: 'true', then: { ok: 1e308 } } };
    expect(problemsOf(record)).toEqual([{ path: 'definition', message: expect.stringMatching(/1e\+308 \(at then\.ok\).*1e-130 to 1e125/) }]);
    expect(entityInputSchema.safeParse({ ...record, definition: { when: 'true', then: { ok: 1e125 } } }).success).toBe(true);
  });
});
