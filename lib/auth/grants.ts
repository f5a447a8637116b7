/**
 * What a caller may do, as grants: a role, limited or not to some branches. A
 * key has one; a person signed in has every grant their workspace's mapping
 * gives their groups or their e-mail (lib/workspaces/access.ts), and may do
 * what any of them allows.
 */
import type { Grant, WorkspaceAccess } from '../store/types.ts';
import { grants as roleGrants, roles, type Requirement, type Role } from '../vocabulary/permissions.ts';
import type { Person } from './person-token.ts';

/** The grants `access` gives a person: each entry naming one of their groups, or their verified e-mail (compared without case). */
export function grantsOf(access: WorkspaceAccess | undefined, person: Pick<Person, 'email' | 'groups'>): Grant[] {
  if (!access) return [];
  const groups = new Set(person.groups);
  const strip = ({ role, branches }: Grant): Grant => ({ role, ...(branches && { branches }) });
  return [
    ...access.groups.filter((entry) => groups.has(entry.group)).map(strip),
    ...(person.email ? access.people.filter((entry) => entry.email.toLowerCase() === person.email).map(strip) : []),
  ];
}

/** Whether API keys approve change requests in a workspace with this mapping: only when it says so (lib/changes/approvals.ts). */
export const keysApprove = (access: WorkspaceAccess | undefined) => access?.keyApprovals === true;

/** Whether any of `grants` gives `permission` on `branch`. */
export const grantsOn = (grants: readonly Grant[], permission: Requirement, branch: string) =>
  grants.some((g) => roleGrants(g.role, permission) && (!g.branches || g.branches.includes(branch)));

/** Whether any of `grants` gives `permission` on every branch. */
export const grantsEverywhere = (grants: readonly Grant[], permission: Requirement) => grants.some((g) => roleGrants(g.role, permission) && !g.branches);

/**
 * The one role and branch limit that stand for `grants` in an operation
 * needing `permission`: the widest role among the grants that give it, on
 * the branches of all of them (every branch when one is unlimited). With none
 * giving it, the widest role there is, so that the refusal names what the
 * person has.
 *
 * @example
 * effectiveGrant([{ role: 'publisher', branches: ['main'] }, { role: 'editor' }], 'write'); // { role: 'publisher' } (editor is unlimited)
 */
export function effectiveGrant(grants: readonly Grant[], permission: Requirement): Grant {
  const giving = grants.filter((g) => roleGrants(g.role, permission));
  const pool = giving.length ? giving : grants;
  const role = pool.map((g) => g.role).reduce<Role>((widest, r) => (roles[r].length > roles[widest].length ? r : widest), pool[0]!.role);
  const limited = pool.every((g) => g.branches);
  return { role, ...(limited && { branches: [...new Set(pool.flatMap((g) => g.branches!))] }) };
}

/** Whether `grants` give `permission` on each of `branches` (absent: on every branch). */
export const coversPermission = (grants: readonly Grant[], permission: Requirement, branches: readonly string[] | undefined) =>
  branches ? branches.every((branch) => grantsOn(grants, permission, branch)) : grantsEverywhere(grants, permission);

/**
 * Whether `grants` cover a key of `role` on `branches` (absent: every
 * branch): each permission of the role, on each of those branches.
 *
 * @example
 * covers([{ role: 'publisher', branches: ['main'] }], 'editor', ['main']); // true
 */
export const covers = (grants: readonly Grant[], role: Role, branches: readonly string[] | undefined): boolean =>
  roles[role].every((permission) => coversPermission(grants, permission, branches));
