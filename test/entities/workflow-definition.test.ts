/** The schema takes the extended shape and refuses what it cannot run, each refusal at its path. */
import { describe, expect, it } from 'vitest';
import { workflowDefinitionSchema, workflowShapeSchema } from '../../lib/entities/workflow-definition.ts';
import { quoteFlow } from '../workflows/helpers.ts';

const issues = (input: unknown) => (workflowDefinitionSchema.safeParse(input).error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('workflowDefinitionSchema', () => {
  it('accepts the extended shape and fills the defaults', () => {
    const parsed = workflowDefinitionSchema.parse(quoteFlow);
    expect(parsed.timeoutMs).toBe(60_000);
    expect(parsed.steps[1]).toMatchObject({ timeoutMs: 10_000, retries: 1 });
  });

  it('is strict and bounded', () => {
    const step = { id: 'a', kind: 'end' };
    expect(issues({ start: 'a', steps: [{ ...step, extra: 1 }] })).toEqual([expect.stringMatching(/^steps.0: /)]);
    expect(issues({ start: 'a', steps: [step], timeoutMs: 900_001 })).toEqual([expect.stringMatching(/^timeoutMs: /)]);
    expect(issues({ start: 'a', steps: [] })).toEqual([expect.stringMatching(/^steps: /), 'start: no step has the id "a"']);
    expect(
      issues({
        start: 'a',
        steps: [
          { id: 'a', kind: 'apiRequest', request: { method: 'GET', url: 'https://x.test/' }, retries: 6, next: 'e' },
          { id: 'e', kind: 'end' },
        ],
      }),
    ).toEqual([expect.stringMatching(/^steps.0.retries: /)]);
    expect(
      issues({
        start: 'a',
        steps: [
          { id: 'a', kind: 'apiRequest', request: { method: 'GET', url: 'https://x.test/' }, acceptStatuses: [404, 401], next: 'e' },
          { id: 'e', kind: 'end' },
        ],
      }),
    ).toEqual(['steps.0.acceptStatuses.1: 401 and 403 always fail the step: the key is wrong, revoked or lacks the permission']);
  });

  it('refuses a broken graph wherever a workflow is read (save, import, pull), each problem at its path', () => {
    const broken = {
      start: 'a',
      steps: [
        { id: 'a', kind: 'transform', set: { x: '1' }, next: 'b' },
        { id: 'b', kind: 'branch', cases: [{ when: 'true', next: 'nowhere' }], otherwise: 'a' },
        { id: 'a', kind: 'end' },
        { id: 'lost', kind: 'end' },
      ],
    };
    expect(issues(broken)).toEqual([
      'steps.2.id: "a" is the id of steps[0] too',
      'steps.1.cases.0.next: no step has the id "nowhere"',
      'steps.2: "a" is not reachable from the start step "a"',
      'steps.3: "lost" is not reachable from the start step "a"',
      'steps.1.otherwise: closes a cycle: a → b → a',
    ]);
    expect(workflowShapeSchema.safeParse(broken).success).toBe(true);
  });

  it('takes an integration and path, or a url with its own credential, not both', () => {
    const flow = (request: object, step: object = {}) => ({
      start: 'a',
      steps: [
        { id: 'a', kind: 'apiRequest', request: { method: 'GET', ...request }, next: 'b', ...step },
        { id: 'b', kind: 'end' },
      ],
    });
    expect(issues(flow({ url: 'https://api.test/x' }, { credentialId: 'key' }))).toEqual([]);
    expect(issues(flow({ integrationId: 'pricing', path: '/x' }))).toEqual([]);
    expect(issues(flow({}))).toEqual(['steps.0.request.url: give either integrationId and path, or url']);
    expect(issues(flow({ integrationId: 'pricing', path: '/x', url: 'https://api.test/' }))).toEqual([
      'steps.0.request.url: give either integrationId and path, or url, not both',
    ]);
    expect(issues(flow({ integrationId: 'pricing' }))).toEqual(['steps.0.request.path: integrationId and path go together']);
    expect(issues(flow({ integrationId: 'pricing', path: '/x' }, { credentialId: 'k' }))).toEqual([expect.stringMatching(/^steps.0.credentialId: /)]);
    expect(issues(flow({ url: 'ftp://user@x/' }))).toEqual([expect.stringMatching(/^steps.0.request.url: must be an http/)]);
  });
});
