/**
 * What a push changes in the remote's branch, worked out before anything is
 * sent. The remote's entity files are read as a pull reads them (./pull-plan.ts),
 * so an entity's file is found wherever the remote keeps it
 * (`rules/pricing/discount.json`) and is rewritten there. Each rule and
 * workflow of the branch is written unless its file already holds the same
 * content (the checksum a pull of it would compute) in the remote's format;
 * the files of entities the branch no longer has are deleted; every other
 * file of the repository is left as it is. Deciding by content rather than
 * by bytes leaves a file someone formatted by hand alone until its content
 * changes.
 */
import { entityChecksum } from '../entities/checksum.ts';
import { entityTypes, type EntityType } from '../vocabulary/kinds.ts';
import type { AuditActor, RemoteFormat, StoredEntity } from '../store/types.ts';
import type { ChangeCounts, PullSummary } from './task.ts';
import { entityFile, sameFormat, type EntityFile } from './entity-file.ts';
import type { EntityFiles } from './pull-plan.ts';

export type FileChangeKind = 'added' | 'updated' | 'deleted';

export interface FileChange {
  type: EntityType;
  id: string;
  change: FileChangeKind;
  /** The file written, or deleted. */
  path: string;
  /** An updated entity's earlier file, deleted: it was in another format. */
  replaces?: string;
}

export interface PushPlan {
  changes: FileChange[];
  writes: EntityFile[];
  deletions: string[];
  summary: PullSummary;
}

const counts = (): ChangeCounts => ({ added: 0, updated: 0, deleted: 0, unchanged: 0 });

/** Compares the branch's entities with the remote's files of them (`remote`, read without problems). */
export async function planPush(remote: EntityFiles, current: Record<EntityType, StoredEntity[]>, format: RemoteFormat): Promise<PushPlan> {
  const plan: PushPlan = { changes: [], writes: [], deletions: [], summary: { rule: counts(), workflow: counts(), ignoredFolders: remote.ignoredFolders } };
  const split = await filesToSplit(remote, current, format);
  for (const type of entityTypes) {
    const remoteChecksums = new Map(remote.inputs[type].map((input) => [input.id, entityChecksum(input)]));
    const onBranch = new Set<string>();
    for (const entity of current[type]) {
      onBranch.add(entity.id);
      const file = await entityFile(entity, format);
      const existing = remote.paths[type].get(entity.id);
      // An entity of a file being split is written to a file of its own, which replaces the shared one.
      const splitting = existing !== undefined && split.has(existing);
      if (!splitting && existing && sameFormat(existing, file.path) && remoteChecksums.get(entity.id) === entity.checksum) {
        plan.summary[type].unchanged++;
        continue;
      }
      const path = !splitting && existing && sameFormat(existing, file.path) ? existing : file.path;
      const replaces = existing && existing !== path ? existing : undefined;
      const change: FileChangeKind = existing ? 'updated' : 'added';
      plan.writes.push({ path, content: file.content });
      if (replaces && !plan.deletions.includes(replaces)) plan.deletions.push(replaces);
      plan.changes.push({ type, id: entity.id, change, path, ...(replaces && { replaces }) });
      plan.summary[type][change]++;
    }
    for (const [id, path] of remote.paths[type])
      if (!onBranch.has(id)) {
        if (!plan.deletions.includes(path)) plan.deletions.push(path);
        plan.changes.push({ type, id, change: 'deleted', path });
        plan.summary[type].deleted++;
      }
  }
  return plan;
}

/**
 * Files of the remote that hold several entities (a DMN file of several
 * decisions, a workbook of several sheets, a JDM graph) and that the push
 * must change: one of their entities changed or left the branch. Such a file
 * cannot be rewritten for one entity, so each of its entities the branch has
 * is written to a file of its own and the shared file is deleted; a file
 * whose entities are all unchanged is left as it is.
 */
async function filesToSplit(remote: EntityFiles, current: Record<EntityType, StoredEntity[]>, format: RemoteFormat): Promise<Set<string>> {
  const holders = new Map<string, { type: EntityType; id: string }[]>();
  for (const type of entityTypes) for (const [id, path] of remote.paths[type]) holders.set(path, [...(holders.get(path) ?? []), { type, id }]);
  const split = new Set<string>();
  for (const [path, held] of holders) {
    if (held.length < 2) continue;
    for (const { type, id } of held) {
      const entity = current[type].find((e) => e.id === id);
      const input = remote.inputs[type].find((i) => i.id === id);
      const unchanged = entity && input && entityChecksum(input) === entity.checksum && sameFormat(path, (await entityFile(entity, format)).path);
      if (!unchanged) split.add(path);
    }
  }
  return split;
}

/** Ids named in a commit's subject line, per kind of change; the rest are counted. */
const namedIds = 5;
/** Lines of a commit's body, one per file; the rest are counted. */
const listedFiles = 100;

function phrase(type: EntityType, change: FileChangeKind, ids: string[]) {
  const named = ids.slice(0, namedIds).join(', ') + (ids.length > namedIds ? `, and ${ids.length - namedIds} more` : '');
  return `${ids.length} ${type}${ids.length === 1 ? '' : 's'} ${change} (${named})`;
}

function line({ type, id, change, path, replaces }: FileChange) {
  if (change === 'deleted') return `deleted ${path}: the branch has no ${type} "${id}" any more`;
  return `${change} ${path}${replaces ? ` (was ${replaces}: in another format, or shared with other rules)` : ''}`;
}

/**
 * The commit's message: a subject naming the change and who asked for it,
 * then one line per file, deletions saying why.
 *
 * @example
 * // Push main from the rules service: 2 rules updated (discount, fees), 1 workflow added (onboard); by alice
 */
export function commitMessage(branch: string, plan: PushPlan, by: string, creating: boolean): string {
  const parts = entityTypes.flatMap((type) =>
    (['added', 'updated', 'deleted'] as const).flatMap((change) => {
      const ids = plan.changes.filter((c) => c.type === type && c.change === change).map((c) => c.id);
      return ids.length ? [phrase(type, change, ids)] : [];
    }),
  );
  const subject = `${creating ? 'Create' : 'Push'} ${branch} from the rules service${parts.length ? `: ${parts.join(', ')}` : ''}; by ${by}`;
  const lines = plan.changes.slice(0, listedFiles).map(line);
  if (plan.changes.length > listedFiles) lines.push(`and ${plan.changes.length - listedFiles} more files`);
  return lines.length ? `${subject}\n\n${lines.join('\n')}\n` : `${subject}\n`;
}

/** Git refuses these in a name: an owner holding them is written without them. */
const notInGitName = /[<>\n]/g;
/** A domain that never receives mail (RFC 2606): commits name the key without giving an address anyone could write to. */
export const noReplyDomain = 'rules-service.invalid';

/** The committer of every push: the service, which made the commit on the author's behalf. */
export const committer = { name: 'Rules service', email: `noreply@${noReplyDomain}` };

/** A push's commit author: whoever asked for it (the key's owner, which is the key id when it has none), with a no-reply address naming the key. */
export function authorOf(actor: AuditActor | undefined): { name: string; email: string } {
  if (!actor) return committer;
  return { name: actor.owner.replace(notInGitName, '').trim() || actor.keyId, email: `noreply+${actor.keyId}@${noReplyDomain}` };
}
