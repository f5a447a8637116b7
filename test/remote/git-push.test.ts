/**
 * withRemoteBranch (lib/remote/git-push.ts) against a real smart-HTTP Git
 * server on loopback (git http-backend, which takes pushes), through the
 * outbound client: the commit as the git CLI reads it back, a branch
 * created, the refusals when the branch moved (seen before the pack, or by
 * the host itself), and hosts that misbehave only when pushed to: silent,
 * trickling, refusing, cutting the answer.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, createRepository, startGitServer, type GitServer } from '../../lib/local/git-server.ts';
import type { OutboundCredential, OutboundOptions } from '../../lib/outbound/index.ts';
import { withRemoteBranch, type CommitChange, type RemoteBranch } from '../../lib/remote/git-push.ts';
import { gitOutput, hostileGitAnswers, loopbackOutbound, remoteFailure, startVanishingRemote, type VanishingRemote } from '../helpers/pull.ts';
import { startProvider } from '../outbound/servers.ts';

const SECRET = 'glpat-PUSH-s3cret_value+/=x';
const TOKEN_HEADER = 'PRIVATE-TOKEN';

let root: string;
let workDir: string;
let server: GitServer;
let guarded: GitServer;
let front: VanishingRemote;
/** Every outbound log line and error message of the file: checked for the secret at the end. */
const logged: string[] = [];
let repositories = 0;

const outbound = (extra: OutboundOptions = {}) => loopbackOutbound(logged, extra);

const git = (name: string, ...args: string[]) => gitOutput(join(root, name), args);

const change = (extra: Partial<CommitChange> = {}): CommitChange => ({
  writes: [{ path: 'rules/a.json', content: Buffer.from('{"a":2}\n') }],
  deletions: [],
  message: 'Push main from the rules service: 1 rule updated (a); by alice\n',
  author: { name: 'alice', email: 'noreply+key_1@rules-service.invalid' },
  committer: { name: 'Rules service', email: 'noreply@rules-service.invalid' },
  ...extra,
});

/** A fresh repository with main holding `files`; its name. */
async function repository(files: Record<string, string> = { 'rules/a.json': '{"a":1}\n', 'README.md': '# Rules\n' }, branch = 'main') {
  const name = `r${++repositories}.git`;
  await createRepository(root, name, { [branch]: files });
  return name;
}

/** Opens `branch` of `url` and runs `work` on it, with this file's bounds. */
function onBranch<T>(
  url: string,
  branch: string,
  work: (remote: RemoteBranch) => Promise<T>,
  extra: { credential?: OutboundCredential; outbound?: OutboundOptions } = {},
) {
  return withRemoteBranch({ url, branch, workDir, credential: extra.credential, outbound: outbound(extra.outbound) }, work);
}

/** Commits `change` on the branch and pushes it; the commit id. */
const pushChange = (url: string, branch: string, made = change(), extra = {}) =>
  onBranch(
    url,
    branch,
    async (remote) => {
      const commit = await remote.commitChange(made);
      await remote.push(commit);
      return commit;
    },
    extra,
  );

const failure = (call: Promise<unknown>) => remoteFailure(call, logged);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'git-push-test-repos-'));
  workDir = mkdtempSync(join(tmpdir(), 'git-push-test-work-'));
  server = await startGitServer({ root });
  guarded = await startGitServer({ root, requireHeader: { name: TOKEN_HEADER, value: SECRET } });
  front = await startVanishingRemote(server.url);
});

afterAll(async () => {
  await Promise.all([server?.close(), guarded?.close(), front?.close()]);
  rmSync(root, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
});

afterEach(() => {
  front.answerPushes(undefined);
  // The throwaway repository is gone after every push, whether it went through or not.
  expect(readdirSync(workDir)).toEqual([]);
});

describe('a push', () => {
  it('commits the files that change on top of the branch, keeping every other file, and the git CLI reads it back', async () => {
    const name = await repository({ 'rules/a.json': '{"a":1}\n', 'rules/gone.json': '{}\n', 'docs/deep/notes.md': 'notes\n', 'README.md': '# Rules\n' });
    const before = git(name, 'rev-parse', 'main');
    const made = change({
      writes: [
        { path: 'rules/a.json', content: Buffer.from('{"a":2}\n') },
        { path: 'workflows/new/flow.json', content: Buffer.from('{"flow":1}\n') },
      ],
      deletions: ['rules/gone.json'],
    });
    const commit = await onBranch(`${server.url}/${name}`, 'main', async (remote) => {
      expect(remote.commit).toBe(before);
      expect(remote.base).toBeUndefined();
      expect(remote.files.map((file) => file.path)).toEqual(['README.md', 'docs/deep/notes.md', 'rules/a.json', 'rules/gone.json']);
      const made_ = await remote.commitChange(made);
      await remote.push(made_);
      return made_;
    });
    expect(git(name, 'rev-parse', 'main')).toBe(commit);
    expect(git(name, 'rev-parse', 'main^')).toBe(before);
    expect(git(name, 'ls-tree', '-r', '--name-only', 'main').split('\n')).toEqual([
      'README.md',
      'docs/deep/notes.md',
      'rules/a.json',
      'workflows/new/flow.json',
    ]);
    expect(git(name, 'show', 'main:rules/a.json')).toBe('{"a":2}');
    expect(git(name, 'show', 'main:README.md')).toBe('# Rules');
    expect(git(name, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%B', 'main')).toBe(
      'alice <noreply+key_1@rules-service.invalid>|Rules service <noreply@rules-service.invalid>|Push main from the rules service: 1 rule updated (a); by alice',
    );
    // A well-formed history: git finds nothing wrong with what was pushed.
    expect(() => git(name, 'fsck', '--strict')).not.toThrow();
  });

  it('leaves the modes of the entries it does not write: executables, links, submodules', async () => {
    const name = await repository();
    const parent = git(name, 'rev-parse', 'main');
    const stream = [
      'commit refs/heads/main',
      'committer Test <test@example.invalid> 1704067200 +0000',
      'data 5',
      'modes',
      `from ${parent}`,
      'M 100755 inline tools/run.sh',
      'data 10',
      'echo hello',
      'M 120000 inline rules/link.json',
      'data 6',
      'a.json',
      `M 160000 ${'1'.repeat(40)} vendor/lib`,
      '',
      'done',
      '',
    ].join('\n');
    expect(spawnSync('git', ['--git-dir', join(root, name), 'fast-import', '--quiet', '--done'], { input: stream }).status).toBe(0);
    const tree = (ref: string) => git(name, 'ls-tree', '-r', ref).replace(/ [0-9a-f]{40}\t/g, ' ');
    await pushChange(`${server.url}/${name}`, 'main');
    // Every entry as it was, but the content of the one written.
    expect(tree('main')).toBe(tree('main^'));
    expect(tree('main')).toMatch(/^100755 blob tools\/run\.sh$/m);
    expect(tree('main')).toMatch(/^120000 blob rules\/link\.json$/m);
    expect(tree('main')).toMatch(/^160000 commit vendor\/lib$/m);
    expect(git(name, 'diff', '--name-only', 'main^', 'main')).toBe('rules/a.json');
  });

  it('creates a branch the remote does not have from its default branch, and a first commit in an empty repository', async () => {
    const name = await repository();
    const main = git(name, 'rev-parse', 'main');
    const commit = await onBranch(`${server.url}/${name}`, 'feature', async (remote) => {
      expect(remote).toMatchObject({ commit: undefined, base: main });
      expect(remote.files.map((file) => file.path)).toEqual(['README.md', 'rules/a.json']);
      const made = await remote.commitChange(change());
      await remote.push(made);
      return made;
    });
    expect(git(name, 'rev-parse', 'feature')).toBe(commit);
    expect(git(name, 'rev-parse', 'feature^')).toBe(main);
    expect(git(name, 'show', 'feature:README.md')).toBe('# Rules');

    const empty = `r${++repositories}.git`;
    await createRepository(root, empty, {});
    const first = await onBranch(`${server.url}/${empty}`, 'main', async (remote) => {
      expect(remote).toMatchObject({ commit: undefined, base: undefined, files: [] });
      const made = await remote.commitChange(change());
      await remote.push(made);
      return made;
    });
    expect(git(empty, 'rev-list', 'main')).toBe(first);
    expect(git(empty, 'ls-tree', '-r', '--name-only', 'main')).toBe('rules/a.json');
  });

  it('removes a folder its deletions leave empty', async () => {
    const name = await repository({ 'rules/only.json': '{}\n', 'README.md': '# Rules\n' });
    await pushChange(`${server.url}/${name}`, 'main', change({ writes: [], deletions: ['rules/only.json'] }));
    expect(git(name, 'ls-tree', '--name-only', 'main')).toBe('README.md');
  });
});

describe('never forced', () => {
  it('refuses when the branch moved between the fetch and the push, naming both commits; the remote keeps the other commit', async () => {
    const name = await repository();
    const fetched = git(name, 'rev-parse', 'main');
    let theirs = '';
    const error = await failure(
      onBranch(`${server.url}/${name}`, 'main', async (remote) => {
        const commit = await remote.commitChange(change());
        theirs = await commitFiles(root, name, 'main', { 'rules/theirs.json': '{}\n' });
        await remote.push(commit);
      }),
    );
    expect(error).toMatchObject({ failure: 'remote_moved', transient: false });
    expect(error.message).toBe(`The remote's main moved from ${fetched} to ${theirs} while this push was being sent; pull first, then push again.`);
    expect(git(name, 'rev-parse', 'main')).toBe(theirs);
  });

  it('refuses when the host itself refuses the update (a push came in after the ref discovery)', async () => {
    const name = await repository();
    const fetched = git(name, 'rev-parse', 'main');
    let theirs = '';
    // In front of the server: a push lands on the repository between the push's ref discovery and its pack.
    const racing = http.createServer(async (request, response) => {
      if (request.method === 'POST' && request.url?.endsWith('/git-receive-pack'))
        theirs = await commitFiles(root, name, 'main', { 'rules/theirs.json': '{}\n' });
      const upstream = http.request(`${server.url}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => racing.listen(0, '127.0.0.1', resolve));
    try {
      const error = await failure(pushChange(`http://127.0.0.1:${(racing.address() as AddressInfo).port}/${name}`, 'main'));
      expect(error).toMatchObject({ failure: 'remote_moved', transient: false });
      expect(error.message).toMatch(
        new RegExp(
          `^The remote's main moved from ${fetched} \\(the Git host refused to update it: .+\\) while this push was being sent; pull first, then push again\\.$`,
        ),
      );
      expect(git(name, 'rev-parse', 'main')).toBe(theirs);
    } finally {
      racing.closeAllConnections();
      await new Promise((resolve) => racing.close(resolve));
    }
  });

  it('refuses a branch created by someone else while this push was creating it', async () => {
    const name = await repository();
    const error = await failure(
      onBranch(`${server.url}/${name}`, 'feature', async (remote) => {
        const commit = await remote.commitChange(change());
        await commitFiles(root, name, 'feature', { 'rules/theirs.json': '{}\n' });
        await remote.push(commit);
      }),
    );
    expect(error).toMatchObject({ failure: 'remote_moved' });
    expect(error.message).toMatch(/^The remote's feature was created to [0-9a-f]{40} while this push was being sent; pull first/);
  });
});

describe('credentials', () => {
  const credential: OutboundCredential = { key: TOKEN_HEADER, value: SECRET, placement: 'header', allowedHosts: ['127.0.0.1'] };

  it('sends the credential to the host, and is refused without it, as a push needs', async () => {
    const name = await repository();
    const url = `${guarded.url}/${name}`;
    const commit = await pushChange(url, 'main', change(), { credential });
    expect(git(name, 'rev-parse', 'main')).toBe(commit);
    const refused = await failure(pushChange(url, 'main'));
    expect(refused).toMatchObject({ failure: 'authentication_refused', transient: false, status: 401 });
    expect(refused.message).toContain('add a credential that can read the repository');
  });

  it('never follows a redirect of the push to another host with the credential', async () => {
    const name = await repository();
    const elsewhere = await startProvider((_request, response) => response.writeHead(404).end());
    // A host that serves fetches and sends pushes elsewhere.
    const redirecting = http.createServer((request, response) => {
      if (request.url?.includes('git-receive-pack')) return void response.writeHead(302, { Location: `${elsewhere.origin}${request.url}` }).end();
      const upstream = http.request(`${server.url}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
    try {
      const error = await failure(pushChange(`http://${host}/${name}`, 'main', change(), { credential: { ...credential, allowedHosts: [host] } }));
      expect(error.transient).toBe(false);
      for (const seen of elsewhere.requests) expect(JSON.stringify(seen.rawHeaders)).not.toContain(SECRET);
    } finally {
      redirecting.closeAllConnections();
      await new Promise((resolve) => redirecting.close(resolve));
      await elsewhere.close();
    }
  });
});

describe('a host that misbehaves when pushed to', () => {
  /** Tight bounds, so that each misbehaviour fails in well under a second. */
  const tight = { idleTimeoutMs: 300, totalTimeoutMs: 3000, minBytesPerSecond: 1024 };

  it.each([
    ['silent', hostileGitAnswers.silent],
    ['trickling', hostileGitAnswers.trickling],
    ['stalled mid-answer', hostileGitAnswers['stalled-mid-answer']],
    ['unavailable (503)', hostileGitAnswers.unavailable],
  ])('%s: unreachable, worth another try, within the bounds; the branch as it was', async (_how, answer) => {
    const name = await repository();
    const before = git(name, 'rev-parse', 'main');
    front.answerPushes(answer);
    const started = Date.now();
    const error = await failure(pushChange(`${front.url}/${name}`, 'main', change(), { outbound: tight }));
    expect(error).toMatchObject({ failure: 'unreachable', transient: true });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(git(name, 'rev-parse', 'main')).toBe(before);
  });

  it('refusing (403): a credential that may not push, not worth another try', async () => {
    const name = await repository();
    front.answerPushes((_request, response) => response.writeHead(403).end('read only'));
    const error = await failure(pushChange(`${front.url}/${name}`, 'main'));
    expect(error).toMatchObject({ failure: 'authentication_refused', transient: false, status: 403 });
    expect(error.message).toContain('pushing needs a credential that can push to it');
  });

  it('refusing the update (a hook declining it): push_refused, with the reason', async () => {
    const name = await repository();
    const hook = join(root, name, 'hooks', 'pre-receive');
    spawnSync('sh', ['-c', `printf '#!/bin/sh\\necho "protected branch"\\nexit 1\\n' > ${hook} && chmod +x ${hook}`]);
    const error = await failure(pushChange(`${server.url}/${name}`, 'main'));
    expect(error).toMatchObject({ failure: 'push_refused', transient: false });
    expect(error.message).toMatch(/^The Git host refused the push to branch "main" of .*: pre-receive hook declined\.$/);
  });

  it('cutting the answer to the pack half way: worth another try, though the host took the commit', async () => {
    const name = await repository();
    front.cutPacks(1, 'git-receive-pack');
    let sent = '';
    const error = await failure(
      onBranch(`${front.url}/${name}`, 'main', async (remote) => {
        sent = await remote.commitChange(change());
        await remote.push(sent);
      }),
    );
    expect(error).toMatchObject({ failure: 'unreachable', transient: true });
    // What the next try of a push task finds: the remote at its commit (lib/remote/push-run.ts).
    expect(git(name, 'rev-parse', 'main')).toBe(sent);
  });
});

describe('secrets', () => {
  it('no error message or log line of this file holds the credential', () => {
    expect(logged.length).toBeGreaterThan(20);
    for (const line of logged) expect(line).not.toContain(SECRET);
  });
});
