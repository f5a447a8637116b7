/** The REST services workflow steps call, each described once per workspace. */

/** A REST integration as stored: what the API-request steps that name it share. */
export interface StoredIntegration {
  id: string;
  workspaceId: string;
  name: string;
  type: 'restApi';
  /** http(s), without user name, password, query or fragment: step paths are joined to it. */
  baseUrl: string;
  /** Sent on every call, under the step's own headers. */
  headers: Record<string, string>;
  /** The credential placed on every call, when it has one. */
  credentialId?: string;
  timeoutMs: number;
  description: string;
  createdAt: string;
  updatedAt: string;
  revision: number;
}
