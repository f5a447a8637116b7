/** The schema takes the extended shape and refuses what it cannot run, each refusal at its path. */
import { describe, expect, it } from 'vitest';
import { workflowDefinitionSchema } from '../../lib/workflows/definition.ts';
import { quoteFlow } from './helpers.ts';

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
    expect(issues({ start: 'a', steps: [] })).toEqual([expect.stringMatching(/^steps: /)]);
    expect(issues({ start: 'a', steps: [{ id: 'a', kind: 'apiRequest', method: 'GET', url: 'https://x.test/', retries: 4, next: 'a' }] })).toEqual([expect.stringMatching(/^steps.0.retries: /)]);
  });

  it('takes an integration and path, or a url with its own credential, not both', () => {
    const api = { id: 'a', kind: 'apiRequest', method: 'GET', next: 'b' };
    const flow = (s: object) => ({ start: 'a', steps: [{ ...api, ...s }, { id: 'b', kind: 'end' }] });
    expect(issues(flow({ url: 'https://api.test/x', credentialId: 'key' }))).toEqual([]);
    expect(issues(flow({ integrationId: 'pricing', path: '/x' }))).toEqual([]);
    expect(issues(flow({}))).toEqual(['steps.0.url: give either integrationId and path, or url']);
    expect(issues(flow({ integrationId: 'pricing', path: '/x', url: 'https://api.test/' }))).toEqual(['steps.0.url: give either integrationId and path, or url, not both']);
    expect(issues(flow({ integrationId: 'pricing' }))).toEqual(['steps.0.path: integrationId and path go together']);
    expect(issues(flow({ integrationId: 'pricing', path: '/x', credentialId: 'k' }))).toEqual([expect.stringMatching(/^steps.0.credentialId: /)]);
    expect(issues(flow({ url: 'ftp://user@x/' }))).toEqual([expect.stringMatching(/^steps.0.url: must be an http/)]);
  });
});
