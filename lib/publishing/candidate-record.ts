/**
 * What a rule's candidate and rollout do to its working copy, as plain
 * changes of the record: the publish (./publish.ts) and the
 * rollout operations (lib/rollout/service.ts) write them, each in its own conditional
 * write of the working copy. Kept apart from both, so that neither imports
 * the other.
 */
import { isRunning, type Rollout, type RolloutEnding, type StoredEntity } from '../store/types.ts';

/** The rollout as stopped, why and by whom; one that had stopped already stays as it stopped. */
export const stopped = (rollout: Rollout | undefined, ending: RolloutEnding, actor: string, at: string): Rollout | undefined =>
  isRunning(rollout) ? { ...rollout, endedAt: at, endedBy: actor, ending } : rollout;

/**
 * The working copy once its candidate is promoted: the candidate is the
 * version executions get by default, and a rollout of it has ended. The draft
 * is published when it holds the candidate's content. Its revision is the
 * writer's to move, with the write.
 */
export function promoted(entity: StoredEntity & { candidate: NonNullable<StoredEntity['candidate']> }, actor: string, at: string): StoredEntity {
  const { candidate, ...rest } = entity;
  return {
    ...rest,
    version: candidate.version,
    publishedChecksum: candidate.checksum,
    status: entity.checksum === candidate.checksum ? 'published' : 'draft',
    rollout: stopped(entity.rollout, 'promoted', actor, at),
  };
}
