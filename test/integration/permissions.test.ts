/**
 * The permission matrix, generated from the route table: every operation,
 * called through the local HTTP runtime with a key of every role, works or is
 * refused with 403 `forbidden` naming the permission it lacks. The refusal
 * comes before anything else: the calls name ids that do not exist and bodies
 * that are not valid, so a key that passed the check would get a 404 or a
 * 400 instead. A key of every role limited to some branches is refused on
 * the others the same way, and on every operation that changes or sends out
 * what the whole workspace shares (the route table's workspaceWide), and sees
 * only its own branches in the branch list.
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
const limitedKeys = {} as Record<Role, string>;
let stagingOnly: string;

beforeAll(async () => {
  await createWorkspaceWithKey(t.runtime.store, { id: workspaceId, branches: ['staging'] });
  for (const role of roleNames) keys[role] = (await createApiKey(t.runtime.store, workspaceId, { label: role, owner: `${role}@example.com`, role })).key;
  await addBranch(t.runtime.store, workspaceId, 'other').catch(() => undefined);
  for (const role of roleNames)
    limitedKeys[role] = (
      await createApiKey(t.runtime.store, workspaceId, { label: `${role} on staging`, owner: `${role}-staging`, role, branches: ['staging'] })
    ).key;
  stagingOnly = limitedKeys.admin;
});

/** Whether the route names its branch in its path (a branch's protection), not in Service-Branch. */
const branchInPath = (route: Route) => route.path.includes('{branch}');

/** The route's path with ids that exist nowhere, so that an allowed call answers 404 or 400, never 403; a branch in the path is `branch`. */
const pathOf = (route: Route, branch = 'staging') =>
  route.path
    .replace('{branch}', branch)
    .replace('{entityType}', 'rule')
    .replace('{entityId}', 'perm-no-such-rule')
    .replace('{stepId}', 'no-step')
    .replace('{credentialId}', 'cred_000000000000000000000')
    .replace('{integrationId}', 'intg_000000000000000000000')
    .replace('{taskId}', '00000000-0000-4000-8000-000000000000');

const call = (route: Route, key: string, branch?: string) =>
  t.api<{ permission?: string; role?: string; branch?: string }>(pathOf(route, branchInPath(route) ? branch : undefined), {
    method: route.method,
    key,
    ...(branch !== undefined && !branchInPath(route) && { branch }),
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
      // An operation for people only refuses every key, after its permission.
      if (grants(role, route.permission as never) && route.peopleOnly) expect(response.body.code, `${role} on ${route.operationId}`).toBe('people_only');
      else if (grants(role, route.permission as never)) expect(response.status, `${role} on ${route.operationId}`).not.toBe(403);
      else {
        expect({ role, status: response.status, code: response.body.code }).toEqual({ role, status: 403, code: 'forbidden' });
        // The pull's legacy-shaped errors carry {} (Route.bareErrors).
        expect(response.body.data).toEqual(route.bareErrors ? {} : { permission: route.permission, role });
        expect(response.body.message).toContain(`lacks the permission "${route.permission}"`);
      }
    }
  });
});

describe('a key limited to some branches, of every role', () => {
  /** What a key limited to staging, of `role`, must get from `route` on `branch` (undefined: the route takes no branch). */
  const expected = (route: Route, role: Role, branch: string | undefined) => {
    const bare = (data: unknown) => (route.bareErrors ? {} : data);
    if (!grants(role, route.permission as never)) return { status: 403, data: bare({ permission: route.permission, role }) };
    if (route.workspaceWide) return { status: 403, data: bare({ workspaceWide: true, branches: ['staging'] }) };
    if (route.peopleOnly) return { status: 403, data: {}, code: 'people_only' };
    if ((route.branch !== 'none' || branchInPath(route)) && branch !== 'staging')
      return { status: 403, data: bare({ branch: branch ?? 'main', branches: ['staging'] }) };
    return { status: 'not 403' };
  };

  it.each(guarded.map((route) => [route.operationId, route] as const))(
    '%s: within its role and branches, outside neither; what the whole workspace shares refused',
    async (_id, route) => {
      const branches =
        route.branch === 'none' && !branchInPath(route)
          ? [undefined]
          : ['staging', 'main', 'other', 'no-such-branch', ...(route.branch === 'optional' ? [undefined] : [])];
      for (const role of roleNames)
        for (const branch of branches) {
          const response = await call(route, limitedKeys[role], branch);
          const want = expected(route, role, branch);
          const got = response.status === 403 ? { status: 403, code: response.body.code, data: response.body.data } : { status: 'not 403' };
          expect({ role, branch, ...got }).toEqual({ role, branch, ...(want.status === 403 && { code: 'forbidden' }), ...want });
        }
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
