/** Integration bodies, views and checks that the integration tests share. */
import { expect } from 'vitest';
import type { IntegrationView } from '../../lib/integrations/service.ts';
import type { ApiResponse } from './api.ts';
import { expectUnpaged } from './envelope.ts';

/** What the API shows of an integration, and what POST /dev/v1/integrations/{id}/test answers. */
export type { IntegrationTestResult, IntegrationView } from '../../lib/integrations/service.ts';

export const integrationsPath = '/dev/v1/integrations';
export const integrationPath = (id: string) => `${integrationsPath}/${encodeURIComponent(id)}`;
export const integrationTestPath = (id: string) => `${integrationPath(id)}/test`;

/** A create body: no headers or credential unless told. */
export const integrationBody = (name: string, baseUrl: string, extra: Record<string, unknown> = {}) => ({ name, type: 'restApi', baseUrl, ...extra });

const alwaysShown = ['baseUrl', 'createdAt', 'description', 'headers', 'id', 'name', 'revision', 'timeoutMs', 'type', 'updatedAt'];

/** An integration view: exactly its fields (credentialId only when it has one), an `intg_` id. */
export function expectIntegrationView(view: unknown, expected: Partial<IntegrationView> = {}): asserts view is IntegrationView {
  const v = view as IntegrationView;
  expect(Object.keys(v).sort()).toEqual([...alwaysShown, ...(v.credentialId === undefined ? [] : ['credentialId'])].sort());
  expect(v.id).toMatch(/^intg_[0-9a-f]{20}$/);
  expect(v.type).toBe('restApi');
  for (const at of [v.createdAt, v.updatedAt]) expect(new Date(at).toISOString()).toBe(at);
  expect(v).toMatchObject(expected);
}

/** A 2xx with the given status, unpaged, holding an integration view. */
export function expectIntegration(response: ApiResponse, status: 200 | 201, expected: Partial<IntegrationView> = {}): IntegrationView {
  const view = expectUnpaged(response, status);
  expectIntegrationView(view, expected);
  return view;
}
