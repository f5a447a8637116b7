import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../../lib/auth/api-key.ts';
import { authenticate } from '../../lib/auth/authenticate.ts';
import { ApiError } from '../../lib/vocabulary/errors.ts';
import type { ApiKey, DirectoryStore, Workspace } from '../../lib/store/types.ts';

const now = Date.parse('2025-06-01T12:00:00.000Z');
const workspace: Workspace = { id: 'ws', name: 'WS', defaultBranch: 'main', createdAt: '2025-01-01T00:00:00.000Z' };
const keys: Record<string, ApiKey> = {
  good: { keyId: 'key_good', workspaceId: 'ws', label: '', createdAt: workspace.createdAt },
  future: { keyId: 'key_future', workspaceId: 'ws', label: '', createdAt: workspace.createdAt, expiresAt: '2025-06-01T12:00:00.001Z' },
  limited: {
    keyId: 'key_limited',
    workspaceId: 'ws',
    label: '',
    role: 'editor',
    owner: 'ana@example.com',
    branches: ['staging'],
    createdAt: workspace.createdAt,
  },
  expired: { keyId: 'key_expired', workspaceId: 'ws', label: '', createdAt: workspace.createdAt, expiresAt: '2025-06-01T12:00:00.000Z' },
  revoked: { keyId: 'key_revoked', workspaceId: 'ws', label: '', createdAt: workspace.createdAt, revokedAt: '2025-05-01T00:00:00.000Z' },
  revokedAndExpired: {
    keyId: 'key_both',
    workspaceId: 'ws',
    label: '',
    createdAt: workspace.createdAt,
    revokedAt: '2025-05-01T00:00:00.000Z',
    expiresAt: '2025-05-02T00:00:00.000Z',
  },
  orphan: { keyId: 'key_orphan', workspaceId: 'gone', label: '', createdAt: workspace.createdAt },
};
const byHash = new Map(Object.entries(keys).map(([secret, key]) => [hashApiKey(secret), key]));
const directory = {
  getApiKeyByHash: async (hash: string) => byHash.get(hash),
  getWorkspace: async (id: string) => (id === workspace.id ? workspace : undefined),
} as unknown as DirectoryStore;

const failure = (key: string | undefined) =>
  authenticate(directory, key, now).then(
    () => 'authenticated',
    (error: unknown) => (expect(error).toBeInstanceOf(ApiError), (error as ApiError).code),
  );

describe('authenticate', () => {
  it('resolves a valid key to its workspace, role, owner and branches; a key made before roles is an admin, owned by its id', async () => {
    expect(await authenticate(directory, 'good', now)).toEqual({ keyId: 'key_good', workspace, role: 'admin', owner: 'key_good' });
    expect(await authenticate(directory, 'future', now)).toMatchObject({ keyId: 'key_future' });
    expect(await authenticate(directory, 'limited', now)).toEqual({
      keyId: 'key_limited',
      workspace,
      role: 'editor',
      owner: 'ana@example.com',
      branches: ['staging'],
    });
  });

  it.each([undefined, '', ' ', '\t \t'])('answers %j with service_api_key_empty', async (key) => {
    expect(await failure(key)).toBe('service_api_key_empty');
  });

  it('ignores whitespace around the key', async () => {
    expect(await authenticate(directory, '  good\t', now)).toMatchObject({ keyId: 'key_good' });
  });

  it.each([
    ['an unknown key', 'unknown', 'service_api_key_invalid'],
    ['a key differing in case', 'GOOD', 'service_api_key_invalid'],
    ['a revoked key', 'revoked', 'service_api_key_invalid'],
    ['a revoked key that has also expired', 'revokedAndExpired', 'service_api_key_invalid'],
    ['a key whose workspace is gone', 'orphan', 'service_api_key_invalid'],
    ['a key expiring at this very moment', 'expired', 'service_api_key_expired'],
  ])('rejects %s', async (_, key, code) => {
    expect(await failure(key)).toBe(code);
  });

  it('reads the clock on each call by default', async () => {
    expect(await authenticate(directory, 'expired').catch((e: ApiError) => e.code)).toBe('service_api_key_expired');
  });
});

describe('API keys', () => {
  it('are long random secrets with a recognisable prefix, stored as a sha256 hash', () => {
    const [a, b] = [generateApiKey(), generateApiKey()];
    expect(a).toMatch(/^rsk_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(hashApiKey(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(a)).not.toContain(a);
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
