/** Names unique in a workspace, case-insensitively, held by one item each so that two writers cannot both take one. */

/** What bears a name unique in its workspace, case-insensitively. */
export type NamedKind = 'credential' | 'integration';

export interface NameClaim {
  /** The id of the credential or integration that holds the name. */
  holderId: string;
  claimedAt: string;
}
