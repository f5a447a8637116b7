/**
 * API keys managed over the API (the `manage` permission): made with a role,
 * an owner and optionally a list of branches, shown without their secret,
 * changed, and revoked. Two rules keep a workspace governable: no key gives
 * another (or itself) more than it has, in permissions or in branches; and
 * the last admin key that can still be used is neither revoked nor demoted,
 * so the workspace always has a key that can manage it. A key remembers the
 * key that vouched for its owner, and its owner is fixed once it has proposed
 * or approved a change (lib/auth/vouching.ts).
 *
 * A warm function keeps the keys it has looked up for its directory cache's
 * time (30 s by default): a change of role, branches or a revocation holds
 * on every function within that time.
 */
import { auditEvent, type Auditor } from '../auth/auditor.ts';
import * as z from 'zod/mini';
import { keyOwner, personFacts, type Principal } from '../auth/authenticate.ts';
import { coversPermission, grantsOf, keysApprove } from '../auth/grants.ts';
import { generateApiKey, generateKeyId, hashApiKey } from '../auth/api-key.ts';
import { defaultRole, grants, roleNames, roles, type Role } from '../vocabulary/permissions.ts';
import { errors, type FieldIssue } from '../vocabulary/errors.ts';
import { noControlCharacters } from '../vocabulary/patterns.ts';
import { instant } from '../http/queries.ts';
import type { ApiKey, ApiKeyChange, DirectoryStore } from '../store/types.ts';

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max), z.regex(noControlCharacters, 'must not contain control characters'));
const branchList = z.array(z.string().check(z.minLength(1), z.maxLength(255))).check(z.minLength(1), z.maxLength(50));
const role = z.enum(roleNames as [Role, ...Role[]]);

export const createKeyBody = z.strictObject({
  label: text(200),
  /** The person or system the key belongs to: approvals and the audit log name owners. */
  owner: text(200),
  role,
  branches: z.optional(branchList),
  expiresAt: z.optional(instant()),
});

/** A personal key: its owner is the person signed in, never the body's. */
export const createPersonalKeyBody = z.strictObject({
  label: text(200),
  role,
  branches: z.optional(branchList),
  expiresAt: z.optional(instant()),
});

export const updateKeyBody = z
  .strictObject({
    label: z.optional(text(200)),
    owner: z.optional(text(200)),
    role: z.optional(role),
    branches: z.optional(z.nullable(branchList)),
    expiresAt: z.optional(z.nullable(instant())),
  })
  .check(z.refine((change) => Object.keys(change).length > 0, 'must change at least one of label, owner, role, branches, expiresAt'));

export interface KeyView {
  keyId: string;
  label: string;
  owner: string;
  role: Role;
  branches?: string[];
  createdAt: string;
  expiresAt?: string;
  revokedAt?: string;
  /** The key that made it or last changed its owner, and answers for that owner; absent for a key the operator made. */
  vouchedBy?: string;
  /** When it first proposed or approved a change request: its owner is fixed since. */
  ownerFixedAt?: string;
  /** A personal key's person: who the issuer says made it. */
  person?: { issuer: string; subject: string; email?: string };
  /** Whether it opens the workspace now. */
  state: 'active' | 'expired' | 'revoked';
}

const stateOf = (key: ApiKey, now: number): KeyView['state'] =>
  key.revokedAt ? 'revoked' : key.expiresAt && Date.parse(key.expiresAt) <= now ? 'expired' : 'active';

export const keyView = (key: ApiKey, now = Date.now()): KeyView => ({
  keyId: key.keyId,
  label: key.label,
  owner: keyOwner(key),
  role: key.role ?? defaultRole,
  ...(key.branches && { branches: key.branches }),
  createdAt: key.createdAt,
  ...(key.expiresAt && { expiresAt: key.expiresAt }),
  ...(key.revokedAt && { revokedAt: key.revokedAt }),
  ...(key.vouchedBy && { vouchedBy: key.vouchedBy }),
  ...(key.ownerFixedAt && { ownerFixedAt: key.ownerFixedAt }),
  ...(key.person && { person: personFacts(key.person) }),
  state: stateOf(key, now),
});

/** Refuses (403) a role or branches beyond the caller's own. */
function withinCaller(caller: Principal, wanted: { role?: Role; branches?: readonly string[] | null }) {
  if (wanted.role) {
    const beyond = roles[wanted.role].find((permission) => !grants(caller.role, permission));
    if (beyond) throw errors.forbidden(beyond, caller.role);
  }
  if (caller.branches && wanted.branches !== undefined) {
    // A key limited to branches gives only keys limited to some of them.
    const beyond = wanted.branches === null ? '(every branch)' : wanted.branches.find((b) => !caller.branches!.includes(b));
    if (beyond !== undefined) throw errors.branchForbidden(beyond, caller.branches);
  }
}

async function checkBranches(store: DirectoryStore, workspaceId: string, branches: readonly string[] | null | undefined) {
  if (!branches) return;
  const issues: FieldIssue[] = [];
  for (const [i, name] of branches.entries())
    if (!(await store.getBranch(workspaceId, name))) issues.push({ in: 'body', field: `branches[${i}]`, message: `the workspace has no branch "${name}"` });
  if (issues.length) throw errors.invalidRequest(issues);
}

const futureOnly = (expiresAt: string | null | undefined, now: number) => {
  if (expiresAt && Date.parse(expiresAt) <= now) throw errors.invalidRequest([{ in: 'body', field: 'expiresAt', message: 'must be in the future' }]);
};

/**
 * Stores a new key of `caller`'s workspace, made of `fields` and who answers
 * for its owner (`answeredBy`: the key that made it, or the person it is
 * theirs): the secret is in the answer once, and only its hash is kept.
 */
async function mintKey(
  store: DirectoryStore,
  caller: Principal,
  fields: Pick<ApiKey, 'label' | 'owner' | 'role'> & { branches?: string[]; expiresAt?: string },
  answeredBy: Pick<ApiKey, 'vouchedBy' | 'person'>,
  auditor: Auditor | undefined,
  now: number,
) {
  futureOnly(fields.expiresAt, now);
  await checkBranches(store, caller.workspace.id, fields.branches);
  const key = generateApiKey();
  const record: ApiKey = {
    keyId: generateKeyId(),
    workspaceId: caller.workspace.id,
    label: fields.label,
    owner: fields.owner,
    role: fields.role,
    ...(fields.branches && { branches: [...new Set(fields.branches)] }),
    createdAt: new Date(now).toISOString(),
    ...(fields.expiresAt && { expiresAt: new Date(fields.expiresAt).toISOString() }),
    ...answeredBy,
  };
  const detail = { role: record.role!, owner: record.owner!, ...(record.person && { personal: 'true' }) };
  await store.createApiKey(hashApiKey(key), record, auditEvent(auditor, keyTarget(record.keyId), { detail }));
  return { ...keyView(record, now), key };
}

/**
 * Makes a key, within what the calling key has.
 *
 * @example
 * await createKey(store, principal, { label: 'checkout', owner: 'checkout-service', role: 'executor' }); // { keyId, key: 'rk_…', … }
 */
export async function createKey(store: DirectoryStore, caller: Principal, body: z.output<typeof createKeyBody>, auditor?: Auditor, now = Date.now()) {
  withinCaller(caller, { role: body.role, branches: caller.branches && (body.branches ?? null) });
  return mintKey(store, caller, body, { vouchedBy: caller.keyId }, auditor, now);
}

/**
 * Makes a personal key for the person signed in: owned by them (from their
 * token, never from the body), with at most what their grants give (each
 * permission of its role, on each of its branches), and working only while
 * their grants still cover it (lib/auth/authenticate.ts).
 *
 * @example
 * await createPersonalKey(store, personPrincipal, { label: 'laptop', role: 'editor', branches: ['staging'] }); // { keyId, key: 'rk_…', owner: 'ana@bank.example', … }
 */
export async function createPersonalKey(
  store: DirectoryStore,
  caller: Principal,
  body: z.output<typeof createPersonalKeyBody>,
  auditor?: Auditor,
  now = Date.now(),
) {
  // The stack lets only people through (the route's peopleOnly); this narrows the type for a direct call.
  const person = caller.person;
  if (!person) throw errors.peopleOnly();
  const grants = grantsOf(caller.workspace.access, person);
  const beyond = roles[body.role].find((permission) => !coversPermission(grants, permission, body.branches));
  if (beyond) throw errors.forbidden(beyond, caller.role);
  const theirs = { person: { ...personFacts(person), groups: person.groups } };
  return mintKey(store, caller, { ...body, owner: caller.owner }, theirs, auditor, now);
}

/** What the calling key (or person) may do, as it asks of itself. */
export const callerView = (caller: Principal) => ({
  keyId: caller.keyId,
  owner: caller.owner,
  role: caller.role,
  permissions: [...roles[caller.role]],
  branches: caller.branches ? [...caller.branches] : null,
  workspace: { id: caller.workspace.id, name: caller.workspace.name, defaultBranch: caller.workspace.defaultBranch },
  // Whether an approval by this caller is taken at all: a person's always (their grants decide the rest), a key's only where the workspace lets keys approve.
  approves: caller.person !== undefined || keysApprove(caller.workspace.access),
  // A person: who the issuer says they are, and each grant they hold here (role and branches above are their widest).
  ...(caller.person && { person: personFacts(caller.person), grants: (caller.grants ?? []).map((g) => ({ role: g.role, branches: g.branches ?? null })) }),
});

export async function listKeys(store: DirectoryStore, caller: Principal, now = Date.now()): Promise<KeyView[]> {
  const keys = await store.listApiKeys(caller.workspace.id);
  return keys.map((key) => keyView(key, now)).sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

/** The key, with every key of the workspace (read once: the last-admin rule looks at the others). */
async function findKey(store: DirectoryStore, caller: Principal, keyId: string) {
  const keys = await store.listApiKeys(caller.workspace.id);
  const key = keys.find((k) => k.keyId === keyId);
  if (!key) throw errors.keyNotFound(keyId);
  return { key, keys };
}

export const getKey = async (store: DirectoryStore, caller: Principal, keyId: string, now = Date.now()) =>
  keyView((await findKey(store, caller, keyId)).key, now);

/** Whether a key can govern the workspace: an admin that opens it now and is limited to no branch. */
const governsWorkspace = (key: ApiKey, now: number) => (key.role ?? defaultRole) === 'admin' && !key.branches && stateOf(key, now) === 'active';

/** Whether, without `key`, a key that governs the workspace remains among `keys`. */
const otherAdminRemains = (keys: ApiKey[], key: ApiKey, now: number) => keys.some((k) => k.keyId !== key.keyId && governsWorkspace(k, now));

export async function updateKey(
  store: DirectoryStore,
  caller: Principal,
  keyId: string,
  body: z.output<typeof updateKeyBody>,
  auditor?: Auditor,
  now = Date.now(),
) {
  const { key, keys } = await findKey(store, caller, keyId);
  if (key.revokedAt) throw errors.keyRevoked(keyId);
  // The key changed must itself be within the caller's reach, as the change must.
  withinCaller(caller, { role: key.role ?? defaultRole, branches: caller.branches && (key.branches ?? null) });
  withinCaller(caller, { role: body.role, branches: body.branches });
  futureOnly(body.expiresAt, now);
  await checkBranches(store, caller.workspace.id, body.branches);
  const demotes = body.role !== undefined && body.role !== 'admin';
  const limits = body.branches !== undefined && body.branches !== null;
  if (governsWorkspace(key, now) && (demotes || limits || body.expiresAt) && !otherAdminRemains(keys, key, now)) throw errors.lastAdmin(keyId);
  const renames = body.owner !== undefined && body.owner !== keyOwner(key);
  if (renames && key.person) throw errors.personalKeyOwner(keyId);
  if (renames && key.ownerFixedAt) throw errors.ownerFixed(keyId, key.ownerFixedAt);
  const change: ApiKeyChange = {
    ...(body.label !== undefined && { label: body.label }),
    // The key that names a key's owner answers for it (lib/auth/vouching.ts).
    ...(renames && { owner: body.owner, vouchedBy: caller.keyId }),
    ...(body.role !== undefined && { role: body.role }),
    ...(body.branches !== undefined && { branches: body.branches && [...new Set(body.branches)] }),
    ...(body.expiresAt !== undefined && { expiresAt: body.expiresAt && new Date(body.expiresAt).toISOString() }),
  };
  // Only what the key already is (its own owner again): nothing to write.
  if (!Object.keys(change).length) return keyView(key, now);
  const updated = await store.updateApiKey(caller.workspace.id, keyId, change, auditEvent(auditor, keyTarget(keyId), { detail: keyChangeDetail(change) }));
  if (!updated) throw errors.keyNotFound(keyId);
  return keyView(updated, now);
}

/** Revokes a key for good; revoking one already revoked answers it as it is. */
export async function revokeKey(store: DirectoryStore, caller: Principal, keyId: string, auditor?: Auditor, now = Date.now()) {
  const { key, keys } = await findKey(store, caller, keyId);
  if (key.revokedAt) return keyView(key, now);
  withinCaller(caller, { role: key.role ?? defaultRole, branches: caller.branches && (key.branches ?? null) });
  if (governsWorkspace(key, now) && !otherAdminRemains(keys, key, now)) throw errors.lastAdmin(keyId);
  const updated = await store.updateApiKey(caller.workspace.id, keyId, { revokedAt: new Date(now).toISOString() }, auditEvent(auditor, keyTarget(keyId)));
  if (!updated) throw errors.keyNotFound(keyId);
  return keyView(updated, now);
}

const keyTarget = (keyId: string) => ({ type: 'key', id: keyId });

/** A key's change as the audit log shows it: each field to its new value ('' for one taken away). */
const keyChangeDetail = (change: ApiKeyChange) =>
  Object.fromEntries(Object.entries(change).map(([field, value]) => [field, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
