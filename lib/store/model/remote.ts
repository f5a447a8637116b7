/** The Git repository a workspace pulls its rules and workflows from and pushes them to. */

/** How a push writes decision tables: the service's JSON, or DMN 1.5 XML (every other entity is JSON either way). */
export const remoteFormats = ['json', 'dmn'] as const;
export type RemoteFormat = (typeof remoteFormats)[number];

export interface RemoteConfig {
  url: string;
  credentialId?: string;
  /** Absent on remotes set before pushes had a format: json. */
  format?: RemoteFormat;
  updatedAt: string;
}
