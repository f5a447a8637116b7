/**
 * Whether the saved draft can be published now, and why not, from what the
 * rule's get answers: `status` is `published` exactly when the working copy is
 * the latest published version (the comparison the publish itself makes, by
 * checksum), and `candidate` names the candidate version. A publish of either
 * would make nothing new, so its button waits, saying why.
 */
import type { RuleRecord } from './model.ts';

/** What the saved draft would become: the version executions get, or the rule's candidate. */
export type PublishTarget = 'served' | 'candidate';

/** Why the saved draft cannot be published (or proposed) as `target` now, or undefined when it can. */
export function publishHeld(
  rule: Pick<RuleRecord, 'status' | 'version' | 'checksum' | 'candidate'>,
  dirty: boolean,
  target: PublishTarget,
  verb: 'published' | 'proposed' = 'published',
): string | undefined {
  if (dirty) return `Save your changes first: only the saved draft is ${verb}.`;
  if (rule.status === 'published')
    return `Nothing new to publish: the saved draft is the latest version, ${rule.version}. Edit and save the rule to make another.`;
  if (target === 'candidate' && rule.candidate?.checksum === rule.checksum)
    return `The saved draft is already the candidate, ${rule.candidate.version}. Edit and save the rule to make another.`;
  return undefined;
}
