/**
 * The bound docs/governance.md states for warm functions: a key's revocation, or a
 * change of its expiry, takes effect within DIRECTORY_CACHE_TTL_MS; the
 * expiry a cached key carries is checked on every call, so a key reaching it
 * is refused at once. Run with a short cache so the bound can be waited out.
 */
import { describe, expect, it } from 'vitest';
import { createApiKey, expireApiKey, revokeApiKey } from '../../lib/workspaces/admin.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

const ttlMs = 1_500;
process.env.DIRECTORY_CACHE_TTL_MS = String(ttlMs);

const t = useRuntime();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const get = (key: string) => t.api('/dev/v1/rule/shipping-cost', { key });

/** A new key of the demo workspace, already used once so that the functions hold it. */
async function cachedKey(label: string, expiresAt?: string) {
  const { key, record } = await createApiKey(t.runtime.store, 'demo', { label, expiresAt });
  expectSuccess(await get(key));
  return { key, keyId: record.keyId, cachedAt: Date.now() };
}

/** Polls until the key is refused with `code`, and returns how long after `since` that was. */
async function refusedAfter(key: string, code: string, since: number): Promise<number> {
  for (;;) {
    const response = await get(key);
    if (response.status === 401) {
      expectFailure(response, 401, code, null);
      return Date.now() - since;
    }
    expectSuccess(response);
    if (Date.now() - since > ttlMs * 3) throw new Error('still accepted three cache lifetimes later');
    await sleep(50);
  }
}

describe('a warm function holding a key', () => {
  it('refuses it within the cache lifetime after a revocation', async () => {
    const { key, keyId, cachedAt } = await cachedKey('revoke-cached');
    await revokeApiKey(t.runtime.store, 'demo', keyId);
    expect(await refusedAfter(key, 'service_api_key_invalid', cachedAt)).toBeLessThanOrEqual(ttlMs + 500);
  });

  it('refuses it within the cache lifetime after its expiry is moved into the past', async () => {
    const { key, keyId, cachedAt } = await cachedKey('expire-cached');
    await expireApiKey(t.runtime.store, 'demo', keyId);
    expect(await refusedAfter(key, 'service_api_key_expired', cachedAt)).toBeLessThanOrEqual(ttlMs + 500);
  });

  it('refuses it at once when the expiry it was cached with passes, without waiting for the cache', async () => {
    const expiresAt = Date.now() + 400;
    const { key } = await cachedKey('expires-while-cached', new Date(expiresAt).toISOString());
    // Refused on the first call after the expiry, long before the cached entry would be read again.
    expect(await refusedAfter(key, 'service_api_key_expired', expiresAt)).toBeLessThan(ttlMs / 2);
  });
});
