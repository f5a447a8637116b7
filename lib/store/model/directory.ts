/** What every request is checked against before it reads or writes anything (lib/auth; kept warm by ../cached-directory.ts): the workspace, its branches, the API keys that open it. */

export interface Workspace {
  id: string;
  name: string;
  defaultBranch: string;
  createdAt: string;
}

export interface Branch {
  workspaceId: string;
  name: string;
  createdAt: string;
}

export interface ApiKey {
  keyId: string;
  workspaceId: string;
  label: string;
  createdAt: string;
  expiresAt?: string;
  revokedAt?: string;
}
