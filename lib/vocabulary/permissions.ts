/**
 * What a key may do: a fixed vocabulary of permissions, and the roles a key
 * is given, each a set of them. Every operation in the route table names the
 * one permission it needs (`Route.permission`); the handler stack refuses a
 * key without it (403 `forbidden`) before it reads or writes anything, and the
 * OpenAPI document and the console read the same declaration.
 */

export const permissions = ['read', 'execute', 'write', 'publish', 'approve', 'manage'] as const;
export type Permission = (typeof permissions)[number];

/** What each permission covers, for the OpenAPI document and the console. */
export const permissionMeaning: Record<Permission, string> = {
  read: 'read rules, workflows, executions, schedules, tasks, branches, credentials and integrations (never a secret)',
  execute: 'execute published rules and workflows',
  write: 'create, edit, test and delete drafts, save schedules, pull from the remote',
  publish: 'publish a version, push a branch to the remote',
  approve: 'approve or reject a change request',
  manage: 'manage keys, credentials, integrations, the remote, branch protection and the audit log',
};

export const roles = {
  reader: ['read'],
  executor: ['execute'],
  editor: ['read', 'write', 'execute'],
  publisher: ['read', 'write', 'execute', 'publish', 'approve'],
  admin: permissions,
} as const satisfies Record<string, readonly Permission[]>;
export type Role = keyof typeof roles;
export const roleNames = Object.keys(roles) as Role[];

/** The role of a key made before keys had roles: everything it could do then, it still can. */
export const defaultRole: Role = 'admin';

/** What an operation needs beside the permissions: any valid key, whatever its role (what a key may do, asked of itself). */
export const anyKey = 'anyKey';
export type Requirement = Permission | typeof anyKey;

/** Whether `role` grants `permission`. */
export const grants = (role: Role, permission: Requirement): boolean => permission === anyKey || (roles[role] as readonly Permission[]).includes(permission);

export const isRole = (name: string): name is Role => Object.hasOwn(roles, name);
