/**
 * Writes one branch of a Git repository over HTTPS, for remote push. The
 * branch is fetched as a pull fetches it (./git-remote.ts: shallow, into a
 * throwaway bare repository, through the same outbound client, so the
 * credential goes only to the remote's host, internal addresses are refused
 * and time and size are bounded); a commit is written there from the files
 * that change (blobs, the trees along their paths, the commit: no checkout,
 * every other entry of the tree kept as it was, modes, links and submodules
 * included), and sent with git's receive-pack. isomorphic-git pushes on top
 * of the shallow fetch: the pack holds only the objects the commit adds.
 *
 * Never forced: a push sends its commit on condition that the remote's
 * branch is still where it was fetched. When the ref discovery before the
 * pack shows it elsewhere, or the host refuses the update (a push that came
 * in between), it fails with remote_moved, naming the commits.
 *
 * A branch the remote does not have is created from the remote's default
 * branch (HEAD) when there is one, so that the two share history (a merge
 * request between them works), else as a first commit.
 */
import fs from 'node:fs';
import * as git from 'isomorphic-git';
import type { TreeEntry } from 'isomorphic-git';
import {
  fetchRef,
  filesOf,
  inThrowawayRepository,
  RemoteError,
  remoteRepository,
  type FetchBranchOptions,
  type LocalRepository,
  type RemoteFile,
  type RemoteRepository,
} from './git-remote.ts';

export interface GitIdentity {
  name: string;
  email: string;
}

export interface CommitChange {
  /** Files added or replaced, by path from the repository root. */
  writes: { path: string; content: Uint8Array }[];
  deletions: string[];
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
}

/** One branch of the remote, fetched, to push a commit to. */
export interface RemoteBranch {
  /** The branch's commit; undefined when the remote has no such branch yet. */
  commit: string | undefined;
  /** Where a branch to be created starts: the remote's default branch, when it has one. */
  base: string | undefined;
  /** Every file of `commit` (else of `base`), sorted by path. */
  files: RemoteFile[];
  /** Writes a commit of `change` on top of `commit` (else `base`); its id. */
  commitChange(change: CommitChange): Promise<string>;
  /** Sends `commit` to the branch if the remote's branch is still at `commit` (or still absent). Throws RemoteError. */
  push(commit: string): Promise<void>;
}

const noCommit = '0'.repeat(40);

/**
 * Fetches `branch` of the remote (or, when the remote has none, the default
 * branch it will start from) and runs `work` on it; the throwaway
 * repository is removed afterwards. Throws RemoteError.
 */
export async function withRemoteBranch<T>(options: FetchBranchOptions, work: (branch: RemoteBranch) => Promise<T>): Promise<T> {
  const remote = remoteRepository(options);
  return inThrowawayRepository(remote, options.workDir, async (local) => {
    const commit = await fetchRef(remote, local, remote.branch).catch(unlessMissing);
    const base = commit ? undefined : await fetchRef(remote, local, 'HEAD').catch(unlessMissing);
    const start = commit ?? base;
    return work({
      commit,
      base,
      files: start ? await filesOf(remote, local, start) : [],
      commitChange: (change) => writeCommit(remote, local, start, change),
      push: (made) => send(remote, local, commit, made),
    });
  });
}

const unlessMissing = (error: unknown) => {
  if (error instanceof RemoteError && error.failure === 'branch_not_found') return undefined;
  throw error;
};

async function writeCommit(remote: RemoteRepository, local: LocalRepository, parent: string | undefined, change: CommitChange): Promise<string> {
  const { gitdir, cache } = local;
  const edits = new Map<string, string | null>(change.deletions.map((path) => [path, null]));
  for (const file of change.writes) edits.set(file.path, await git.writeBlob({ fs, gitdir, blob: file.content }));
  const root = parent ? (await git.readCommit({ fs, gitdir, cache, oid: parent })).commit.tree : undefined;
  const tree =
    (await editedTree(
      local,
      root,
      [...edits].map(([path, oid]) => ({ segments: path.split('/'), oid })),
    )) ?? (await git.writeTree({ fs, gitdir, tree: [] }));
  const now = { timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  return git.commit({
    fs,
    gitdir,
    cache,
    ref: `refs/heads/${remote.branch}`,
    noUpdateBranch: true, // the branch is pointed at the commit when it is sent
    message: change.message,
    author: { ...change.author, ...now },
    committer: { ...change.committer, ...now },
    tree,
    parent: parent ? [parent] : [],
  });
}

interface TreeEdit {
  segments: string[];
  /** The blob the file becomes; null removes it. */
  oid: string | null;
}

/**
 * The tree `base` (none: an empty one) with `edits` made: each written
 * file a regular file (an executable one keeps its mode), each removed one
 * gone, and a folder left empty gone with it. Only the trees along the
 * edited paths are read and written again. Undefined when nothing is left.
 */
async function editedTree(local: LocalRepository, base: string | undefined, edits: TreeEdit[]): Promise<string | undefined> {
  const { gitdir, cache } = local;
  const entries = new Map<string, TreeEntry>(base ? (await git.readTree({ fs, gitdir, cache, oid: base })).tree.map((entry) => [entry.path, entry]) : []);
  const within = new Map<string, TreeEdit[]>();
  for (const { segments, oid } of edits) {
    const [name, ...rest] = segments as [string, ...string[]];
    if (rest.length) within.set(name, [...(within.get(name) ?? []), { segments: rest, oid }]);
    else if (oid === null) entries.delete(name);
    else entries.set(name, { path: name, oid, type: 'blob', mode: entries.get(name)?.mode === '100755' ? '100755' : '100644' });
  }
  for (const [name, inner] of within) {
    const existing = entries.get(name);
    const folder = await editedTree(local, existing?.type === 'tree' ? existing.oid : undefined, inner);
    if (folder) entries.set(name, { path: name, oid: folder, type: 'tree', mode: '040000' });
    else entries.delete(name);
  }
  return entries.size ? git.writeTree({ fs, gitdir, tree: [...entries.values()] }) : undefined;
}

/** Refusals by which a Git host says the branch is no longer at the commit the push names (git's and the big hosts' words). */
const movedReason = /fetch first|non-fast-forward|stale info|failed to lock|cannot lock ref|failed to update ref|reference already exists|but expected/i;

async function send(remote: RemoteRepository, local: LocalRepository, expected: string | undefined, commit: string): Promise<void> {
  const ref = `refs/heads/${remote.branch}`;
  let found: string | undefined;
  try {
    await git.writeRef({ fs, gitdir: local.gitdir, ref, value: commit, force: true });
    await git.push({
      fs,
      http: remote.http,
      ...local,
      url: remote.url,
      ref,
      remoteRef: ref,
      // Before the pack is made: the branch as the host advertises it now must be where this push builds on.
      onPrePush: ({ remoteRef }) => {
        if (remoteRef.oid === (expected ?? noCommit)) return true;
        found = remoteRef.oid;
        return false;
      },
    });
  } catch (error) {
    if (found !== undefined) throw moved(remote, expected, found === noCommit ? 'deleted' : found);
    const { code, data } = error as { code?: unknown; data?: { reason?: string; result?: { refs?: Record<string, { error?: string }> } } };
    if (code === 'PushRejectedError') throw moved(remote, expected, data?.reason ?? 'not-fast-forward');
    if (code === 'GitPushError') {
      const reason = data?.result?.refs?.[ref]?.error || (error as Error).message;
      if (movedReason.test(reason)) throw moved(remote, expected, `the Git host refused to update it: ${reason}`);
      throw remote.fail('push_refused', `The Git host refused the push to branch "${remote.branch}" of ${remote.shown}: ${reason}.`);
    }
    throw remote.failure(error, 'write');
  }
}

/** The branch moved while this push was being sent: `now` is where it is, or what the host said. */
function moved(remote: RemoteRepository, expected: string | undefined, now: string): RemoteError {
  const where = /^[0-9a-f]{40}$/.test(now) ? `to ${now}` : `(${now})`;
  const from = expected ? `moved from ${expected} ${where}` : `was created ${where}`;
  return remote.fail('remote_moved', `The remote's ${remote.branch} ${from} while this push was being sent; pull first, then push again.`);
}
