/**
 * What a pulled commit changes on a branch, worked out before anything is
 * written: every file is validated first, so one bad file leaves the branch
 * untouched, and only entities whose content differs are written.
 */
import { entityChecksum } from '../entities/checksum.ts';
import { nextWorkingCopy } from '../entities/service.ts';
import { entityTypeOf, entityTypes, type EntityKind, type EntityType } from '../vocabulary/kinds.ts';
import { entityInputSchema, type EntityInput } from '../entities/schema.ts';
import type { StoredEntity } from '../store/types.ts';
import type { ChangeCounts, PullSummary } from './task.ts';
import { parseJson } from '../decimal/json.ts';
// Imported, not loaded on demand: a module reached by import() keeps all of zod/mini's namespace (every locale) in the worker.
import { formatOfExtension, ImportBoundExceeded, isJdmDocument } from '../interchange/format-contract.ts';
import { formats } from '../interchange/format-registry.ts';
import { readRuleFile } from '../interchange/read.ts';

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
  /** What the files of other tools hold that no record keeps, by file and element (a DMN file's BKM): reported with the pull. */
  notCarried: FileProblem[];
}

/**
 * Parses and validates every entity file; returns the inputs by type, or every
 * problem found. A `.json` file is this service's record, or a GoRules JDM
 * graph; `.dmn`, `.xml`, `.xlsx` and `.csv` files are read by their formats
 * (lib/interchange), as an import reads them, and a file whose import has
 * problems fails the pull as an invalid record does.
 */
export async function readEntityFiles(files: RepositoryFile[]): Promise<EntityFiles> {
  const inputs: Record<EntityType, EntityInput[]> = { rule: [], workflow: [] };
  const paths: Record<EntityType, Map<string, string>> = { rule: new Map(), workflow: new Map() };
  const problems: FileProblem[] = [];
  const notCarried: FileProblem[] = [];
  const ignored = new Set<string>();
  const take = (type: EntityType, folder: string, path: string, input: EntityInput) => {
    if (entityTypeOf(input.type) !== type) {
      problems.push({ path, message: `a ${input.type} belongs in ${entityFolders[entityTypeOf(input.type)]}/, not ${folder}/` });
      return;
    }
    const earlier = paths[type].get(input.id);
    if (earlier) problems.push({ path, message: `id "${input.id}" is also used by ${earlier}` });
    paths[type].set(input.id, path);
    inputs[type].push(input);
  };
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const [folder, ...rest] = file.path.split('/');
    const type = entityTypes.find((t) => entityFolders[t] === folder);
    if (!type || rest.length === 0) {
      if (rest.length > 0) ignored.add(folder!);
      continue;
    }
    const format = formatOfExtension(file.path);
    if (!format) continue;
    if (format === 'jdm') {
      let content: unknown;
      try {
        content = parseJson(file.content.toString('utf8'));
      } catch (error) {
        problems.push({ path: file.path, message: `not valid JSON: ${(error as Error).message}` });
        continue;
      }
      if (!isJdmDocument(content)) {
        const parsed = entityInputSchema.safeParse(content);
        if (parsed.success) take(type, folder!, file.path, parsed.data);
        else problems.push(...parsed.error.issues.map((i) => ({ path: file.path, message: `${i.path.join('.') || 'record'}: ${i.message}` })));
        continue;
      }
    }
    try {
      const checked = await readRuleFile(file.path, file.content, formats[format]);
      problems.push(...checked.problems);
      notCarried.push(...checked.notCarried);
      if (!checked.problems.length) for (const { input } of checked.records) take(type, folder!, file.path, input);
    } catch (error) {
      if (!(error instanceof ImportBoundExceeded)) throw error;
      problems.push({ path: file.path, message: error.message });
    }
  }
  return { inputs, paths, ignoredFolders: [...ignored].sort(), problems, notCarried };
}

const shownProblems = 20;
/** Elements not carried that a pull's summary lists: a DMN file of Drools's can name hundreds. */
const shownNotCarried = 100;

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
  notCarried: FileProblem[] = [],
): PullPlan {
  const plan: PullPlan = {
    writes: { rule: [], workflow: [] },
    deletions: { rule: [], workflow: [] },
    summary: { rule: counts(), workflow: counts(), ignoredFolders, ...(notCarried.length && { notCarried: notCarried.slice(0, shownNotCarried) }) },
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
