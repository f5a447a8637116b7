/** The console's one decision of what a key may do (lib/console/web/permissions.ts), against the committed OpenAPI document the API serves. */
import { describe, expect, it } from 'vitest';
import { roles, type Role } from '../../lib/vocabulary/permissions.ts';
import { actionOf, permissionsFor, requirementsOf, type Caller, type OperationId } from '../../lib/console/web/permissions.ts';
import { routeList } from '../../lib/api/routes.ts';
import committed from '../../lib/openapi/openapi.json' with { type: 'json' };

const requirements = requirementsOf(committed);

const callerWith = (role: Role, branches: string[] | null = null): Caller => ({
  keyId: 'key_1',
  owner: 'someone',
  role,
  permissions: [...roles[role]],
  branches,
  workspace: { id: 'ws', name: 'Workspace', defaultBranch: 'main' },
  approves: true,
});

describe('requirementsOf', () => {
  it("reads each operation's x-permission, as the route table declares it, and whether it acts on a branch", () => {
    for (const route of routeList) {
      const needs = requirements.get(route.operationId);
      expect(needs, route.operationId).toBeDefined();
      expect(needs!.permission, route.operationId).toBe(route.permission === 'public' || route.permission === 'anyKey' ? undefined : route.permission);
    }
    expect(requirements.get('publishEntity')).toEqual({ permission: 'publish', onBranch: true, action: 'publish the draft as the next version' });
    expect(requirements.get('createKey')).toEqual({ permission: 'manage', onBranch: false, action: 'make an API key' });
    expect(requirements.get('getCaller')).toMatchObject({ onBranch: false });
    expect(requirements.get('getCaller')!.permission).toBeUndefined();
  });

  it('words an operation as what a key does with it', () => {
    expect(actionOf('Revoke a credential: it is never sent again')).toBe('revoke a credential');
    expect(actionOf('Pull the branch from the Git remote (asynchronous)')).toBe('pull the branch from the Git remote');
    expect(actionOf("The workspace's API keys")).toBe("read the workspace's API keys");
    expect(requirements.get('listAudit')!.action).toBe("read the workspace's audit log, newest first");
  });
});

describe('permissionsFor', () => {
  it('refuses a reader what its role lacks, saying which permission it needs, and allows what it has', () => {
    const can = permissionsFor(callerWith('reader'), requirements, 'main');
    expect(can('publishEntity')).toEqual({
      allowed: false,
      reason: 'Your key (role reader) cannot publish the draft as the next version: that needs the permission publish.',
    });
    expect(can('updateEntity')).toEqual({
      allowed: false,
      reason: 'Your key (role reader) cannot edit the draft of a rule or workflow: that needs the permission write.',
    });
    expect(can('listKeys')).toEqual({
      allowed: false,
      reason: "Your key (role reader) cannot read the workspace's API keys: that needs the permission manage.",
    });
    expect(can('listEntities')).toEqual({ allowed: true });
    expect(can('getCaller')).toEqual({ allowed: true });
  });

  it('allows an admin every operation of the document', () => {
    const can = permissionsFor(callerWith('admin'), requirements, 'staging');
    for (const operationId of requirements.keys()) expect(can(operationId as OperationId), operationId).toEqual({ allowed: true });
  });

  it('refuses a key limited to branches what acts on another branch (the default one when the session names none), and nothing that acts on none', () => {
    const editor = callerWith('editor', ['staging']);
    expect(permissionsFor(editor, requirements, 'staging')('updateEntity')).toEqual({ allowed: true });
    const onDefault = permissionsFor(editor, requirements, '');
    expect(onDefault('updateEntity')).toEqual({
      allowed: false,
      reason: 'Your key is limited to the branches "staging": it cannot edit the draft of a rule or workflow on "main".',
    });
    expect(onDefault('listBranches')).toEqual({ allowed: true });
    // What the role lacks is said first: the branch would not help.
    expect(onDefault('publishEntity')).toMatchObject({ allowed: false, reason: expect.stringContaining('needs the permission publish') });
  });

  it('leaves an operation the document does not name to the API', () => {
    // An API older than the console: its document lacks the change requests.
    const older = new Map([...requirements].filter(([operationId]) => operationId !== 'approveChange'));
    expect(permissionsFor(callerWith('reader'), older, 'main')('approveChange')).toEqual({ allowed: true });
  });

  it('lets an editor propose a change but not approve it, as the roles say', () => {
    const can = permissionsFor(callerWith('editor'), requirements, 'staging');
    expect(can('proposeChange')).toEqual({ allowed: true });
    expect(can('approveChange')).toEqual({
      allowed: false,
      reason: 'Your key (role editor) cannot approve a change request: that needs the permission approve.',
    });
    expect(permissionsFor(callerWith('publisher'), requirements, 'staging')('approveChange')).toEqual({ allowed: true });
  });

  it("says a key does not approve where the workspace takes no key's approval, and speaks to a person as 'you'", () => {
    const key = permissionsFor({ ...callerWith('publisher'), approves: false }, requirements, 'staging');
    expect(key('approveChange')).toEqual({
      allowed: false,
      reason: 'Keys do not approve in this workspace: sign in with your company account to approve a change request.',
    });
    expect(key('publishEntity')).toEqual({ allowed: true });
    const person = { ...callerWith('editor', ['staging']), person: { issuer: 'https://issuer.example', subject: 'sub-ana', email: 'ana@bank.example' } };
    expect(permissionsFor(person, requirements, 'staging')('approveChange')).toEqual({
      allowed: false,
      reason: 'You (role editor) cannot approve a change request: that needs the permission approve.',
    });
    expect(permissionsFor(person, requirements, 'main')('updateEntity')).toEqual({
      allowed: false,
      reason: 'You are limited to the branches "staging": you cannot edit the draft of a rule or workflow on "main".',
    });
  });
});
