/** The Git repository a workspace pulls its rules and workflows from. */

export interface RemoteConfig {
  url: string;
  credentialId?: string;
  updatedAt: string;
}
