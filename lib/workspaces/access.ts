/**
 * Who among the people the issuer signs in may do what in a workspace: IdP
 * groups mapped to roles, and single people named by their verified e-mail,
 * each with the same roles and branch limits keys have. A person's grants are
 * every entry that names one of the groups in their token, or their e-mail:
 * the groups are read from the token on every call, so a person removed from
 * a group at the issuer loses what it gave with their next token.
 *
 * Managing the mapping needs `manage` with no branch limit (the route table's
 * workspaceWide), is audited, and a person cannot take `manage` away from
 * themselves: another manager must, so the workspace is never left without one
 * by a slip.
 *
 * People approve change requests, keys do not: a workspace that has no people
 * yet keeps its keys' approvals only while its mapping says so
 * (`keyApprovals`, lib/changes/approvals.ts), which it cannot while it names
 * any group or person. Moving to people is one replacement of the mapping:
 * the groups and people, without keyApprovals.
 */
import * as z from 'zod/mini';
import { auditEvent, type Auditor } from '../auth/auditor.ts';
import { grantsEverywhere, grantsOf } from '../auth/grants.ts';
import type { Principal } from '../auth/authenticate.ts';
import { errors, type FieldIssue } from '../vocabulary/errors.ts';
import { noControlCharacters } from '../vocabulary/patterns.ts';
import { roleNames, type Role } from '../vocabulary/permissions.ts';
import type { DirectoryStore, WorkspaceAccess } from '../store/types.ts';

/** How many groups and people one workspace maps: enough for a bank's IdP groups and its named exceptions, checked before any write. */
export const accessBounds = { groups: 100, people: 500 } as const;

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max), z.regex(noControlCharacters, 'must not contain control characters'));
const grant = {
  role: z.enum(roleNames as [Role, ...Role[]]),
  branches: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(255))).check(z.minLength(1), z.maxLength(50))),
};

export const accessBody = z.strictObject({
  groups: z.array(z.strictObject({ group: text(256), ...grant })).check(z.maxLength(accessBounds.groups)),
  people: z
    .array(z.strictObject({ email: z.string().check(z.maxLength(320), z.regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address')), ...grant }))
    .check(z.maxLength(accessBounds.people)),
  keyApprovals: z.optional(z.boolean({ error: 'must be true or false' })).register(z.globalRegistry, {
    description:
      'whether API keys approve change requests (default false): only for a workspace whose mapping names no group or person yet; once people are named, they approve, signed in',
  }),
});
export type AccessBody = z.output<typeof accessBody>;

/** The workspace's mapping, as stored (empty before the first; keyApprovals false unless it was turned on). */
export async function getAccess(store: DirectoryStore, caller: Principal) {
  const workspace = await store.getWorkspace(caller.workspace.id);
  const access = workspace?.access ?? { groups: [], people: [], updatedAt: '' };
  return { ...access, keyApprovals: access.keyApprovals ?? false };
}

/**
 * Replaces the workspace's mapping. Branches named must exist; e-mails are
 * kept in lower case; keyApprovals is refused beside any group or person; a
 * person may not leave themselves without `manage`.
 *
 * @example
 * await putAccess(store, caller, { groups: [{ group: 'pricing-authors', role: 'editor', branches: ['staging'] }], people: [] }, auditor);
 */
export async function putAccess(store: DirectoryStore, caller: Principal, body: AccessBody, auditor?: Auditor) {
  const issues: FieldIssue[] = [];
  const branches = new Set((await store.listBranches(caller.workspace.id)).map((b) => b.name));
  for (const [list, entries] of [['groups', body.groups] as const, ['people', body.people] as const])
    for (const [at, entry] of entries.entries())
      for (const [i, name] of (entry.branches ?? []).entries())
        if (!branches.has(name)) issues.push({ in: 'body', field: `${list}[${at}].branches[${i}]`, message: `the workspace has no branch "${name}"` });
  const keyApprovals = body.keyApprovals ?? false;
  if (keyApprovals && (body.groups.length || body.people.length))
    issues.push({
      in: 'body',
      field: 'keyApprovals',
      message:
        'keys approve only in a workspace that has no people yet: it cannot be true while the mapping names groups or people, who approve as themselves once named',
    });
  if (issues.length) throw errors.invalidRequest(issues);
  const access: WorkspaceAccess = {
    groups: body.groups.map((g) => ({ ...g, ...(g.branches && { branches: [...new Set(g.branches)] }) })),
    people: body.people.map((p) => ({ ...p, email: p.email.toLowerCase(), ...(p.branches && { branches: [...new Set(p.branches)] }) })),
    keyApprovals,
    updatedAt: new Date().toISOString(),
  };
  if (caller.person && !grantsEverywhere(grantsOf(access, caller.person), 'manage')) throw errors.selfLockout();
  const detail = { groups: access.groups.length, people: access.people.length, keyApprovals };
  if (!(await store.setWorkspaceAccess(caller.workspace.id, access, auditEvent(auditor, { type: 'access', id: caller.workspace.id }, { detail }))))
    throw errors.apiKeyInvalid();
  return access;
}
