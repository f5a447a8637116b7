/** Rules for the authoring and running tests, and calls of those operations as a client makes them. */
import { expect } from 'vitest';
import type { Execution } from '../../lib/store/types.ts';
import type { Api, ApiResponse, RequestOptions } from './api.ts';

export type Json = Record<string, unknown>;

/** What a save answers. */
export interface Saved {
  id: string;
  checksum: string;
  warnings: { path: string; message: string }[];
}

export interface FieldErrors {
  errors: { in: string; field: string; message: string }[];
}

/**
 * A parcel fee by weight under the hit policy unique, with a declared param,
 * a test case and recorded executions: `overrides` change the definition.
 */
export const parcelFee = (id: string, overrides: Json = {}): Json => ({
  id,
  name: `Parcel fee ${id}`,
  type: 'decisionTable',
  tags: ['test'],
  definition: {
    hitPolicy: 'unique',
    parameters: [{ name: 'weightKg', type: 'number' }],
    inputs: [{ id: 'weight', label: 'Weight', expression: 'weightKg', type: 'number' }],
    outputs: [{ id: 'fee', name: 'fee', type: 'number' }],
    rules: [
      { id: 'light', when: ['<= 2'], then: [4.9] },
      { id: 'heavy', when: ['> 2'], then: [8.9] },
    ],
    tests: [{ name: 'a light parcel', params: { weightKg: 1 }, expected: { fee: 4.9 } }],
    settings: { recordExecutions: true },
    ...overrides,
  },
});

/**
 * A parcel fee by date whose rows overlap from 1 June 2025 under unique:
 * date cells are beyond the publish-time overlap check, so it publishes, and
 * fails to answer (evaluation_failed) for a day from then on.
 */
export const overlappingByDate = (id: string): Json =>
  parcelFee(id, {
    parameters: [{ name: 'day', type: 'date' }],
    inputs: [{ id: 'day', expression: 'day', type: 'date' }],
    rules: [
      { id: 'winter', when: ['>= date("2025-01-01")'], then: [1] },
      { id: 'summer', when: ['>= date("2025-06-01")'], then: [2] },
    ],
    tests: [],
  });

export const simple = (id: string, definition: Json): Json => ({ id, name: `Simple ${id}`, type: 'simpleRule', definition });

export const ruleSetOf = (id: string, rules: Json[], extra: Json = {}): Json => ({
  id,
  name: `Set ${id}`,
  type: 'ruleSet',
  definition: { strategy: 'allMatch', rules, ...extra },
});

export const flow = (id: string, ruleId = 'loan-eligibility'): Json => ({
  id,
  name: `Flow ${id}`,
  type: 'workflow',
  definition: {
    start: 'run',
    steps: [
      { id: 'run', kind: 'rule', ruleId, next: 'done' },
      { id: 'done', kind: 'end' },
    ],
  },
});

/** The authoring and running calls on one entity type, through the contract-checking client. */
export function rulesClient(api: Api, entityType: 'rule' | 'workflow' = 'rule') {
  const send = <D>(method: string, path: string, body: unknown, options: RequestOptions = {}) =>
    api<D>(`/dev/v1/${entityType}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), ...options });
  return {
    create: (record: unknown, options?: RequestOptions) => send<Saved>('POST', '', record, options),
    update: (id: string, change: Json, options?: RequestOptions) => send<Saved>('PATCH', `/${id}`, change, options),
    publish: (id: string, body?: Json, options?: RequestOptions) =>
      send<{ id: string; version: string; checksum: string }>('POST', `/${id}/publish`, body, options),
    remove: (id: string, options?: RequestOptions) => send<{ id: string; deleted: boolean }>('DELETE', `/${id}`, undefined, options),
    get: (id: string, options?: RequestOptions) =>
      send<Json & { checksum: string; warnings: Saved['warnings']; versions: { version: string }[] }>('GET', `/${id}`, undefined, options),
    test: (id: string, body: Json, options?: RequestOptions) =>
      send<{ output: unknown; trace: Json; durationMs: number }>('POST', `/${id}/test`, body, options),
    execute: (id: string, body: Json, options?: RequestOptions) =>
      send<{ output: unknown; version: string; executionId: string; durationMs: number }>('POST', `/${id}/execute`, body, options),
    executions: (id: string, query: RequestOptions['query'] = {}, options?: RequestOptions) =>
      send<Execution[]>('GET', `/${id}/executions`, undefined, { query, ...options }),
    /** Creates and publishes, expecting both to succeed; the checksum published. */
    async published(record: Json, options?: RequestOptions) {
      const created = await this.create(record, options);
      expect([200, 201], JSON.stringify(created.body)).toContain(created.status);
      const published = await this.publish(record.id as string, { checksum: created.body.data.checksum }, options);
      expect([200, 201], JSON.stringify(published.body)).toContain(published.status);
      return published.body.data;
    },
  };
}

/** A 400's details. */
export const errorsOf = (response: ApiResponse<unknown>) => (response.body.data as FieldErrors).errors;

/** The field paths of a 400's details. */
export const fieldsOf = (response: ApiResponse<unknown>) => errorsOf(response).map((e) => e.field);
