/**
 * Rules and workflows as the store keeps them, around the record that
 * lib/vocabulary/records.ts defines: a working copy with what each save adds
 * (audit, warnings, count bookkeeping), a published version, and the
 * summary a list reads from the index.
 */
import type { EntityType } from '../../vocabulary/kinds.ts';
import type { Audit, EntityRecord } from '../../vocabulary/records.ts';
import type { Candidate, Rollout } from './rollouts.ts';

export interface EntityScope {
  workspaceId: string;
  branch: string;
  entityType: EntityType;
}

export interface EntityRef extends EntityScope {
  id: string;
}

/** An entity as people name it ("rule shipping-cost"), e.g. in a RevisionConflict. */
export const describeRef = (ref: EntityRef) => `${ref.entityType} ${ref.id}`;

/** What a save reports without refusing it (a row that can never be the answer, a gap), by its path in the definition. */
export interface Warning {
  path: string;
  message: string;
}

/** The working copy of an entity as stored. */
export interface StoredEntity extends EntityRecord, Audit {
  /** The save's warnings, kept so that reads need no parser; absent when the writer did not analyse the rule (import, pull). */
  warnings?: Warning[];
  /** Checksum of the latest published version (the served one, `version`), empty when never published. */
  publishedChecksum: string;
  /** A rule's candidate version, published but not served by default until it is promoted. */
  candidate?: Candidate;
  /** A rule's rollout of its candidate: running, or the last one, stopped. */
  rollout?: Rollout;
  /** "remote" when a pull wrote it last. */
  source?: 'remote';
  /** Store bookkeeping: the kind the branch counters include this entity as; unset until counted. */
  countedAs?: string;
}

/** A published snapshot as stored: the record, and the warnings its working copy had. */
export interface StoredVersion extends EntityRecord {
  warnings?: Warning[];
  /** A version's prepared form (lib/vocabulary/prepared-form.ts): what executing it compiles, without the FEEL parser. */
  prepared?: string;
}

export type Summary = Pick<EntityRecord, 'id' | 'name' | 'description' | 'type' | 'status' | 'version' | 'tags' | 'createdAt' | 'updatedAt'>;
