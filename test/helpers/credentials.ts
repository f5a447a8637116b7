/** Credential bodies, views and checks that the credential integration tests share. */
import { expect } from 'vitest';
import type { CredentialStore, StoredCredential } from '../../lib/store/types.ts';
import type { Api, ApiResponse, RequestOptions } from './api.ts';
import { expectFailure, expectUnpaged } from './envelope.ts';

/** What the API shows of a credential (never the value). */
export interface CredentialView {
  id: string;
  name: string;
  type: 'apiKey';
  key: string;
  placement: 'header' | 'query';
  description: string;
  allowedHosts: string[];
  valueHint: string;
  createdAt: string;
  updatedAt: string;
  rotatedAt?: string;
  revokedAt?: string;
  status: 'active' | 'revoked';
}

/** What POST /dev/v1/credentials/{id}/test answers. */
export interface CredentialTestResult {
  status: number;
  ok: boolean;
  durationMs: number;
  message: string;
  failure?: string;
}

export interface FieldIssue {
  in: string;
  field: string;
  message: string;
}

export const credentialsPath = '/dev/v1/credentials';
export const credentialPath = (id: string) => `${credentialsPath}/${encodeURIComponent(id)}`;
export const credentialTestPath = (id: string) => `${credentialPath(id)}/test`;

/** The fields a credential view may have; `rotatedAt` and `revokedAt` only once it was rotated or revoked. */
const alwaysShown = ['allowedHosts', 'createdAt', 'description', 'id', 'key', 'name', 'placement', 'status', 'type', 'updatedAt', 'valueHint'];

/** Where the tests' providers listen (any port): the hosts of a credential made by `credentialBody` unless told otherwise. */
export const loopbackHosts = ['127.0.0.1'];

/** A create body: a header credential named `name`, bound to the loopback host, unless told otherwise. */
export const credentialBody = (name: string, value: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'apiKey',
  key: 'X-Api-Key',
  value,
  placement: 'header',
  allowedHosts: loopbackHosts,
  ...extra,
});

/** Request options with a JSON body. */
export const json = (method: string, body: unknown, options: RequestOptions = {}): RequestOptions => ({
  ...options,
  method,
  headers: { 'content-type': 'application/json', ...options.headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** The hint the API shows: "••••" and at most the last 4 characters, fewer for short values. */
export const expectedHint = (value: string) => `••••${value.slice(value.length - Math.min(4, Math.floor(value.length / 4)))}`;

/** A credential view: exactly its fields, a `cred_` id, no value or secret. */
export function expectView(view: unknown, expected: Partial<CredentialView> = {}): asserts view is CredentialView {
  const fields = Object.keys(view as object);
  expect(fields).toEqual(expect.arrayContaining(alwaysShown));
  expect(fields.filter((f) => !alwaysShown.includes(f)).every((f) => f === 'rotatedAt' || f === 'revokedAt')).toBe(true);
  const v = view as CredentialView;
  expect(v.id).toMatch(/^cred_[0-9a-f]{20}$/);
  expect(v.type).toBe('apiKey');
  expect(v.status).toBe(v.revokedAt ? 'revoked' : 'active');
  for (const at of [v.createdAt, v.updatedAt, v.rotatedAt, v.revokedAt]) if (at !== undefined) expect(new Date(at).toISOString()).toBe(at);
  expect(v).toMatchObject(expected);
}

/** A 2xx with the given status, empty code and message, unpaged, holding a credential view. */
export function expectCredential(response: ApiResponse, status: 200 | 201, expected: Partial<CredentialView> = {}): CredentialView {
  const view = expectUnpaged(response, status);
  expectView(view, expected);
  return view;
}

/** A 400 invalid_request whose field details name exactly these fields, each at least once (in the body unless told). */
export function expectInvalid(response: ApiResponse, fields: string[], where = 'body'): FieldIssue[] {
  expectFailure(response, 400, 'invalid_request');
  const issues = (response.body.data as { errors: FieldIssue[] }).errors;
  expect([...new Set(issues.map((i) => i.field))].sort()).toEqual([...fields].sort());
  for (const issue of issues) {
    expect(issue.in).toBe(where);
    expect(issue.message).toMatch(/\S/);
    expect(response.body.message).toContain(`${issue.field}: `);
  }
  return issues;
}

/** The forms a secret could leak in: as typed, %-encoded, form-encoded, base64. */
export const leakForms = (secret: string) => [
  ...new Set([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+'), Buffer.from(secret).toString('base64')]),
];

/** Fails naming the secret's form if `text` holds any of the secrets in any form. */
export function expectNoSecrets(text: string, secrets: Iterable<string>, where: string) {
  for (const secret of secrets)
    for (const form of leakForms(secret))
      if (text.includes(form)) expect.fail(`${where} holds the secret ${JSON.stringify(secret)} (as ${JSON.stringify(form)})`);
}

/**
 * An Api that keeps the text of every answer, so a test can check that no
 * answer of any operation ever held a secret. `api` is read at each call
 * (useRuntime fills its fixture only in beforeAll).
 */
export function recordingApi(api: () => Api): { api: Api; answers: string[] } {
  const answers: string[] = [];
  const recording: Api = async (path, options) => {
    const response = await api()(path, options);
    answers.push(`${options?.method ?? 'GET'} ${path} -> ${response.status} ${JSON.stringify(response.body)}`);
    return response as never;
  };
  return { api: recording, answers };
}

/** Waits until the clock has moved past `iso`, so a later timestamp is strictly later. */
export async function afterTimestamp(iso: string) {
  while (Date.now() <= Date.parse(iso)) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** Rewrites a stored credential without allowedHosts, as a deployment made before they were required left it; answers what is stored then. */
export async function withoutHosts(store: CredentialStore, workspaceId: string, id: string): Promise<StoredCredential> {
  const stored = (await store.getCredential(workspaceId, id, { withSecret: true }))!;
  const { allowedHosts: _allowedHosts, ...legacy } = stored;
  const written = { ...legacy, revision: stored.revision + 1 };
  await store.putCredential(written, stored.revision);
  return written;
}
