/** Secrets that workflow steps send to other services, kept sealed: the store never holds a value in the clear. */

/** What the table holds: ciphertext and the wrapped data key, never the value. */
export interface SealedSecret {
  version: 1;
  keyRef: string;
  encryptedKey: string;
  iv: string;
  ciphertext: string;
  tag: string;
}

/** Where a credential's key goes on a request: lib/credentials/placement.ts checks what each place accepts. */
export const credentialPlacements = ['header', 'query'] as const;
export type CredentialPlacement = (typeof credentialPlacements)[number];

/** An API-key credential as stored: the value only sealed (see lib/credentials/sealing.ts). */
export interface StoredCredential {
  id: string;
  workspaceId: string;
  name: string;
  type: 'apiKey';
  key: string;
  placement: CredentialPlacement;
  description: string;
  /**
   * The hosts it may be sent to (lib/outbound/hosts.ts). Absent only on a credential made before hosts were
   * required, until its first use binds it to the hosts of what uses it (lib/credentials/legacy-hosts.ts);
   * empty when nothing did, which sends it nowhere.
   */
  allowedHosts?: string[];
  /** The value's last characters at most, for people to recognise it. */
  valueHint: string;
  /** Absent once revoked: a revoked credential can never be sent again. */
  secret?: SealedSecret;
  createdAt: string;
  updatedAt: string;
  rotatedAt?: string;
  revokedAt?: string;
  revision: number;
}
