/**
 * What a pulled commit changes on a branch, worked out before anything is
 * written: every file is validated first, so one bad file leaves the branch
 * untouched, and only entities whose content differs are written.
 */
import { entityChecksum } from '../entities/checksum.ts';
import { nextWorkingCopy } from '../entities/service.ts';
import { entityTypeOf, entityTypes, type EntityKind, type EntityType } from '../entities/kinds.ts';
import { entityInputSchema, type EntityInput } from '../entities/schema.ts';
import type { ChangeCounts, PullSummary, StoredEntity } from '../store/types.ts';
import { parseJson } from '../decimal/json.ts';

export interface RepositoryFile {
  path: string;
  content: Buffer;
}

export interface FileProblem {
  path: string;
  message: string;
}

/** The folder at the repository root that holds each entity type. */
export const entityFolders: Record<EntityType, string> = { rule: 'rules', workflow: 'workflows' };

export interface PullPlan {
  writes: Record<EntityType, { entity: StoredEntity; kind: EntityKind }[]>;
  deletions: Record<EntityType, string[]>;
  summary: PullSummary;
}

const counts = (): ChangeCounts => ({ added: 0, updated: 0, deleted: 0, unchanged: 0 });

export interface EntityFiles {
  inputs: Record<EntityType, EntityInput[]>;
  /** Where each entity's file is, by type and id: a push rewrites or deletes it there. */
  paths: Record<EntityType, Map<string, string>>;
  ignoredFolders: string[];
  problems: FileProblem[];
}

/** Parses and validates every entity file; returns the inputs by type, or every problem found. */
export function readEntityFiles(files: RepositoryFile[]): EntityFiles {
  const inputs: Record<EntityType, EntityInput[]> = { rule: [], workflow: [] };
  const paths: Record<EntityType, Map<string, string>> = { rule: new Map(), workflow: new Map() };
  const problems: FileProblem[] = [];
  const ignored = new Set<string>();
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const [folder, ...rest] = file.path.split('/');
    const type = entityTypes.find((t) => entityFolders[t] === folder);
    if (!type || rest.length === 0) {
      if (rest.length > 0) ignored.add(folder!);
      continue;
    }
    if (!file.path.endsWith('.json')) continue;
    let content: unknown;
    try {
      content = parseJson(file.content.toString('utf8'));
    } catch (error) {
      problems.push({ path: file.path, message: `not valid JSON: ${(error as Error).message}` });
      continue;
    }
    const parsed = entityInputSchema.safeParse(content);
    if (!parsed.success) {
      problems.push(...parsed.error.issues.map((i) => ({ path: file.path, message: `${i.path.join('.') || 'record'}: ${i.message}` })));
      continue;
    }
    if (entityTypeOf(parsed.data.type) !== type) {
      problems.push({ path: file.path, message: `a ${parsed.data.type} belongs in ${entityFolders[entityTypeOf(parsed.data.type)]}/, not ${folder}/` });
      continue;
    }
    const earlier = paths[type].get(parsed.data.id);
    if (earlier) problems.push({ path: file.path, message: `id "${parsed.data.id}" is also used by ${earlier}` });
    paths[type].set(parsed.data.id, file.path);
    inputs[type].push(parsed.data);
  }
  return { inputs, paths, ignoredFolders: [...ignored].sort(), problems };
}

const shownProblems = 20;

/** Why a commit's entity files cannot be read, naming the files: what a pull fails with, and a push of a branch whose remote holds them. */
export function describeProblems(problems: FileProblem[]) {
  const listed = problems.slice(0, shownProblems).map((p) => `${p.path}: ${p.message}`);
  const more = problems.length > shownProblems ? `; and ${problems.length - shownProblems} more` : '';
  return `${new Set(problems.map((p) => p.path)).size} file(s) are invalid. ${listed.join('; ')}${more}`;
}

/**
 * Compares the pulled entities with the branch's: new and changed ones are
 * written (keeping creation and publication history), entities an earlier pull
 * brought and the remote no longer has are deleted, the rest stay untouched.
 */
export function planPull(
  inputs: Record<EntityType, EntityInput[]>,
  current: Record<EntityType, StoredEntity[]>,
  ignoredFolders: string[],
  now: string,
): PullPlan {
  const plan: PullPlan = {
    writes: { rule: [], workflow: [] },
    deletions: { rule: [], workflow: [] },
    summary: { rule: counts(), workflow: counts(), ignoredFolders },
  };
  for (const type of entityTypes) {
    const existing = new Map(current[type].map((e) => [e.id, e]));
    const pulled = new Set<string>();
    for (const input of inputs[type]) {
      pulled.add(input.id);
      const before = existing.get(input.id);
      const checksum = entityChecksum(input);
      if (before && before.checksum === checksum && before.source === 'remote') {
        plan.summary[type].unchanged++;
        continue;
      }
      const entity: StoredEntity = { ...nextWorkingCopy(input, checksum, before, 'pull', now), source: 'remote' };
      plan.writes[type].push({ entity, kind: input.type });
      // An entity another way made, with the same content, is only adopted as the remote's: not a change.
      plan.summary[type][!before ? 'added' : before.checksum === checksum ? 'unchanged' : 'updated']++;
    }
    for (const [id, entity] of existing)
      if (!pulled.has(id) && entity.source === 'remote') {
        plan.deletions[type].push(id);
        plan.summary[type].deleted++;
      }
  }
  return plan;
}
