import { createHash } from 'node:crypto';
import { errors } from '../vocabulary/errors.ts';
import type { ApiKey, DirectoryStore, Grant, Workspace, WorkspaceAccess } from '../store/types.ts';
import { hashApiKey } from './api-key.ts';
import { defaultRole, type Requirement, type Role } from '../vocabulary/permissions.ts';
import { covers, effectiveGrant, grantsOf } from './grants.ts';
import type { Person } from './person-token.ts';

export interface Principal {
  /** The key's id; for a person, their id (`person_…`, from the issuer and subject), which no key has. */
  keyId: string;
  workspace: Workspace;
  /** What the key may do (a key made before roles is an admin); for a person, the widest role of theirs that the operation needs. */
  role: Role;
  /** Who the key belongs to (the key id for a key made before owners); for a person, their verified e-mail, else their subject. */
  owner: string;
  /** The branches the key is limited to, or the person's grants for the operation are; absent, every branch. */
  branches?: readonly string[];
  /** Set when a person signed in is calling, with a token the issuer signed. */
  person?: Person;
  /** A personal key's person: who the issuer said made it. */
  keyPerson?: NonNullable<ApiKey['person']>;
  /** A person's grants in the workspace, from which `role` and `branches` are drawn for each call. */
  grants?: readonly Grant[];
}

/** Who a key belongs to, as approvals and the audit log name them: its owner, or for a key made before owners, its id. */
export const keyOwner = (key: Pick<ApiKey, 'owner' | 'keyId'>) => key.owner ?? key.keyId;

/** Whether a key may still be used: neither revoked nor expired at `now`. */
export const isUsable = (key: Pick<ApiKey, 'revokedAt' | 'expiresAt'>, now = Date.now()) =>
  !key.revokedAt && !(key.expiresAt && Date.parse(key.expiresAt) <= now);

/** Whether a key is still within its person's grants: a personal key works while the mapping, by the groups its person's token named when they made it and their e-mail, still covers its role and branches; any other key is. */
export const stillCovered = (key: Pick<ApiKey, 'person' | 'role' | 'branches'>, access: WorkspaceAccess | undefined) =>
  !key.person || covers(grantsOf(access, key.person), key.role ?? defaultRole, key.branches);

/** Resolves a `Service-API-Key` value to its workspace, or throws the 401 the spec prescribes. */
export async function authenticate(directory: DirectoryStore, apiKey: string | undefined, now = Date.now()): Promise<Principal> {
  if (!apiKey || !apiKey.trim()) throw errors.apiKeyEmpty();
  const key = await directory.getApiKeyByHash(hashApiKey(apiKey.trim()));
  if (!key || key.revokedAt) throw errors.apiKeyInvalid();
  if (!isUsable(key, now)) throw errors.apiKeyExpired();
  const workspace = await directory.getWorkspace(key.workspaceId);
  if (!workspace) throw errors.apiKeyInvalid();
  if (!stillCovered(key, workspace.access)) throw errors.apiKeyInvalid();
  return {
    keyId: key.keyId,
    workspace,
    role: key.role ?? defaultRole,
    owner: keyOwner(key),
    ...(key.branches && { branches: key.branches }),
    ...(key.person && { keyPerson: key.person }),
  };
}

/** Who the issuer says a person is, as records keep it. */
export const personFacts = (person: Pick<Person, 'issuer' | 'subject' | 'email'>) => ({
  issuer: person.issuer,
  subject: person.subject,
  ...(person.email && { email: person.email }),
});

/** Who acts, as the audit log names them: a person with their name then, or a key with its person when it is a personal key. */
export function auditActorOf(principal: Pick<Principal, 'keyId' | 'owner' | 'person' | 'keyPerson'> & { role: string }) {
  const person = principal.person
    ? { ...personFacts(principal.person), ...(principal.person.name && { name: principal.person.name }) }
    : principal.keyPerson && personFacts(principal.keyPerson);
  return {
    kind: principal.person ? ('person' as const) : ('key' as const),
    keyId: principal.keyId,
    owner: principal.owner,
    role: principal.role,
    ...(person && { person }),
  };
}

/** What records name a person by: their verified e-mail, else their subject. */
const personName = (person: Pick<Person, 'email' | 'subject'>) => person.email ?? person.subject;

/** A person's id in the records: from their issuer and subject, which together are who they are. */
export const personId = (person: Pick<Person, 'issuer' | 'subject'>) =>
  `person_${createHash('sha256').update(`${person.issuer}\n${person.subject}`).digest('hex').slice(0, 24)}`;

/**
 * A verified person calling in `workspaceId`, with what their grants there
 * allow for an operation needing `permission` (./grants.ts). A workspace that
 * does not exist and one that gives the person nothing answer alike (403), so
 * that the answer tells no one which workspaces there are.
 */
export async function authenticatePerson(directory: DirectoryStore, person: Person, workspaceId: string, permission: Requirement): Promise<Principal> {
  const workspace = await directory.getWorkspace(workspaceId);
  const grants = grantsOf(workspace?.access, person);
  if (!workspace || !grants.length) {
    const refusal = errors.notAMember(workspaceId);
    // Recorded in the workspace's audit log when there is one (lib/http/endpoint.ts): who tried, though they hold no role there.
    if (workspace) refusal.refusedIn = { workspaceId, actor: auditActorOf({ keyId: personId(person), owner: personName(person), role: '', person }) };
    throw refusal;
  }
  const { role, branches } = effectiveGrant(grants, permission);
  return { keyId: personId(person), workspace, role, owner: personName(person), ...(branches && { branches }), person, grants };
}
