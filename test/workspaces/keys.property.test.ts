/**
 * No key gives more than it has, as a property: random sequences of key
 * makes, changes and revocations, each by a random key of the workspace that
 * may manage keys, with random roles (permission sets) and branch limits.
 * After every step that went through, the key it made or changed holds no
 * permission its maker lacks and no branch beyond its maker's; a refused
 * step changed nothing; and the workspace always keeps a key that governs it.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Principal } from '../../lib/auth/authenticate.ts';
import { defaultRole, grants, roleNames, roles, type Role } from '../../lib/vocabulary/permissions.ts';
import { ApiError } from '../../lib/vocabulary/errors.ts';
import type { ApiKey } from '../../lib/store/types.ts';
import { addBranch, createApiKey, createWorkspace } from '../../lib/workspaces/admin.ts';
import { createKey, revokeKey, updateKey } from '../../lib/workspaces/keys.ts';
import { useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('keys-property');
const branchNames = ['main', 'a', 'b'];

const role = fc.constantFrom(...roleNames);
const branches = fc.option(fc.subarray(branchNames, { minLength: 1 }), { nil: undefined });
const step = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), caller: fc.nat(), role, branches }),
  fc.record({ kind: fc.constant('update' as const), caller: fc.nat(), target: fc.nat(), role: fc.option(role, { nil: undefined }), branches }),
  fc.record({ kind: fc.constant('revoke' as const), caller: fc.nat(), target: fc.nat() }),
);

const permissionsOf = (key: ApiKey) => roles[key.role ?? defaultRole] as readonly string[];
const withinBranches = (key: ApiKey, caller: ApiKey) =>
  !caller.branches || (key.branches !== undefined && key.branches.every((b) => caller.branches!.includes(b)));
const governs = (key: ApiKey) => (key.role ?? defaultRole) === 'admin' && !key.branches && !key.revokedAt;

let runs = 0;

it('never lets a key make or change a key beyond itself, and keeps a governing key', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
      const store = fixture.store;
      const workspace = await createWorkspace(store, { id: `kp-${++runs}` });
      for (const name of branchNames.slice(1)) await addBranch(store, workspace.id, name);
      await createApiKey(store, workspace.id, { label: 'root', owner: 'root' });
      const keys = async () => (await store.listApiKeys(workspace.id)).sort((a, b) => (a.keyId < b.keyId ? -1 : 1));
      const principal = (key: ApiKey): Principal => ({
        keyId: key.keyId,
        workspace,
        role: (key.role ?? defaultRole) as Role,
        owner: key.owner ?? key.keyId,
        ...(key.branches && { branches: key.branches }),
      });
      for (const s of steps) {
        const before = await keys();
        // The stack refuses a key without manage before the domain runs (test/integration/permissions.test.ts).
        const managers = before.filter((k) => !k.revokedAt && grants((k.role ?? defaultRole) as Role, 'manage'));
        const caller = managers[s.caller % managers.length]!;
        const target = s.kind === 'create' ? undefined : before[s.target % before.length]!;
        let changed: string | undefined;
        try {
          if (s.kind === 'create')
            changed = (
              await createKey(store, principal(caller), { label: 'made', owner: 'someone', role: s.role, ...(s.branches && { branches: s.branches }) })
            ).keyId;
          else if (s.kind === 'update')
            changed = (
              await updateKey(store, principal(caller), target!.keyId, {
                label: 'changed',
                ...(s.role && { role: s.role }),
                ...(s.branches && { branches: s.branches }),
              })
            ).keyId;
          else changed = (await revokeKey(store, principal(caller), target!.keyId)).keyId;
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect([400, 403, 409]).toContain((error as ApiError).status);
          expect(await keys()).toEqual(before);
          continue;
        }
        const after = await keys();
        const key = after.find((k) => k.keyId === changed)!;
        if (!key.revokedAt) {
          for (const permission of permissionsOf(key)) expect(permissionsOf(caller), `${s.kind} by ${caller.role}`).toContain(permission);
          expect(withinBranches(key, caller), `${s.kind}: ${JSON.stringify(key.branches)} by ${JSON.stringify(caller.branches)}`).toBe(true);
        }
        expect(after.some(governs)).toBe(true);
      }
    }),
    { numRuns: 30 },
  );
}, 120_000);
