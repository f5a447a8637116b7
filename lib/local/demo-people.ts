/**
 * The people the local OpenID provider (./openid-provider.ts) signs in, and
 * the roles the demo workspace gives their groups: apart from the provider,
 * so that the seed names them without loading it.
 */
import type { WorkspaceAccess } from '../store/types.ts';

/** A person the local provider signs in. */
export interface DemoPerson {
  username: string;
  password: string;
  name: string;
  email: string;
  groups: string[];
}

/**
 * The demo people: one who writes rules, one who approves them, one who
 * administers the workspace (./seed.ts maps their groups to roles in
 * the demo workspace). Their passwords are printed in the start banner; the
 * provider listens on loopback only.
 */
export const demoPeople: readonly DemoPerson[] = [
  { username: 'ana', password: 'ana-writes-rules', name: 'Ana Author', email: 'ana@demo.example', groups: ['rule-authors'] },
  { username: 'ben', password: 'ben-approves-rules', name: 'Ben Approver', email: 'ben@demo.example', groups: ['rule-approvers'] },
  { username: 'ada', password: 'ada-admin-rules', name: 'Ada Admin', email: 'ada@demo.example', groups: ['rule-admins'] },
];

/** The claim the local provider lists groups in, as Okta and Entra ID name it (Cognito's is `cognito:groups`). */
export const localGroupsClaim = 'groups';

/** The demo workspace's mapping of the demo people's groups to roles (./seed.ts). */
export const demoAccess: Omit<WorkspaceAccess, 'updatedAt'> = {
  groups: [
    { group: 'rule-authors', role: 'editor' },
    { group: 'rule-approvers', role: 'publisher' },
    { group: 'rule-admins', role: 'admin' },
  ],
  people: [],
};
