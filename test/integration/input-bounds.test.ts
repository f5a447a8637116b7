/**
 * Client input that once ended in a 500 on the deployed code path (issue 11):
 * ids longer than any stored id reached DynamoDB and broke its key-size limit,
 * a body nested thousands deep overflowed a recursive walk, and a remote URL
 * every pull refuses was saved. Each is now refused before any I/O, with an
 * envelope that says why.
 */
import { describe, expect, it } from 'vitest';
import { expectFailure } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('path ids longer than any stored id', () => {
  it.each([
    ['credential', '/dev/v1/credentials/', 1_024, 'credential_not_found'],
    ['integration', '/dev/v1/integrations/', 1_024, 'integration_not_found'],
    ['task', '/dev/v1/tasks/', 2_100, 'task_not_found'],
    ['pull task (legacy path)', '/dev/remote/pull/', 2_100, 'task_not_found'],
    ['rule', '/dev/v1/rule/', 1_100, 'entity_not_found'],
  ])('a %s id of %i characters is not found, and the message does not repeat it whole', async (_what, prefix, length, code) => {
    const response = await t.api(`${prefix}${'a'.repeat(length as number)}`);
    expectFailure(response, 404, code as string);
    expect(response.body.message.length).toBeLessThan(200);
  });

  it('holds for writes and tests too', async () => {
    const id = 'b'.repeat(1_500);
    expectFailure(await t.api(`/dev/v1/credentials/${id}`, { method: 'PATCH', body: '{"description":"x"}' }), 404, 'credential_not_found');
    expectFailure(await t.api(`/dev/v1/credentials/${id}`, { method: 'DELETE' }), 404, 'credential_not_found');
    expectFailure(await t.api(`/dev/v1/credentials/${id}/test`, { method: 'POST', body: '{"url":"https://example.com/"}' }), 404, 'credential_not_found');
    expectFailure(await t.api(`/dev/v1/workflow/loan-application/steps/${id}/test`, { method: 'POST', body: '{"context":{}}' }), 404, 'step_not_found');
  });
});

describe('bodies nested deeper than any request needs', () => {
  it('are a 400 naming the bound, for any operation, before the body reaches its schema', async () => {
    const deep = `{"url":"http://127.0.0.1:1/","body":${nested(5_000)}}`;
    const response = await t.api<{ errors: { field: string; message: string }[] }>('/dev/v1/credentials/cred_demo_header/test', { method: 'POST', body: deep });
    expectFailure(response, 400, 'invalid_request');
    expect(response.body.data.errors).toEqual([{ in: 'body', field: 'body', message: 'nests deeper than 64 levels' }]);
    expectFailure(await t.api('/dev/v1/rule', { method: 'POST', body: `{"id":"deep","definition":${nested(100_000)}}` }), 400, 'invalid_request');
    // 64 levels are taken as far as depth goes (the operation's own schema decides the rest).
    expectFailure(
      await t.api('/dev/v1/credentials/cred_demo_header/test', { method: 'POST', body: `{"url":"ftp://x/","body":${nested(62)}}` }),
      400,
      'invalid_request',
    );
  });
});

describe('a remote that every pull would refuse', () => {
  it('is refused when saved, in the words the pull would use, and nothing is saved', async () => {
    const before = (await t.api('/dev/v1/remote')).body;
    for (const url of ['http://169.254.169.254/latest/meta-data.git', 'http://0xA9FEA9FE/repo.git', 'http://metadata.google.internal/repo.git']) {
      const response = await t.api<{ errors: { field: string; message: string }[] }>('/dev/v1/remote', { method: 'PUT', body: JSON.stringify({ url }) });
      expectFailure(response, 400, 'invalid_request');
      expect(response.body.data.errors[0]!.message).toMatch(/^Refused to call .*; outbound calls may only go to public internet addresses\.$/);
    }
    expect((await t.api('/dev/v1/remote')).body).toEqual(before);
  });
});
