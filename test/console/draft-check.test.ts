/**
 * The console's check of a draft as it is typed says what the API's save
 * says: the same problems at the same fields, for rules of each kind and for
 * workflows (whose references the save alone looks up), and the same
 * warnings.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { draftProblems } from '../../lib/console/web/draft-check.ts';
import { recordFields } from '../../lib/console/web/ui/use-draft-check.ts';
import { errorsOf, parcelFee, rulesClient, simple, type Json } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
let clients: Record<'rule' | 'workflow', ReturnType<typeof rulesClient>>;

beforeAll(async () => {
  clients = { rule: rulesClient(t.api), workflow: rulesClient(t.api, 'workflow') };
  await clients.rule.create(simple('draft-check-target', { when: 'true', then: { ok: true } }));
});

/** The save's answer to `change` of `record` and the console's check of the same draft, each as field → message. */
async function bothSay(entityType: 'rule' | 'workflow', record: Json, change: Json) {
  const client = clients[entityType];
  const created = await client.create(record);
  expect([200, 201], JSON.stringify(created.body)).toContain(created.status);
  const read = (await client.get(record.id as string)).body.data as unknown as Parameters<typeof recordFields>[0];
  const refused = await client.update(record.id as string, { checksum: created.body.data.checksum, ...change });
  expect(refused.status, JSON.stringify(refused.body)).toBe(400);
  const saved = new Map(errorsOf(refused).map((issue) => [issue.field, issue.message]));
  const checked = draftProblems(entityType, { ...recordFields(read), ...change }).problems;
  return { saved, checked };
}

const workflow = (id: string): Json => ({
  id,
  name: `Flow ${id}`,
  type: 'workflow',
  definition: {
    inputs: [{ name: 'order', type: 'context' }],
    start: 'target',
    steps: [
      { id: 'target', kind: 'rule', ruleId: 'draft-check-target', next: 'route' },
      { id: 'route', kind: 'branch', cases: [{ when: 'target.ok', next: 'done' }], otherwise: 'done' },
      { id: 'done', kind: 'end', output: { ok: 'target.ok' } },
    ],
  },
});

describe('the console check of a draft', () => {
  it.each<[string, 'rule' | 'workflow', Json, Json]>([
    [
      'a simple rule whose condition is cut short',
      'rule',
      simple('dc-simple', { when: 'x > 1', then: { y: 1 } }),
      { definition: { when: 'x >', then: { y: '1 +' } } },
    ],
    [
      'a decision table with an undeclared name, a broken cell and an empty name',
      'rule',
      parcelFee('dc-table'),
      {
        name: '',
        definition: {
          ...(parcelFee('dc-table').definition as Json),
          inputs: [{ id: 'weight', expression: 'weightGrams', type: 'number' }],
          rules: [{ id: 'light', when: ['<= '], then: [4.9] }],
        },
      },
    ],
    [
      'a rule set with a broken condition and an entry of the wrong shape',
      'rule',
      {
        id: 'dc-set',
        name: 'Set',
        type: 'ruleSet',
        definition: { strategy: 'allMatch', rules: [{ id: 'r', priority: 0, when: 'true', then: [{ set: 'y', value: 1 }] }] },
      },
      {
        definition: {
          strategy: 'allMatch',
          rules: [
            { id: 'r', priority: 0, when: 'a and', then: [{ set: 'y', value: 1 }] },
            { id: 's', priority: 1, when: 'true', then: [{ set: 'z' }] },
          ],
        },
      },
    ],
    [
      'a workflow reading a name it does not have, with broken FEEL and a missing step',
      'workflow',
      workflow('dc-flow'),
      {
        definition: {
          ...(workflow('dc-flow').definition as Json),
          steps: [
            { id: 'target', kind: 'rule', ruleId: 'draft-check-target', inputs: { amount: 'order.amount *' }, next: 'route' },
            { id: 'route', kind: 'branch', cases: [{ when: 'done.ok', next: 'done' }], otherwise: 'nowhere' },
            { id: 'done', kind: 'end', output: { ok: 'target.ok', late: 'customer.name' } },
          ],
        },
      },
    ],
  ])('says what the save says: %s', async (_, entityType, record, change) => {
    const { saved, checked } = await bothSay(entityType, record, change);
    expect(saved.size).toBeGreaterThan(0);
    expect(checked).toEqual(saved);
  });

  it('finds nothing in a draft the save takes', () => {
    expect(draftProblems('workflow', { ...workflow('dc-fine'), description: '', tags: [] })).toEqual({ problems: new Map(), warnings: [] });
  });

  it('gives the warnings the save keeps', async () => {
    const record: Json = { ...parcelFee('dc-warnings'), description: '' };
    const definition = {
      ...(record.definition as Json),
      rules: [
        { id: 'light', when: ['<= 2'], then: [4.9] },
        { id: 'lighter', when: ['<= 1'], then: [3.9] },
      ],
    };
    const saved = await clients.rule.create({ ...record, definition });
    expect(saved.body.data.warnings.length).toBeGreaterThan(0);
    expect(draftProblems('rule', { ...record, definition }).warnings).toEqual(saved.body.data.warnings);
  });
});
