/**
 * Revoking and expiring keys through the admin operations takes effect on the
 * next request. The functions keep looked-up keys for DIRECTORY_CACHE_TTL_MS
 * (30 s by default, see lib/store/cached-directory.ts), which would hide a
 * revocation for that long, so this file runs the runtime with the cache off.
 * The function modules read the variable when they first make their store, on
 * the first request, so setting it here, before the runtime starts, suffices.
 */
import { describe, expect, it } from 'vitest';
import { createApiKey, expireApiKey, revokeApiKey } from '../../lib/workspaces/admin.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

process.env.DIRECTORY_CACHE_TTL_MS = '0';

const t = useRuntime();

const newKey = async (label: string) => {
  const { key, record } = await createApiKey(t.runtime.store, 'demo', { label });
  return { key, keyId: record.keyId };
};

describe('API key lifecycle', () => {
  it('lets a new key in at once', async () => {
    const { key } = await newKey('fresh');
    expectSuccess(await t.api('/dev/rule', { key }), { pageNo: 1, pageSize: 10, totalCount: 15 });
  });

  it('shuts a revoked key out on the next request, and only that key', async () => {
    const { key, keyId } = await newKey('to-revoke');
    expectSuccess(await t.api('/dev/v1/rule/shipping-cost', { key }));
    const revoked = await revokeApiKey(t.runtime.store, 'demo', keyId);
    expect(revoked.revokedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expectFailure(await t.api('/dev/v1/rule/shipping-cost', { key }), 401, 'service_api_key_invalid', null);
    expectFailure(await t.api('/dev/rule', { key }), 401, 'service_api_key_invalid', null);
    expectSuccess(await t.api('/dev/v1/rule/shipping-cost'));
  });

  it('shuts an expired key out with service_api_key_expired', async () => {
    const { key, keyId } = await newKey('to-expire');
    expectSuccess(await t.api('/dev/rule', { key }), { pageNo: 1, pageSize: 10, totalCount: 15 });
    await expireApiKey(t.runtime.store, 'demo', keyId);
    expectFailure(await t.api('/dev/rule', { key }), 401, 'service_api_key_expired', null);
    expectSuccess(await t.api('/dev/rule'), { pageNo: 1, pageSize: 10, totalCount: 15 });
  });

  it('keeps a key whose expiry is set in the future working until then', async () => {
    const { key, keyId } = await newKey('expires-soon');
    await expireApiKey(t.runtime.store, 'demo', keyId, new Date(Date.now() + 800).toISOString());
    expectSuccess(await t.api('/dev/rule/shipping-cost', { key }));
    await new Promise((resolve) => setTimeout(resolve, 900));
    expectFailure(await t.api('/dev/rule/shipping-cost', { key }), 401, 'service_api_key_expired', null);
  });

  it('reports a revoked key as invalid even when it has also expired', async () => {
    const { key, keyId } = await newKey('both');
    await expireApiKey(t.runtime.store, 'demo', keyId, '2020-01-01T00:00:00Z');
    await revokeApiKey(t.runtime.store, 'demo', keyId);
    expectFailure(await t.api('/dev/rule', { key }), 401, 'service_api_key_invalid', null);
  });

  it('refuses to revoke or expire a key of another workspace', async () => {
    const { keyId } = await newKey('mine');
    await expect(revokeApiKey(t.runtime.store, 'other-workspace', keyId)).rejects.toThrow(/has no key/);
    await expect(expireApiKey(t.runtime.store, 'other-workspace', keyId)).rejects.toThrow(/has no key/);
  });
});
