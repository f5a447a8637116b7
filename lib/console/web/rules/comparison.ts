/**
 * Which two definitions the version comparison starts with: what an author
 * asks first is what the saved draft changes against the latest published
 * version; once the draft is that version, what the latest version changed
 * against the one before. Versions are told equal by their checksums, as the
 * API gives them.
 */

/** The saved draft, among the versions to compare. */
export const draftLabel = 'draft';

export interface Sides {
  left: string;
  right: string;
}

/** The comparison to offer first, given the versions oldest first and the saved draft's checksum. */
export function defaultComparison(versions: readonly { version: string; checksum: string }[], draftChecksum: string): Sides {
  const latest = versions.at(-1);
  if (!latest) return { left: draftLabel, right: draftLabel };
  const before = versions.at(-2);
  if (latest.checksum === draftChecksum && before) return { left: before.version, right: latest.version };
  return { left: latest.version, right: draftLabel };
}
