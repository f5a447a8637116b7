/** Identical creates at once make one credential, even when sealing is slow (a KMS round trip). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { localKeyring } from '../../lib/credentials/local-keyring.ts';
import type { Keyring } from '../../lib/credentials/sealing.ts';
import { createCredential } from '../../lib/credentials/service.ts';
import { useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('race');

it('returns the one credential to every identical create sent at once', async () => {
  const local = localKeyring(join(mkdtempSync(join(tmpdir(), 'rules-race-')), 'key'));
  const slow: Keyring = {
    generateDataKey: async (context) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return local.generateDataKey(context);
    },
    decryptDataKey: (...args) => local.decryptDataKey(...args),
  };
  const input = {
    name: 'Race',
    type: 'apiKey' as const,
    key: 'X-Api-Key',
    value: 'sk_race_0123456789',
    placement: 'header' as const,
    description: '',
    allowedHosts: ['api.example.com'],
  };
  const results = await Promise.all(Array.from({ length: 4 }, () => createCredential({ store: fixture.store, keyring: slow }, 'w', input)));
  expect(new Set(results.map((r) => r.credential.id)).size).toBe(1);
  expect(results.filter((r) => r.created)).toHaveLength(1);
  expect(await fixture.store.listCredentials('w')).toHaveLength(1);
});
