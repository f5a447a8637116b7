/**
 * How a rule or workflow becomes a file of the Git remote, in the layout a
 * pull reads (./pull-plan.ts): `rules/<id>.json` and `workflows/<id>.json`, the
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
import { entityTypeOf, type EntityKind } from '../vocabulary/kinds.ts';
import type { EntityInput, EntityRecord } from '../entities/schema.ts';
import { dmnFormat } from '../interchange/dmn.ts';
import { fileNameOf } from '../interchange/format-contract.ts';
import type { RemoteFormat } from '../store/types.ts';
import { entityFolders } from './pull-plan.ts';

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
  const { id, name, description, tags, type, definition } = entity;
  if (format === 'dmn' && type === 'decisionTable') {
    // A stored working copy is a valid record: every write validated it.
    const file = await dmnFormat.write({ id, name, description, tags, type, definition } as EntityInput);
    return { path: `${folder}/${file.fileName}`, content: file.body };
  }
  return {
    path: `${folder}/${fileNameOf(entity, '.json')}`,
    content: Buffer.from(`${JSON.stringify({ id, name, description, tags, type, definition }, null, 2)}\n`),
  };
}

/** Whether two paths name files of the same format (a pull tells formats by extension). */
export const sameFormat = (path: string, other: string) => extname(path).toLowerCase() === extname(other).toLowerCase();
