/**
 * The permission matrix, generated from the route table: every operation,
 * called through the local HTTP runtime with a key of every role, works or is
 * refused with 403 `forbidden` naming the permission it lacks. The refusal
 * comes before anything else: the calls name ids that do not exist and bodies
 * that are not valid, so a key that passed the check would get a 404 or a
 * 400 instead. A key limited to some branches is refused on the others the
 * same way, and sees only its own in the branch list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { grants, roleNames, type Role } from '../../lib/vocabulary/permissions.ts';
import { routeList } from '../../lib/api/routes.ts';
import type { Route } from '../../lib/http/route.ts';
import { addBranch, createApiKey } from '../../lib/workspaces/admin.ts';
import { createWorkspaceWithKey } from '../helpers/entities.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
const workspaceId = 'perm-matrix';
const keys = {} as Record<Role, string>;
let stagingOnly: string;

beforeAll(async () => {
  await createWorkspaceWithKey(t.runtime.store, { id: workspaceId, branches: ['staging'] });
  for (const role of roleNames) keys[role] = (await createApiKey(t.runtime.store, workspaceId, { label: role, owner: `${role}@example.com`, role })).key;
  await addBranch(t.runtime.store, workspaceId, 'other').catch(() => undefined);
  stagingOnly = (await createApiKey(t.runtime.store, workspaceId, { label: 'staging only', owner: 'ci', role: 'admin', branches: ['staging'] })).key;
});

/** The route's path with ids that exist nowhere, so that an allowed call answers 404 or 400, never 403. */
const pathOf = (route: Route) =>
  route.path
    .replace('{entityType}', 'rule')
    .replace('{entityId}', 'perm-no-such-rule')
    .replace('{stepId}', 'no-step')
    .replace('{credentialId}', 'cred_000000000000000000000')
    .replace('{integrationId}', 'intg_000000000000000000000')
    .replace('{taskId}', '00000000-0000-4000-8000-000000000000');

const call = (route: Route, key: string, branch?: string) =>
  t.api<{ permission?: string; role?: string; branch?: string }>(pathOf(route), {
    method: route.method,
    key,
    ...(branch !== undefined && { branch }),
    ...(route.body && { body: '{"not": "valid"}', headers: { 'content-type': 'application/json' } }),
  });

const guarded = routeList.filter((route) => route.permission !== 'public');

describe('every operation, with a key of every role', () => {
  it('covers the route table: every operation names a permission', () => {
    expect(routeList.filter((route) => !route.permission)).toEqual([]);
    expect(guarded.length).toBeGreaterThan(30);
  });

  it.each(guarded.map((route) => [route.operationId, route] as const))('%s: allowed or refused (403) before anything is read', async (_id, route) => {
    for (const role of roleNames) {
      const response = await call(route, keys[role], route.branch === 'required' ? 'staging' : undefined);
      if (grants(role, route.permission as never)) expect(response.status, `${role} on ${route.operationId}`).not.toBe(403);
      else {
        expect({ role, status: response.status, code: response.body.code }).toEqual({ role, status: 403, code: 'forbidden' });
        // The pull's legacy-shaped errors carry {} (Route.bareErrors).
        expect(response.body.data).toEqual(route.bareErrors ? {} : { permission: route.permission, role });
        expect(response.body.message).toContain(`lacks the permission "${route.permission}"`);
      }
    }
  });
});

describe('a key limited to some branches', () => {
  const onBranches = guarded.filter((route) => route.branch !== 'none');

  it.each(onBranches.map((route) => [route.operationId, route] as const))(
    '%s: refused on another branch (403), before the branch is looked up',
    async (_id, route) => {
      for (const branch of ['main', 'other', 'no-such-branch']) {
        const response = await call(route, stagingOnly, branch);
        expect({ branch, status: response.status, code: response.body.code }).toEqual({ branch, status: 403, code: 'forbidden' });
        expect(response.body.data).toEqual(route.bareErrors ? {} : { branch, branches: ['staging'] });
      }
      // The default branch (main) is not among its branches either.
      if (route.branch === 'optional') expect((await call(route, stagingOnly)).status).toBe(403);
      expect((await call(route, stagingOnly, 'staging')).status).not.toBe(403);
    },
  );

  it('lists only its own branches', async () => {
    const listed = await t.api<{ name: string }[]>('/dev/v1/branches', { key: stagingOnly });
    expect(listed.body.data.map((b) => b.name)).toEqual(['staging']);
    const all = await t.api<{ name: string }[]>('/dev/v1/branches', { key: keys.admin });
    expect(all.body.data.map((b) => b.name)).toEqual(['main', 'other', 'staging']);
  });
});

describe('keys made before roles', () => {
  it('are admins: the demo key still does everything', async () => {
    const created = await t.api('/dev/v1/rule', {
      method: 'POST',
      body: JSON.stringify({ id: 'perm-demo', name: 'Perm demo', type: 'simpleRule', definition: { when: 'true', then: { ok: true } } }),
    });
    expect(created.status).toBe(201);
  });
});
