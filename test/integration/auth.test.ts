/** Service-API-Key on every operation: 401s with null data, checked before anything else. */
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../lib/auth/api-key.ts';
import { createApiKey, revokeApiKey } from '../../lib/workspaces/admin.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

const operations = ['/dev/rule', '/dev/v1/workflow', '/dev/rule/shipping-cost', '/dev/v1/rule/shipping-cost'] as const;

describe('Service-API-Key', () => {
  it.each([
    ['/dev/rule', { pageNo: 1, pageSize: 10, totalCount: 15 }],
    ['/dev/v1/workflow', { pageNo: 1, pageSize: 10, totalCount: 4 }],
    ['/dev/rule/shipping-cost', undefined],
    ['/dev/v1/rule/shipping-cost', undefined],
  ])('lets the demo key read %s', async (path, paging) => {
    expectSuccess(await t.api(path), paging);
  });

  it.each(operations)('answers a missing key on %s with 401 service_api_key_empty and null data', async (path) => {
    const response = await t.api(path, { key: null });
    expectFailure(response, 401, 'service_api_key_empty', null);
    expect(response.body.message).toMatch(/empty/i);
    expect(response.body.message).toMatch(/must|supply/i);
  });

  it.each([
    ['empty', ''],
    ['only whitespace', '   '],
  ])('answers an %s key with service_api_key_empty', async (_, key) => {
    expectFailure(await t.api('/dev/rule', { key }), 401, 'service_api_key_empty', null);
  });

  it.each([
    ['an unknown key', () => 'rsk_unknownkeyunknownkeyunknownkeyunknownkey0'],
    ['the demo key with its last character changed', () => `${t.runtime.apiKey.slice(0, -1)}${t.runtime.apiKey.endsWith('A') ? 'B' : 'A'}`],
    ['the demo key in upper case', () => t.runtime.apiKey.toUpperCase()],
    ['the stored hash of the demo key', () => hashApiKey(t.runtime.apiKey)],
  ])('answers %s with 401 service_api_key_invalid', async (_, key) => {
    expectFailure(await t.api('/dev/v1/rule', { key: key() }), 401, 'service_api_key_invalid', null);
  });

  it('answers a key created already expired with 401 service_api_key_expired', async () => {
    const { key } = await createApiKey(t.runtime.store, 'demo', { label: 'expired', expiresAt: '2020-01-01T00:00:00Z' });
    expectFailure(await t.api('/dev/rule', { key }), 401, 'service_api_key_expired', null);
  });

  it('accepts a key that expires in the future', async () => {
    const { key } = await createApiKey(t.runtime.store, 'demo', { label: 'later', expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expectSuccess(await t.api('/dev/rule/shipping-cost', { key }));
  });

  it('answers a key whose workspace does not exist with 401 service_api_key_invalid', async () => {
    const key = 'rsk_orphan-key-of-a-deleted-workspace';
    await t.runtime.store.createApiKey(hashApiKey(key), { keyId: 'key_orphan', workspaceId: 'deleted', label: '', createdAt: new Date().toISOString() });
    expectFailure(await t.api('/dev/rule', { key }), 401, 'service_api_key_invalid', null);
  });

  it('checks the key before the entity type, the branch and the query', async () => {
    expectFailure(await t.api('/dev/rules', { key: null }), 401, 'service_api_key_empty', null);
    expectFailure(await t.api('/dev/rule', { key: null, branch: 'a..b' }), 401, 'service_api_key_empty', null);
    expectFailure(await t.api('/dev/rule', { key: 'nope', query: { pageNo: 0 } }), 401, 'service_api_key_invalid', null);
    expectFailure(await t.api('/dev/v1/rule/none', { key: 'nope', query: { version: 'bad' } }), 401, 'service_api_key_invalid', null);
  });

  it('keeps a looked-up key for DIRECTORY_CACHE_TTL_MS (30 s by default), so a revocation is not seen at once', async () => {
    // Documented behaviour of cachedDirectory; key-lifecycle.test.ts runs with the cache off to see revocations act.
    const { key, record } = await createApiKey(t.runtime.store, 'demo', { label: 'cached' });
    expectSuccess(await t.api('/dev/rule/shipping-cost', { key }));
    await revokeApiKey(t.runtime.store, 'demo', record.keyId);
    expectSuccess(await t.api('/dev/rule/shipping-cost', { key }));
  });
});
