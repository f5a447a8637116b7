/**
 * How a rule or workflow becomes a file of the Git remote, in the layout a
 * pull reads (./plan.ts): `rules/<id>.json` and `workflows/<id>.json`, the
 * record's content as the API serves it. One function, so that a push and
 * the demo repository (lib/local/seed.ts) write files alike, and so that the
 * remote's format is decided in one place.
 *
 * What a file holds is the working copy's content (name, description, tags,
 * type, definition): what a pull reads back as a draft with the same
 * checksum, so that a pull of what was pushed changes nothing. Versions stay
 * in the service: a pull writes drafts, never versions.
 */
import { extname } from 'node:path/posix';
import { entityTypeOf, type EntityKind } from '../entities/kinds.ts';
import type { EntityRecord } from '../entities/schema.ts';
import { fileNameOf } from '../interchange/format.ts';
import type { RemoteFormat } from '../store/types.ts';
import { entityFolders } from './plan.ts';

/** What a file is written from: a record's content, whether a stored working copy or an input. */
export type EntityContent = Pick<EntityRecord, 'id' | 'name' | 'description' | 'tags' | 'type' | 'definition'>;

export interface EntityFile {
  /** Relative to the repository root, `/`-separated. */
  path: string;
  content: Uint8Array;
}

/** The file `entity` is written as on a remote of `format`. */
export async function entityFile(entity: EntityContent, format: RemoteFormat): Promise<EntityFile> {
  const folder = entityFolders[entityTypeOf(entity.type as EntityKind)]; // a record's type is a kind: every write validates it
  if (format === 'dmn' && entity.type === 'decisionTable') throw new Error('dmn push is wired in once lib/interchange/dmn.ts lands');
  const { id, name, description, tags, type, definition } = entity;
  return {
    path: `${folder}/${fileNameOf(entity, '.json')}`,
    content: Buffer.from(`${JSON.stringify({ id, name, description, tags, type, definition }, null, 2)}\n`),
  };
}

/** Whether two paths name files of the same format (a pull tells formats by extension). */
export const sameFormat = (path: string, other: string) => extname(path).toLowerCase() === extname(other).toLowerCase();
