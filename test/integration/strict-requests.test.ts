/**
 * What a request may name: /dev/v1 operations refuse query parameters and body
 * fields they do not know (400 naming them), the legacy paths ignore them, and
 * names that are also object prototype names ("constructor", "__proto__"...)
 * are names like any other, as they are to API Gateway.
 */
import { describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { pullClient } from '../helpers/pull.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

/** A list page: the envelope with paging. */
const expectPage = (response: Parameters<typeof expectSuccess>[0]) =>
  expectSuccess(response, { pageNo: 1, pageSize: 10, totalCount: response.body.totalCount });

const prototypeNames = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];

interface FieldError {
  errors: { in: string; field: string; message: string }[];
}

describe('unknown query parameters', () => {
  it('are a 400 naming each on a /dev/v1 list, with the parameters it takes', async () => {
    const response = await t.api<FieldError>('/dev/v1/rule', { query: { pagesize: 5, colour: 'red' } });
    expectFailure(response, 400, 'invalid_request');
    expect(response.body.data.errors.map((e) => [e.in, e.field])).toEqual([
      ['query', 'pagesize'],
      ['query', 'colour'],
    ]);
    expect(response.body.data.errors[0]!.message).toMatch(/pageNo, pageSize/);
    expect(response.body.message).toMatch(/pagesize/);
  });

  it.each([
    ['/dev/v1/rule/shipping-cost', 'GET'],
    ['/dev/v1/credentials', 'GET'],
    ['/dev/v1/remote', 'GET'],
    ['/dev/v1/tasks/nope', 'GET'],
  ])('are a 400 on %s too', async (path, method) => {
    const response = await t.api<FieldError>(path, { method, query: { extra: 1 } });
    expectFailure(response, 400, 'invalid_request');
    expect(response.body.data.errors).toEqual([{ in: 'query', field: 'extra', message: expect.stringMatching(/not a query parameter/) }]);
  });

  it('are ignored on the legacy paths', async () => {
    expectPage(await t.api('/dev/rule', { query: { pagesize: 5 } }));
    expectSuccess(await t.api('/dev/rule/shipping-cost', { query: { extra: 1 } }));
  });

  it('are refused before the key is looked at only when the key is valid: a missing key is still the 401', async () => {
    expectFailure(await t.api('/dev/v1/rule', { key: null, query: { pagesize: 5 } }), 401, 'service_api_key_empty', null);
  });
});

describe('unknown body fields', () => {
  it('are named twenty at most, however many are sent, so the refusal stays small', async () => {
    const fields = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`field${i}-${'x'.repeat(100)}`, i]));
    const response = await t.api('/dev/v1/remote/pull', { method: 'POST', branch: 'staging', body: JSON.stringify(fields) });
    expectFailure(response, 400, 'invalid_request', {});
    expect(response.body.message).toMatch(/unknown fields: field0-x{56}…, field1-x{56}…, /);
    expect(response.body.message.length).toBeLessThan(2_000);
  });

  it('are a 400 on the /dev/v1 pull, which takes no fields', async () => {
    const response = await t.api('/dev/v1/remote/pull', { method: 'POST', branch: 'staging', body: '{"force":true}' });
    // The pull's errors carry data {}, as they always have; the message names the field.
    expectFailure(response, 400, 'invalid_request', {});
    expect(response.body.message).toMatch(/unknown fields: force/);
  });

  it('are ignored by the legacy pull, whose body is ignored', async () => {
    const response = await t.api<{ taskId: string }>('/dev/remote/pull', { method: 'POST', branch: 'staging', body: '{"force":true}' });
    expectSuccess(response);
    expect((await pullClient(t.api, t.runtime.apiKey).wait(response.body.data.taskId)).taskState).toBe('completed');
  });

  it('are a 400 on a /dev/v1 body, prototype names included', async () => {
    for (const name of prototypeNames) {
      const response = await t.api<FieldError>('/dev/v1/remote', { method: 'PUT', body: `{"url":"https://git.example.com/a/b.git","${name}":{"x":1}}` });
      expectFailure(response, 400, 'invalid_request');
      expect(response.body.message).toContain(name);
    }
  });
});

describe('prototype names', () => {
  it.each(prototypeNames)('as a query parameter "%s": 401 without a key, 400 on v1, ignored on legacy', async (name) => {
    expectFailure(await t.api('/dev/v1/rule', { key: null, query: { [name]: 1 } }), 401, 'service_api_key_empty', null);
    const v1 = await t.api<FieldError>('/dev/v1/rule', { query: { [name]: 1 } });
    expectFailure(v1, 400, 'invalid_request');
    expect(v1.body.data.errors.map((e) => e.field)).toEqual([name]);
    expectPage(await t.api('/dev/rule', { query: { [name]: 1 } }));
  });

  it.each(prototypeNames)('as a header name "%s": answered as without it', async (name) => {
    expectFailure(await t.api('/dev/v1/rule', { key: null, headers: { [name]: '1' } }), 401, 'service_api_key_empty', null);
    expectPage(await t.api('/dev/v1/rule', { headers: { [name]: '1' } }));
  });

  it('as a repeated query parameter and header', async () => {
    expectPage(await t.api('/dev/rule?constructor=1&constructor=2&__proto__=3&__proto__=4'));
  });
});
