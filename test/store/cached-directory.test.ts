import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cachedDirectory } from '../../lib/store/cached-directory.ts';
import type { ApiKey, Branch, DirectoryStore, Workspace } from '../../lib/store/types.ts';

const workspace: Workspace = { id: 'ws', name: 'WS', defaultBranch: 'main', createdAt: '2024-01-01T00:00:00.000Z' };
const branch: Branch = { workspaceId: 'ws', name: 'main', createdAt: workspace.createdAt };
const key: ApiKey = { keyId: 'key_1', workspaceId: 'ws', label: '', createdAt: workspace.createdAt };

/** A directory that knows one workspace, branch and key hash, and counts its reads. */
function fakeDirectory() {
  const calls: string[] = [];
  const directory = {
    getWorkspace: async (id: string) => (calls.push(`workspace ${id}`), id === workspace.id ? workspace : undefined),
    getBranch: async (ws: string, name: string) => (calls.push(`branch ${ws} ${name}`), ws === 'ws' && name === 'main' ? branch : undefined),
    getApiKeyByHash: async (hash: string) => (calls.push(`key ${hash}`), hash === 'known' ? key : undefined),
    listBranches: async () => (calls.push('listBranches'), [branch]),
  } as unknown as DirectoryStore;
  return { directory, calls };
}

describe('cachedDirectory', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('answers repeated lookups that found something from memory until the ttl passes', async () => {
    const { directory, calls } = fakeDirectory();
    const cached = cachedDirectory(directory, 1000);
    expect(await cached.getApiKeyByHash('known')).toEqual(key);
    expect(await cached.getApiKeyByHash('known')).toEqual(key);
    expect(await cached.getWorkspace('ws')).toEqual(workspace);
    expect(await cached.getWorkspace('ws')).toEqual(workspace);
    expect(await cached.getBranch('ws', 'main')).toEqual(branch);
    expect(await cached.getBranch('ws', 'main')).toEqual(branch);
    expect(calls).toEqual(['key known', 'workspace ws', 'branch ws main']);

    vi.advanceTimersByTime(999);
    await cached.getApiKeyByHash('known');
    expect(calls).toHaveLength(3);
    vi.advanceTimersByTime(1);
    await cached.getApiKeyByHash('known');
    expect(calls).toEqual(['key known', 'workspace ws', 'branch ws main', 'key known']);
  });

  it('does not keep misses, so something created later is found at once', async () => {
    const { directory, calls } = fakeDirectory();
    const cached = cachedDirectory(directory, 60_000);
    expect(await cached.getApiKeyByHash('unknown')).toBeUndefined();
    expect(await cached.getApiKeyByHash('unknown')).toBeUndefined();
    expect(await cached.getBranch('ws', 'feature')).toBeUndefined();
    expect(await cached.getBranch('ws', 'feature')).toBeUndefined();
    expect(calls).toEqual(['key unknown', 'key unknown', 'branch ws feature', 'branch ws feature']);
  });

  it('keeps lookups with different arguments apart', async () => {
    const { directory, calls } = fakeDirectory();
    const cached = cachedDirectory(directory, 60_000);
    await cached.getBranch('ws', 'main');
    expect(await cached.getBranch('ws', 'other')).toBeUndefined();
    expect(await cached.getWorkspace('main')).toBeUndefined(); // same argument, other lookup
    expect(calls).toEqual(['branch ws main', 'branch ws other', 'workspace main']);
  });

  it('passes everything else through to the directory', async () => {
    const { directory, calls } = fakeDirectory();
    const cached = cachedDirectory(directory, 60_000);
    await cached.listBranches('ws');
    await cached.listBranches('ws');
    expect(calls).toEqual(['listBranches', 'listBranches']);
  });

  it('is the directory itself with a ttl of 0', async () => {
    const { directory, calls } = fakeDirectory();
    const cached = cachedDirectory(directory, 0);
    expect(cached).toBe(directory);
    await cached.getApiKeyByHash('known');
    await cached.getApiKeyByHash('known');
    expect(calls).toEqual(['key known', 'key known']);
  });
});
