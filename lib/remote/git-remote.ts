/**
 * Reads one branch of a Git repository over HTTPS (the smart HTTP protocol)
 * for remote pull: the branch's commit id and every file in its tree; and the
 * parts a push shares with it (./git-push.ts): the connection, the throwaway
 * repository, the shallow fetch, the failures in the user's words.
 *
 * isomorphic-git (pure JavaScript, so it runs in Lambda without a git
 * binary) speaks the protocol; every HTTP request it makes goes through the
 * project's outbound client, which places the credential, refuses internal
 * addresses, bounds time and size, and redacts. The fetch is shallow (depth
 * 1, that branch only, no tags) into a throwaway bare repository under the
 * temp folder (Lambda's /tmp), removed afterwards; the tree is read from the
 * object store directly, without a checkout.
 *
 * The named ref is fetched rather than cloned, so a remote whose HEAD names a
 * branch that does not exist still serves its other branches.
 */
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { logger } from '../logging/logger.ts';
import { isValidBranchName } from '../vocabulary/branch-name.ts';
import { showUrl, UNPARSED, validateRemoteUrl } from './remote-url.ts';
import {
  createOutboundClient,
  describeProviderStatus,
  OutboundError,
  type OutboundCredential,
  type OutboundMethod,
  type OutboundOptions,
} from '../outbound/index.ts';

export interface RemoteFile {
  /** Relative to the repository root, `/`-separated: `rules/discount.json`. */
  path: string;
  content: Buffer;
}

export interface RemoteSnapshot {
  /** The commit id (40 hex digits) the branch pointed at. */
  commit: string;
  /** Every file (blob) in the tree at that commit, sorted by path. Submodules are not files and are left out. */
  files: RemoteFile[];
}

export type RemoteFailure =
  | 'repository_not_found'
  | 'branch_not_found'
  | 'authentication_refused'
  | 'unreachable'
  | 'invalid_remote'
  | 'too_large'
  /** A push's: the remote's branch is no longer where the push builds on. */
  | 'remote_moved'
  /** A push's: the host refused the update for another reason (a protected branch, a hook). */
  | 'push_refused';

/**
 * Why a fetch or a push failed. The message is for the user: plain, actionable, with
 * the redacted URL only and never the credential; no underlying error is
 * kept as `cause`, so logging this error cannot log what that carried.
 */
export class RemoteError extends Error {
  override readonly name = 'RemoteError';

  constructor(
    readonly failure: RemoteFailure,
    message: string,
    /** Worth retrying later: network failures, timeouts, throttling, the host's 5xx. */
    readonly transient: boolean,
    /** The repository URL, redacted. */
    readonly url: string,
    /** The Git host's HTTP status, when the failure was an answer. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface FetchBranchOptions {
  /** The repository's HTTPS clone URL; see validateRemoteUrl. */
  url: string;
  /** The remote branch to read (workspace branch X pulls the remote's branch X). */
  branch: string;
  /** Placed by the outbound client; Git hosts take a header (`Authorization: Bearer …`, `PRIVATE-TOKEN: …`). */
  credential?: OutboundCredential;
  /** Outbound client options; the size and time defaults here suit pack files (64 MiB, 60 s per request). */
  outbound?: OutboundOptions;
  /** Parent folder of the throwaway repository. Default: os.tmpdir(). */
  workDir?: string;
  /** Past either limit the fetch fails with too_large. Defaults: 20,000 files, 128 MiB of file content. */
  maxFiles?: number;
  maxTotalBytes?: number;
}

const MiB = 1024 * 1024;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * MiB;
const DEFAULT_TOTAL_TIMEOUT_MS = 60_000;
/** A Git host that does not connect, or goes silent, within seconds fails the pull then, rather than holding a worker until the whole call's bound. */
const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;
const DEFAULT_IDLE_TIMEOUT_MS = 5_000;
/** A host that trickles its answer is as stalled as a silent one: 16 KiB/s, measured over each 5 s, or the fetch fails. */
const DEFAULT_MIN_BYTES_PER_SECOND = 16 * 1024;
const DEFAULT_MAX_FILES = 20_000;
const DEFAULT_MAX_TOTAL_BYTES = 128 * MiB;
/** The ref discovery of either service: fetching (upload-pack) or pushing (receive-pack). */
const DISCOVERY = /\/info\/refs\?service=git-(upload|receive)-pack$/;

/** What a Git exchange needs of the credential: to read the repository (fetch) or to write to it (push). */
export type RepositoryAccess = 'read' | 'write';

/** One remote repository as fetchBranch and pushing (./git-push.ts) reach it: its URL, the HTTP plugin over the outbound client, and failures in the user's words. */
export interface RemoteRepository {
  /** As given, without trailing slashes. */
  url: string;
  /** Redacted, for messages and logs. */
  shown: string;
  branch: string;
  http: HttpClient;
  log: (message: string, fields: Record<string, unknown>) => void;
  fail(failure: RemoteFailure, message: string, transient?: boolean, status?: number): RemoteError;
  /** Whatever a Git exchange threw, as a RemoteError with a plain message. */
  failure(error: unknown, access: RepositoryAccess): RemoteError;
  maxFiles: number;
  maxTotalBytes: number;
}

/** The throwaway bare repository an exchange works in, with the object cache its reads share. */
export interface LocalRepository {
  gitdir: string;
  cache: object;
}

/** Checks the URL and the branch name, and sets up the HTTP plugin; throws RemoteError. */
export function remoteRepository(options: FetchBranchOptions): RemoteRepository {
  const { branch, credential } = options;
  const url = options.url.trim().replace(/\/+$/, '');
  const shown = showUrl(url);
  const scrub = (text: string) => (credential?.value ? text.split(credential.value).join('[REDACTED]') : text);
  const fail = (failure: RemoteFailure, message: string, transient = false, status?: number) =>
    new RemoteError(failure, scrub(message), transient, shown, status);

  const problem = validateRemoteUrl(url);
  if (problem) throw new RemoteError('invalid_remote', problem, false, UNPARSED); // a refused URL may hold a secret: not even its redaction is kept
  if (!isValidBranchName(branch)) throw fail('branch_not_found', `${JSON.stringify(branch)} is not a valid Git branch name.`);

  const outbound = { ...options.outbound };
  const log = outbound.log ?? ((message: string, fields: Record<string, unknown>) => logger.info(message, fields));
  const maxResponseBytes = outbound.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const remoteRef = `refs/heads/${branch}`;
  const http = outboundHttp(
    createOutboundClient({
      maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
      totalTimeoutMs: DEFAULT_TOTAL_TIMEOUT_MS,
      connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
      idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
      minBytesPerSecond: DEFAULT_MIN_BYTES_PER_SECOND,
      ...outbound,
      log,
    }),
    credential,
    remoteRef,
  );
  return {
    url,
    shown,
    branch,
    http,
    log,
    fail,
    failure: (error, access) => exchangeFailure(error, { shown, branch, credential, maxResponseBytes, access, fail }),
    maxFiles: options.maxFiles ?? DEFAULT_MAX_FILES,
    maxTotalBytes: options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES,
  };
}

/** Runs `work` in a throwaway bare repository (under `workDir`, default the temp folder: Lambda's /tmp) whose "origin" is the remote; removed afterwards. */
export async function inThrowawayRepository<T>(
  remote: RemoteRepository,
  workDir: string | undefined,
  work: (local: LocalRepository) => Promise<T>,
): Promise<T> {
  const gitdir = await mkdtemp(join(workDir ?? tmpdir(), 'git-remote-'));
  try {
    await git.init({ fs, gitdir, bare: true, defaultBranch: remote.branch });
    await git.addRemote({ fs, gitdir, remote: 'origin', url: remote.url }); // fetch writes refs/remotes/origin/<branch> by its refspec
    return await work({ gitdir, cache: {} });
  } finally {
    await rm(gitdir, { recursive: true, force: true });
  }
}

/**
 * Fetches `ref` (the branch, or HEAD: the remote's default branch) shallowly
 * into the throwaway repository, and returns its commit id. Throws
 * RemoteError: branch_not_found when the remote has no such ref, or no
 * branch at all.
 */
export async function fetchRef(remote: RemoteRepository, local: LocalRepository, ref: string): Promise<string> {
  const remoteRef = ref === 'HEAD' ? ref : `refs/heads/${ref}`;
  try {
    const fetched = await git.fetch({ fs, http: remote.http, ...local, remote: 'origin', ref, remoteRef, singleBranch: true, depth: 1, tags: false });
    if (!fetched.fetchHead)
      throw remote.fail('branch_not_found', `The repository at ${remote.shown} is empty: it has no branches yet. Push a branch "${remote.branch}" to it.`);
    return fetched.fetchHead;
  } catch (error) {
    const { code, data } = (error ?? {}) as { code?: unknown; data?: { what?: unknown } };
    if (code === 'NotFoundError' && (data?.what === remoteRef || data?.what === ref))
      throw remote.fail(
        'branch_not_found',
        `The repository at ${remote.shown} has no branch "${ref}". Workspace branch "${ref}" pulls from the remote's branch of the same name: create it there, or check the spelling.`,
      );
    throw remote.failure(error, 'read');
  }
}

/** Every file of the fetched `commit`, within the remote's limits; throws RemoteError. */
export function filesOf(remote: RemoteRepository, local: LocalRepository, commit: string): Promise<RemoteFile[]> {
  return readFiles(local, commit, {
    maxFiles: remote.maxFiles,
    maxTotalBytes: remote.maxTotalBytes,
    tooLarge: (what) =>
      remote.fail('too_large', `Branch "${remote.branch}" of ${remote.shown} holds ${what}; keep large or generated files out of this repository.`),
  }).catch((error: unknown) => {
    if (error instanceof RemoteError) throw error;
    throw remote.fail(
      'invalid_remote',
      `The commit ${commit} of branch "${remote.branch}" from ${remote.shown} could not be read (${error instanceof Error ? error.message : String(error)}); the Git host sent an incomplete answer.`,
    );
  });
}

/**
 * Fetches `branch` of the repository at `url` (shallow, that branch only)
 * and returns its commit id and every file in its tree. Throws RemoteError.
 */
export async function fetchBranch(options: FetchBranchOptions): Promise<RemoteSnapshot> {
  const started = performance.now();
  const remote = remoteRepository(options);
  return inThrowawayRepository(remote, options.workDir, async (local) => {
    const commit = await fetchRef(remote, local, remote.branch);
    const files = await filesOf(remote, local, commit);
    remote.log('remote fetch', { url: remote.shown, branch: remote.branch, commit, files: files.length, durationMs: Math.round(performance.now() - started) });
    return { commit, files };
  });
}

/**
 * An isomorphic-git HTTP plugin that sends every request through the outbound
 * client. `remoteRef` is the ref being fetched: see withHeadAdvertised.
 */
function outboundHttp(client: ReturnType<typeof createOutboundClient>, credential: OutboundCredential | undefined, remoteRef: string): HttpClient {
  // When the host redirects the ref discovery (a renamed repository), the pack request goes to where
  // discovery ended, as git does; only within the same origin, so the credential never follows elsewhere.
  let rebase: { from: string; to: string } | undefined;
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      let target = request.url;
      if (rebase && target.startsWith(`${rebase.from}/`)) target = rebase.to + target.slice(rebase.from.length);
      const chunks: Uint8Array[] = [];
      if (request.body) for await (const chunk of request.body) chunks.push(chunk);
      const method = (request.method ?? 'GET').toUpperCase() as OutboundMethod;
      const response = await client.send({
        url: target,
        method,
        headers: request.headers ?? {},
        body: chunks.length ? Buffer.concat(chunks) : undefined,
        credential,
      });
      const discovery = method === 'GET' ? DISCOVERY.exec(target) : null;
      if (discovery && response.redirects > 0 && response.url.endsWith(discovery[0]) && credential?.placement !== 'query') {
        const from = target.slice(0, discovery.index);
        const to = response.url.slice(0, -discovery[0].length);
        if (new URL(to).origin === new URL(from).origin) rebase = { from, to };
      }
      const headers: Record<string, string> = Object.create(null); // the provider's names: "__proto__" is one like any other
      for (const [name, value] of Object.entries(response.headers)) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      const body = discovery?.[1] === 'upload' && response.status === 200 ? withHeadAdvertised(response.body, remoteRef) : response.body;
      return {
        url: target,
        method,
        statusCode: response.status,
        statusMessage: describeProviderStatus(response.status),
        headers,
        body: (async function* () {
          yield new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
        })(),
      };
    },
  };
}

/**
 * The ref advertisement (`info/refs`), with a `HEAD` line added when the
 * server sent none: git omits HEAD when it names a branch that does not
 * exist (an emptied default branch), and some servers (Gogs) never send it;
 * isomorphic-git's fetch then fails with "Could not find HEAD." even though
 * an explicit ref was asked for (isomorphic-git issue #1654). The added HEAD
 * points at the ref being fetched, which only affects the remote-tracking
 * HEAD of the throwaway repository. Anything unexpected: the body unchanged.
 */
export function withHeadAdvertised(body: Buffer, remoteRef: string): Buffer {
  const packets: Buffer[] = [];
  for (let at = 0; at < body.length;) {
    const prefix = body.toString('latin1', at, at + 4);
    if (!/^[0-9a-f]{4}$/i.test(prefix)) return body;
    const length = Number.parseInt(prefix, 16);
    const size = length === 0 ? 4 : length;
    if (size < 4 || at + size > body.length) return body;
    packets.push(body.subarray(at, at + size));
    at += size;
  }
  const refs = packets.flatMap((packet, index) => {
    const match = /^([0-9a-f]{40}|[0-9a-f]{64}) ([^\0\n]+)/.exec(packet.toString('latin1', 4));
    return match ? [{ index, oid: match[1] as string, name: match[2] as string }] : [];
  });
  if (refs.length === 0 || refs.some((ref) => ref.name === 'HEAD')) return body;
  const wanted = refs.find((ref) => ref.name === remoteRef);
  if (!wanted) return body; // the fetch reports the missing branch itself
  const line = `${wanted.oid} HEAD\n`;
  const head = Buffer.from(`${(line.length + 4).toString(16).padStart(4, '0')}${line}`, 'latin1');
  const after = (refs[0] as { index: number }).index; // the first ref line carries the capabilities: keep it first
  return Buffer.concat([...packets.slice(0, after + 1), head, ...packets.slice(after + 1)]);
}

interface FailureContext {
  shown: string;
  branch: string;
  credential: OutboundCredential | undefined;
  maxResponseBytes: number;
  access: RepositoryAccess;
  fail: (failure: RemoteFailure, message: string, transient?: boolean, status?: number) => RemoteError;
}

/** Maps whatever a fetch or a push threw to a RemoteError with a plain message. */
function exchangeFailure(error: unknown, context: FailureContext): RemoteError {
  const { shown, branch, credential, maxResponseBytes, access, fail } = context;
  const can = access === 'read' ? 'read' : 'push to';
  if (error instanceof RemoteError) return error;
  if (error instanceof OutboundError) {
    switch (error.failure) {
      case 'blocked_address':
      case 'host_not_allowed':
      case 'invalid_url':
      case 'invalid_request':
      case 'too_many_redirects':
        return fail('invalid_remote', error.message);
      case 'too_large':
        return fail(
          'too_large',
          `The download of branch "${branch}" from ${shown} is larger than the limit of ${Math.round(maxResponseBytes / MiB)} MiB; keep large or generated files out of this repository.`,
        );
      default: // dns, refused, timeout, tls, network
        return fail('unreachable', `Could not reach the Git repository: ${error.message}`, true);
    }
  }
  const code = (error as { code?: unknown } | null)?.code;
  const data = (error as { data?: Record<string, unknown> } | null)?.data ?? {};
  if (code === 'HttpError') {
    const status = Number(data.statusCode);
    if (status === 401)
      return fail(
        'authentication_refused',
        credential
          ? `The Git host refused the credential for ${shown} (HTTP 401: the key is wrong, expired or revoked, or the host expects it under another header name). Check the credential's key and value.`
          : `The Git host requires authentication for ${shown} (HTTP 401); add a credential that can ${can} the repository.`,
        false,
        status,
      );
    if (status === 403)
      return fail(
        'authentication_refused',
        `The Git host refused access to ${shown} (HTTP 403: ${credential ? `the credential is valid but lacks permission to ${can} this repository` : access === 'read' ? 'the repository is not public; add a credential that can read it' : 'pushing needs a credential that can push to it'}).`,
        false,
        status,
      );
    if (status === 404 || status === 410)
      return fail(
        'repository_not_found',
        `No Git repository was found at ${shown} (HTTP ${status}). Check the URL${credential ? '; hosts also answer 404 when the credential cannot see a private repository, so check that it has read access' : '; a private repository needs a credential'}.`,
        false,
        status,
      );
    if (status === 408 || status === 429 || (status >= 500 && status < 600))
      return fail('unreachable', `The Git host at ${shown} did not serve the repository (HTTP ${status}: ${describeProviderStatus(status)}).`, true, status);
    return fail('invalid_remote', `The Git host at ${shown} refused the request (HTTP ${status}: ${describeProviderStatus(status)}).`, false, status);
  }
  if (code === 'SmartHttpError' || code === 'EmptyServerResponseError')
    return fail('repository_not_found', `${shown} answered, but not as a Git repository; give the repository's clone URL (often ending in .git).`);
  if (code === 'RemoteCapabilityError') return fail('invalid_remote', `The Git server at ${shown} does not support shallow fetches, which pull needs.`);
  const message = error instanceof Error ? error.message : String(error);
  return fail(
    'invalid_remote',
    `${access === 'read' ? 'Fetching branch' : 'Pushing to branch'} "${branch}" ${access === 'read' ? 'from' : 'of'} ${shown} failed: the Git host's answer could not be read (${message}).`,
  );
}

/** Every blob in the commit's tree, depth first, read straight from the object store. */
async function readFiles(
  { gitdir, cache }: LocalRepository,
  commit: string,
  limits: { maxFiles: number; maxTotalBytes: number; tooLarge: (what: string) => RemoteError },
): Promise<RemoteFile[]> {
  const files: RemoteFile[] = [];
  let total = 0;
  const visit = async (oid: string, prefix: string): Promise<void> => {
    const { tree } = await git.readTree({ fs, gitdir, oid, cache });
    for (const entry of tree) {
      const path = prefix + entry.path;
      if (entry.type === 'tree') await visit(entry.oid, `${path}/`);
      else if (entry.type === 'blob') {
        if (files.length >= limits.maxFiles) throw limits.tooLarge(`more than ${limits.maxFiles} files`);
        const { blob } = await git.readBlob({ fs, gitdir, oid: entry.oid, cache });
        total += blob.byteLength;
        if (total > limits.maxTotalBytes) throw limits.tooLarge(`more than ${Math.round(limits.maxTotalBytes / MiB)} MiB of files`);
        files.push({ path, content: Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength) });
      }
      // else a submodule (type commit): a link to another repository, not a file
    }
  };
  await visit(commit, '');
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
