/**
 * A real Git server on loopback, for the local runtime's demo repository and
 * for the tests of remote pull and push: `git http-backend` (the smart HTTP
 * protocol of the git CLI) run as a CGI program, one process per request,
 * serving the bare repositories under a root folder, for fetching and for
 * pushing. Plus helpers that build such repositories from maps of files with
 * the git CLI.
 *
 * Pushes are accepted from anyone who reaches it (git's `http.receivepack`,
 * which is off for a request the web server did not authenticate, is set for
 * every served repository): it listens on loopback only, and a test that
 * wants a host that checks a token gives `requireHeader`. Each update names
 * the commit it replaces, and git refuses one whose branch moved since: two
 * pushes at once cannot both win.
 *
 *   const root = mkdtempSync(join(tmpdir(), 'repos-'));
 *   const commits = await createRepository(root, 'rules.git', { main: { 'rules/a.json': '{}' } });
 *   const server = await startGitServer({ root });
 *   // git clone ${server.url}/rules.git; git push
 *   await server.close();
 *
 * Needs `git` on the PATH (its http-backend is part of git-core). Never
 * listens on anything but 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';

export interface GitServerOptions {
  /** Folder holding the bare repositories; `<url>/<name>` serves `<root>/<name>`. */
  root: string;
  /** Default 0: any free port. */
  port?: number;
  /** When set, a request without this header and exactly this value is answered 401 (the way hosts refuse a missing or wrong token). */
  requireHeader?: { name: string; value: string };
}

export interface GitServer {
  /** `http://127.0.0.1:<port>`; a repository's URL is `${url}/${name}`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A file's content: text is written as UTF-8. */
export type FileContent = string | Uint8Array;
/** Path relative to the repository root (`rules/a.json`) → content. */
export type RepositoryFiles = Record<string, FileContent>;

/** Author and committer of every commit made here: fixed, so that the same content gives the same commit ids. */
const IDENTITY = 'Rules Demo <demo@rules.invalid>';
const DATE = '1704067200 +0000'; // 2024-01-01T00:00:00Z

/** The git CLI isolated from the machine's and the user's configuration. */
function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    LANG: 'C',
    ...extra,
  };
}

export async function startGitServer(options: GitServerOptions): Promise<GitServer> {
  const root = resolve(options.root);
  const children = new Set<ReturnType<typeof spawn>>();
  const required = options.requireHeader;

  const server = http.createServer((request, response) => {
    if (required && request.headers[required.name.toLowerCase()] !== required.value) {
      request.resume();
      response.writeHead(401, { 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Basic realm="Git"' });
      response.end(`Authentication required: send the ${required.name} header.\n`);
      return;
    }
    const child = serveCgi(root, request, response);
    if (child) {
      children.add(child);
      child.on('close', () => children.delete(child));
    }
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolveClose) => {
        for (const child of children) child.kill('SIGKILL');
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/** Runs `git http-backend` for one request and relays its CGI response. Returns the process, or undefined when the request was refused. */
function serveCgi(root: string, request: http.IncomingMessage, response: http.ServerResponse): ReturnType<typeof spawn> | undefined {
  const target = new URL(request.url ?? '/', 'http://127.0.0.1');
  let pathInfo: string;
  try {
    pathInfo = decodeURIComponent(target.pathname);
  } catch {
    pathInfo = '';
  }
  // http-backend refuses these itself; checking here keeps the message plain and the process unspawned.
  if (!pathInfo.startsWith('/') || pathInfo.split('/').some((segment) => segment === '..') || pathInfo.includes('\0')) {
    request.resume();
    response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad repository path.\n');
    return undefined;
  }

  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const cgi: Record<string, string> = {
    GATEWAY_INTERFACE: 'CGI/1.1',
    SERVER_PROTOCOL: `HTTP/${request.httpVersion}`,
    SERVER_SOFTWARE: 'rules-service-git-server',
    REMOTE_ADDR: request.socket.remoteAddress ?? '127.0.0.1',
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    // Configuration by environment (git 2.31+), so that every repository under the root takes pushes, however it was made.
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.receivepack',
    GIT_CONFIG_VALUE_0: 'true',
    PATH_INFO: pathInfo,
    QUERY_STRING: target.search.slice(1),
    REQUEST_METHOD: request.method ?? 'GET',
  };
  const optional: Record<string, string | undefined> = {
    CONTENT_TYPE: header('content-type'),
    // Absent for a chunked body: http-backend then reads to the end of its input.
    CONTENT_LENGTH: header('content-length'),
    // http-backend inflates a gzip request body itself when told so.
    HTTP_CONTENT_ENCODING: header('content-encoding'),
    // Protocol v2 negotiation, passed on the way the git docs' web server examples do.
    GIT_PROTOCOL: header('git-protocol'),
  };
  for (const [name, value] of Object.entries(optional)) if (value !== undefined) cgi[name] = value;

  const child = spawn('git', ['http-backend'], { env: gitEnv(cgi), stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr: Buffer[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.on('error', () => {}); // the backend may exit without reading the whole body (e.g. a 404)
  request.pipe(child.stdin);
  response.on('close', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  const fail = (message: string) => {
    if (response.headersSent) response.destroy();
    else response.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${message}\n`);
  };
  child.on('error', (error) => fail(`Could not run git http-backend: ${error.message}`));

  // The CGI response: header lines (`Status: 404 Not Found` among them), a blank line, the body.
  let head = Buffer.alloc(0);
  let relaying = false;
  const readHead = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = headerEnd(head);
    if (!end) return;
    relaying = true;
    child.stdout.off('data', readHead);
    const { status, headers } = parseCgiHeaders(head.subarray(0, end.at).toString('latin1'));
    response.writeHead(status, headers);
    const rest = head.subarray(end.at + end.length);
    if (rest.length) response.write(rest);
    child.stdout.pipe(response);
  };
  child.stdout.on('data', readHead);
  child.on('close', (code) => {
    if (!relaying) fail(`git http-backend exited (${code}) without a response: ${Buffer.concat(stderr).toString().trim()}`);
  });
  return child;
}

function headerEnd(buffer: Buffer): { at: number; length: number } | undefined {
  const crlf = buffer.indexOf('\r\n\r\n');
  const lf = buffer.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf <= lf)) return { at: crlf, length: 4 };
  if (lf >= 0) return { at: lf, length: 2 };
  return undefined;
}

function parseCgiHeaders(text: string): { status: number; headers: Record<string, string | string[]> } {
  let status = 200;
  const headers: Record<string, string | string[]> = Object.create(null);
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') {
      status = Number.parseInt(value, 10) || 500;
      continue;
    }
    const existing = headers[name];
    headers[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return { status, headers };
}

/** Runs git with the isolated environment; resolves with stdout, rejects with stderr. */
function git(args: string[], input?: Buffer): Promise<string> {
  return new Promise((resolveRun, reject) => {
    const child = spawn('git', args, { env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolveRun(Buffer.concat(out).toString());
      else reject(new Error(`git ${args.join(' ')} failed (${code}): ${Buffer.concat(err).toString().trim()}`));
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

function checkPath(path: string): void {
  if (!path || path.startsWith('/') || path.startsWith('"') || /[\n\0]/.test(path) || path.split('/').some((s) => s === '' || s === '.' || s === '..'))
    throw new Error(`${JSON.stringify(path)} is not a valid file path in a repository`);
}

/** A fast-import `data` block: exact byte count, then the bytes. */
function data(content: FileContent): Buffer {
  const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content);
  return Buffer.concat([Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n')]);
}

/** One commit in the fast-import stream. */
function commitCommand(branch: string, message: string, parent: string | undefined, files: RepositoryFiles, deletions: string[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`commit refs/heads/${branch}\nauthor ${IDENTITY} ${DATE}\ncommitter ${IDENTITY} ${DATE}\n`), data(message)];
  if (parent) parts.push(Buffer.from(`from ${parent}\n`));
  for (const path of deletions) {
    checkPath(path);
    parts.push(Buffer.from(`D ${path}\n`));
  }
  for (const [path, content] of Object.entries(files)) {
    checkPath(path);
    parts.push(Buffer.from(`M 100644 inline ${path}\n`), data(content));
  }
  parts.push(Buffer.from('\n'));
  return Buffer.concat(parts);
}

async function fastImport(gitDir: string, commands: Buffer[]): Promise<void> {
  await git(['--git-dir', gitDir, 'fast-import', '--quiet', '--done'], Buffer.concat([...commands, Buffer.from('done\n')]));
}

async function checkBranch(branch: string): Promise<void> {
  await git(['check-ref-format', '--branch', branch]).catch(() => {
    throw new Error(`${JSON.stringify(branch)} is not a valid branch name`);
  });
}

/**
 * Creates the bare repository `<root>/<name>` (it must not exist yet) with one
 * commit per branch holding exactly the given files. HEAD names `head`
 * (default: the first branch), which need not exist. Returns branch → commit id.
 */
export async function createRepository(
  root: string,
  name: string,
  branches: Record<string, RepositoryFiles>,
  options: { head?: string } = {},
): Promise<Record<string, string>> {
  const names = Object.keys(branches);
  for (const branch of names) await checkBranch(branch);
  const head = options.head ?? names[0] ?? 'main';
  await checkBranch(head);
  const gitDir = join(resolve(root), name);
  await mkdir(resolve(root), { recursive: true });
  await mkdir(gitDir); // fails if it exists: never rewrite a repository's history by accident
  await git(['init', '--bare', '--quiet', `--initial-branch=${head}`, gitDir]);
  await fastImport(
    gitDir,
    names.map((branch) => commitCommand(branch, `Files of ${branch}`, undefined, branches[branch] ?? {}, [])),
  );
  return names.length ? branchCommits(gitDir, names) : {};
}

/**
 * Adds one commit to `branch` of the bare repository `<root>/<name>`: the
 * given files written (added or replaced), `deletions` removed. A branch that
 * does not exist yet starts with this commit, without a parent. Returns the
 * new commit id.
 */
export async function commitFiles(
  root: string,
  name: string,
  branch: string,
  files: RepositoryFiles,
  deletions: string[] = [],
  message = `Update ${branch}`,
): Promise<string> {
  await checkBranch(branch);
  const gitDir = join(resolve(root), name);
  const parent = await git(['--git-dir', gitDir, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]).then(
    (out) => out.trim(),
    () => undefined,
  );
  await fastImport(gitDir, [commitCommand(branch, message, parent, files, parent ? deletions : [])]);
  const commits = await branchCommits(gitDir, [branch]);
  return commits[branch] as string;
}

async function branchCommits(gitDir: string, branches: string[]): Promise<Record<string, string>> {
  const out = await git(['--git-dir', gitDir, 'rev-parse', ...branches.map((branch) => `refs/heads/${branch}`)]);
  const ids = out.trim().split('\n');
  return Object.fromEntries(branches.map((branch, i) => [branch, ids[i] as string]));
}
