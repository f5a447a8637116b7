/** A rotation is one change at one instant: its rotatedAt is its updatedAt, however far the clock moves while the value is sealed. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { localKeyring } from '../../lib/credentials/local-keyring.ts';
import { createCredential, updateCredential } from '../../lib/credentials/service.ts';
import { useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('rotation');

/** A clock that moves on a millisecond at every reading, so two readings never agree. */
class TickingDate extends Date {
  static ticks = 0;
  constructor(...args: unknown[]) {
    if (args.length === 0) super(Date.UTC(2026, 0, 1) + TickingDate.ticks++);
    else super(...(args as [number]));
  }
}

afterEach(() => vi.unstubAllGlobals());

it('stamps a rotation with one reading of the clock', async () => {
  const deps = { store: fixture.store, keyring: localKeyring(join(mkdtempSync(join(tmpdir(), 'rules-rotation-')), 'key')) };
  const input = {
    name: 'Rotating',
    type: 'apiKey' as const,
    key: 'X-Api-Key',
    value: 'sk_rotate_old_0123',
    placement: 'header' as const,
    description: '',
    allowedHosts: ['api.example.com'],
  };
  const { credential } = await createCredential(deps, 'w', input);
  vi.stubGlobal('Date', TickingDate);
  const rotated = await updateCredential(deps, 'w', credential.id, { value: 'sk_rotate_new_4567' });
  expect(rotated.rotatedAt).toBeDefined();
  expect(rotated.rotatedAt).toBe(rotated.updatedAt);
  expect(TickingDate.ticks).toBeGreaterThan(0);
});
