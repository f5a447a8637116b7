/**
 * fetchBranch against a real smart-HTTP Git server (git http-backend behind
 * lib/local/git-server.ts) on loopback, through the outbound client.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, createRepository, startGitServer, type GitServer } from '../../lib/local/git-server.ts';
import type { OutboundCredential, OutboundOptions } from '../../lib/outbound/index.ts';
import { fetchBranch, withHeadAdvertised, type FetchBranchOptions, type RemoteSnapshot } from '../../lib/remote/git-remote.ts';
import { loopbackOutbound, remoteFailure } from '../helpers/pull.ts';
import { validateRemoteUrl } from '../../lib/remote/remote-url.ts';
import { closedPort, startProvider, type Provider } from '../outbound/servers.ts';

const SECRET = 'glpat-S3cret_value+/=x';
const TOKEN_HEADER = 'PRIVATE-TOKEN';
const credential: OutboundCredential = { key: TOKEN_HEADER, value: SECRET, placement: 'header', allowedHosts: ['127.0.0.1'] };

const BINARY = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const MAIN = {
  'rules/discount.json': '{"name":"discount","when":"total > 100"}\n',
  'rules/vip/gold.json': '{"name":"gold"}\n',
  'workflows/checkout.json': '{"steps":[]}\n',
  'docs/README.md': '# Rules\n',
  'assets/logo.bin': BINARY,
};
const STAGING = { 'rules/discount.json': '{"name":"discount","when":"total > 50"}\n' };

let root: string;
let workDir: string;
let server: GitServer;
let guarded: GitServer;
let commits: Record<string, string>;
/** Every outbound and fetch log line of the file, and every error message: checked for the secret at the end. */
const logged: string[] = [];

const outbound = (extra: OutboundOptions = {}) => loopbackOutbound(logged, extra);

function fetchFrom(url: string, branch: string, options: Partial<FetchBranchOptions> = {}): Promise<RemoteSnapshot> {
  return fetchBranch({ url, branch, workDir, ...options, outbound: outbound(options.outbound) });
}

const failure = (call: Promise<unknown>) => remoteFailure(call, logged);

function asText(snapshot: RemoteSnapshot): Record<string, string> {
  return Object.fromEntries(snapshot.files.map((file) => [file.path, file.content.toString('latin1')]));
}

function expected(files: Record<string, string | Buffer>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([path, content]) => [path, Buffer.from(content).toString('latin1')]));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'git-remote-test-repos-'));
  workDir = mkdtempSync(join(tmpdir(), 'git-remote-test-work-'));
  commits = await createRepository(root, 'rules.git', { main: MAIN, staging: STAGING });
  await createRepository(root, 'changing.git', { main: { 'rules/a.json': '1', 'rules/b.json': '2' } });
  await createRepository(root, 'headless.git', { feature: { 'rules/f.json': '{}' } }, { head: 'gone' });
  await createRepository(root, 'empty.git', {});
  server = await startGitServer({ root });
  guarded = await startGitServer({ root, requireHeader: { name: TOKEN_HEADER, value: SECRET } });
});

afterAll(async () => {
  await Promise.all([server?.close(), guarded?.close()]);
  rmSync(root, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
});

afterEach(() => {
  // The throwaway repository is gone after every fetch, whether it succeeded or not.
  expect(readdirSync(workDir)).toEqual([]);
});

describe('fetchBranch', () => {
  it("returns exactly the branch's files and its commit id", async () => {
    const snapshot = await fetchFrom(`${server.url}/rules.git`, 'main');
    expect(snapshot.commit).toBe(commits.main);
    expect(asText(snapshot)).toEqual(expected(MAIN));
    expect(snapshot.files.map((file) => file.path)).toEqual(Object.keys(MAIN).sort());
    expect(snapshot.files.find((file) => file.path === 'assets/logo.bin')?.content.equals(BINARY)).toBe(true);
  });

  it('reads each branch of one repository separately', async () => {
    const staging = await fetchFrom(`${server.url}/rules.git/`, 'staging'); // a trailing slash is fine
    expect(staging.commit).toBe(commits.staging);
    expect(asText(staging)).toEqual(expected(STAGING));
  });

  it('sees a new commit (added, modified, deleted files) on the next fetch', async () => {
    const url = `${server.url}/changing.git`;
    const before = await fetchFrom(url, 'main');
    const commit = await commitFiles(root, 'changing.git', 'main', { 'rules/a.json': '1 changed', 'workflows/w.json': '{}' }, ['rules/b.json']);
    const after = await fetchFrom(url, 'main');
    expect(after.commit).toBe(commit);
    expect(after.commit).not.toBe(before.commit);
    expect(asText(after)).toEqual({ 'rules/a.json': '1 changed', 'workflows/w.json': '{}' });
  });

  it("fetches the named branch even when the remote's HEAD names a branch that does not exist", async () => {
    const snapshot = await fetchFrom(`${server.url}/headless.git`, 'feature');
    expect(asText(snapshot)).toEqual({ 'rules/f.json': '{}' });
  });

  it('follows a same-origin redirect of a renamed repository for the pack request too', async () => {
    // A front that moved old.git to rules.git: it redirects discovery and refuses the pack request at the old path.
    const front = http.createServer((request, response) => {
      const path = request.url ?? '/';
      if (path.startsWith('/old.git/info/refs')) return void response.writeHead(301, { Location: path.replace('/old.git/', '/rules.git/') }).end();
      if (path.startsWith('/old.git/')) return void response.writeHead(404).end();
      const upstream = http.request(`${server.url}${path}`, { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const snapshot = await fetchFrom(`http://127.0.0.1:${(front.address() as AddressInfo).port}/old.git`, 'main');
      expect(snapshot.commit).toBe(commits.main);
    } finally {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });
});

describe('credentials', () => {
  it('passes with the right header credential', async () => {
    const snapshot = await fetchFrom(`${guarded.url}/rules.git`, 'main', { credential });
    expect(snapshot.commit).toBe(commits.main);
  });

  it('is refused without a credential, with a wrong value, or under another header name: not transient', async () => {
    const url = `${guarded.url}/rules.git`;
    for (const attempt of [undefined, { ...credential, value: `${SECRET}-wrong` }, { ...credential, key: 'Authorization', value: `Bearer ${SECRET}` }]) {
      const error = await failure(fetchFrom(url, 'main', { credential: attempt }));
      expect(error.failure).toBe('authentication_refused');
      expect(error.transient).toBe(false);
      expect(error.status).toBe(401);
      expect(error.message).toContain('401');
      expect(error.message).toContain(url);
    }
  });

  it('reports a 403 as a credential without permission', async () => {
    const provider = await startProvider((_request, response) => response.writeHead(403).end('forbidden'));
    try {
      const error = await failure(fetchFrom(`${provider.origin}/rules.git`, 'main', { credential }));
      expect(error).toMatchObject({ failure: 'authentication_refused', transient: false, status: 403 });
      expect(error.message).toContain('lacks permission');
      expect(provider.header(0, TOKEN_HEADER)).toBe(SECRET); // placed by the outbound client
    } finally {
      await provider.close();
    }
  });
});

describe('failures', () => {
  it('repository not found', async () => {
    const error = await failure(fetchFrom(`${server.url}/missing.git`, 'main', { credential }));
    expect(error).toMatchObject({ failure: 'repository_not_found', transient: false, status: 404 });
    expect(error.message).toContain(`${server.url}/missing.git`);
  });

  it('branch not found on the remote, and an empty repository', async () => {
    const error = await failure(fetchFrom(`${server.url}/rules.git`, 'release'));
    expect(error).toMatchObject({ failure: 'branch_not_found', transient: false });
    expect(error.message).toContain('no branch "release"');
    const empty = await failure(fetchFrom(`${server.url}/empty.git`, 'main'));
    expect(empty).toMatchObject({ failure: 'branch_not_found', transient: false });
    expect(empty.message).toContain('empty');
    expect((await failure(fetchFrom(`${server.url}/rules.git`, 'bad..name'))).failure).toBe('branch_not_found');
  });

  it('unreachable: nothing listening is transient', async () => {
    const port = await closedPort();
    const error = await failure(fetchFrom(`http://127.0.0.1:${port}/rules.git`, 'main', { credential }));
    expect(error).toMatchObject({ failure: 'unreachable', transient: true });
    expect(error.message).toContain('refused');
  });

  it("the host's 5xx and throttling are transient; a web page is not a repository", async () => {
    let status = 503;
    const provider: Provider = await startProvider((_request, response) =>
      status === 200 ? response.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>hello</html>') : response.writeHead(status).end(),
    );
    try {
      for (status of [503, 429]) {
        const error = await failure(fetchFrom(`${provider.origin}/rules.git`, 'main'));
        expect(error).toMatchObject({ failure: 'unreachable', transient: true, status });
      }
      status = 200;
      const error = await failure(fetchFrom(`${provider.origin}/rules.git`, 'main'));
      expect(error).toMatchObject({ failure: 'repository_not_found', transient: false });
    } finally {
      await provider.close();
    }
  });

  it('a private address is refused when private networks are not allowed: invalid_remote, not transient', async () => {
    const error = await failure(fetchFrom(`${server.url}/rules.git`, 'main', { outbound: { allowPrivateNetworks: false } }));
    expect(error).toMatchObject({ failure: 'invalid_remote', transient: false });
    expect(error.message).toContain('Refused to call');
  });

  it('too large: the download, the number of files, the total size', async () => {
    const url = `${server.url}/rules.git`;
    expect(await failure(fetchFrom(url, 'main', { outbound: { maxResponseBytes: 300 } }))).toMatchObject({ failure: 'too_large', transient: false });
    expect(await failure(fetchFrom(url, 'main', { maxFiles: 4 }))).toMatchObject({ failure: 'too_large', transient: false });
    const bytes = await failure(fetchFrom(url, 'main', { maxTotalBytes: 100 }));
    expect(bytes).toMatchObject({ failure: 'too_large', transient: false });
  });
});

describe('remote URLs', () => {
  it('accepts plain clone URLs', () => {
    for (const url of ['https://github.com/owner/repo.git', 'https://gitlab.example.com/group/sub/repo', 'http://127.0.0.1:9418/rules.git'])
      expect(validateRemoteUrl(url)).toBeUndefined();
  });

  it('refuses a secret in the URL, without repeating it', async () => {
    for (const url of [
      `https://oauth2:${SECRET}@gitlab.com/group/repo.git`,
      `https://${SECRET}@github.com/owner/repo.git`,
      `https://github.com/owner/repo.git?access_token=${SECRET}`,
      `https://example.com/repo.git?private-token=${SECRET}`,
    ]) {
      const problem = validateRemoteUrl(url);
      expect(problem).toContain('No secret in the URL is accepted');
      expect(problem?.toLowerCase()).not.toContain(SECRET.toLowerCase());
      const error = await failure(fetchFrom(url, 'main'));
      expect(error).toMatchObject({ failure: 'invalid_remote', transient: false });
      expect(`${error.message} ${error.url}`.toLowerCase()).not.toContain(SECRET.toLowerCase());
    }
  });

  it('refuses cloud metadata and link-local hosts in every encoding, and metadata names, as a pull would, in its words', () => {
    for (const [url, subject] of [
      ['http://169.254.169.254/latest/meta-data.git', '169.254.169.254'],
      ['http://0xA9FEA9FE/repo.git', '169.254.169.254'],
      ['http://2852039166/repo.git', '169.254.169.254'],
      ['http://0251.0376.0251.0376/repo.git', '169.254.169.254'],
      ['http://169.254.1.2:8080/repo.git', '169.254.1.2'],
      ['http://[::ffff:a9fe:a9fe]/repo.git', '::ffff:a9fe:a9fe'],
      ['http://[fe80::1]/repo.git', 'fe80::1'],
      ['http://[fd00:ec2::254]/repo.git', 'fd00:ec2::254'],
      ['http://metadata.google.internal/computeMetadata/v1.git', 'metadata.google.internal'],
      ['https://METADATA.Google.Internal./repo.git', 'metadata.google.internal'],
      ['http://instance-data/repo.git', 'instance-data'],
    ]) {
      const problem = validateRemoteUrl(url!);
      expect(problem, url).toMatch(
        new RegExp(`^Refused to call .*: ${subject!.replace(/[.[\]]/g, '\\$&')} is .*; outbound calls may only go to public internet addresses\\.$`),
      );
    }
    // Private networks are the pull's to refuse or allow (the local runtime's demo remote is on loopback).
    expect(validateRemoteUrl('http://10.0.0.5/repo.git')).toBeUndefined();
    expect(validateRemoteUrl('https://metadata.example.com/repo.git')).toBeUndefined();
  });

  it('refuses what is not an HTTPS clone URL', () => {
    expect(validateRemoteUrl('git@github.com:owner/repo.git')).toContain('SSH');
    expect(validateRemoteUrl('ssh://git@github.com/owner/repo.git')).toContain('not an https:// URL');
    expect(validateRemoteUrl('github.com/owner/repo')).toContain('not a valid URL');
    expect(validateRemoteUrl('https://github.com/owner/repo.git?ref=main')).toContain('query string');
    expect(validateRemoteUrl('https://github.com/owner/repo.git#main')).toContain('fragment');
    expect(validateRemoteUrl('https://github.com/')).toContain('names no repository');
  });
});

describe('ref advertisement without HEAD', () => {
  const pkt = (text: string) => `${(text.length + 4).toString(16).padStart(4, '0')}${text}`;
  const oid = 'a'.repeat(40);

  it('gets a HEAD line for the fetched ref after the first (capabilities) line', () => {
    const body = Buffer.from(
      `${pkt('# service=git-upload-pack\n')}0000${pkt(`${'b'.repeat(40)} refs/heads/a\0shallow\n`)}${pkt(`${oid} refs/heads/main\n`)}0000`,
    );
    const patched = withHeadAdvertised(body, 'refs/heads/main').toString();
    expect(patched).toBe(
      `${pkt('# service=git-upload-pack\n')}0000${pkt(`${'b'.repeat(40)} refs/heads/a\0shallow\n`)}${pkt(`${oid} HEAD\n`)}${pkt(`${oid} refs/heads/main\n`)}0000`,
    );
  });

  it('is left alone when HEAD is there, the ref is absent, or the body is not pkt-lines', () => {
    const withHead = Buffer.from(`${pkt(`${oid} HEAD\0shallow\n`)}${pkt(`${oid} refs/heads/main\n`)}0000`);
    expect(withHeadAdvertised(withHead, 'refs/heads/main')).toBe(withHead);
    const other = Buffer.from(`${pkt(`${oid} refs/heads/other\0shallow\n`)}0000`);
    expect(withHeadAdvertised(other, 'refs/heads/main')).toBe(other);
    const html = Buffer.from('<html></html>');
    expect(withHeadAdvertised(html, 'refs/heads/main')).toBe(html);
  });
});

describe('secrets', () => {
  it('no error message or log line of this file holds the credential', () => {
    expect(logged.length).toBeGreaterThan(20);
    for (const line of logged) expect(line.toLowerCase()).not.toContain(SECRET.toLowerCase());
  });
});
