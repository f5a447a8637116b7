/**
 * The audit log through the local HTTP runtime: every write of every kind
 * leaves exactly one record (and a write that changes nothing, or fails,
 * none), a refusal is recorded, the records chain by hashes that `verify`
 * recomputes (a record edited or removed in DynamoDB is named), the filters
 * and pages, and the export, which round-trips and can be checked outside.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainBreak } from '../../lib/store/audit-chain.ts';
import { createDocumentClient } from '../../lib/store/dynamo/client.ts';
import { auditRecordKey } from '../../lib/store/keys.ts';
import type { AuditRecord } from '../../lib/store/types.ts';
import { json } from '../helpers/credentials.ts';
import { createWorkspaceWithKey, simpleRule } from '../helpers/entities.ts';
import type { ApiResponse } from '../helpers/api.ts';
import { expectFailure, expectUnpaged } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { waitForTask } from '../helpers/workflows.ts';

const t = useRuntime();

let admin: string;
let adminKeyId: string;
const workspaceId = 'audit-ws';

interface Page {
  records: AuditRecord[];
  next: number | null;
}
interface Check {
  intact: boolean;
  checked: number;
  break?: { seq: number; reason: string };
}

const as = (key: string) => ({
  call: <D>(path: string, options: Parameters<typeof t.api>[1] = {}) => t.api<D>(path, { ...options, key }),
  list: (query: Record<string, string | number> = {}) => t.api<Page>('/dev/v1/audit', { key, query }),
  verify: () => t.api<Check>('/dev/v1/audit/verify', { key }),
});

/** Every record of the workspace, oldest first, through the export (its parts followed). */
async function exported(key = admin, query: Record<string, string | number> = {}): Promise<AuditRecord[]> {
  const records: AuditRecord[] = [];
  for (let after: string | null = '0', parts = 0; after !== null && parts < 100; parts++) {
    const answer: ApiResponse<unknown> = await t.api<unknown>('/dev/v1/audit/export', { key, query: { ...query, after } });
    expect(answer.status).toBe(200);
    records.push(...(answer.body as unknown as AuditRecord[]));
    after = answer.headers.get('audit-next-after');
  }
  return records;
}

beforeAll(async () => {
  ({ key: admin, keyId: adminKeyId } = await createWorkspaceWithKey(t.runtime.store, { id: workspaceId, branches: ['staging'] }));
});

describe('every write leaves one record', () => {
  it('rules, publishes, schedules, deletes, keys, credentials, integrations and the remote: one each, in order, naming who, what and the checksums', async () => {
    const before = (await exported()).length;
    const a = as(admin);
    const made = expectUnpaged(await a.call<{ checksum: string }>('/dev/v1/rule', json('POST', simpleRule('fee', 'Fee'))), 201);
    // The same create again (a retry) changes nothing, and records nothing.
    expectUnpaged(await a.call('/dev/v1/rule', json('POST', simpleRule('fee', 'Fee'))));
    const edited = expectUnpaged(await a.call<{ checksum: string }>('/dev/v1/rule/fee', json('PATCH', { checksum: made.checksum, description: 'edited' })));
    // A stale edit fails (409) and records nothing.
    expectFailure(await a.call('/dev/v1/rule/fee', json('PATCH', { checksum: made.checksum, description: 'stale' })), 409, 'checksum_mismatch');
    expectUnpaged(await a.call('/dev/v1/rule/fee/publish', json('POST', { checksum: edited.checksum })), 201);
    expectUnpaged(await a.call('/dev/v1/rule/fee/schedule', json('POST', { unit: 'day', isEnabled: false })));
    expectUnpaged(await a.call('/dev/v1/rule/fee/schedule', json('POST', { isDelete: true })));
    const key = expectUnpaged(await a.call<{ keyId: string }>('/dev/v1/keys', json('POST', { label: 'ci', owner: 'ci-bot', role: 'editor' })), 201);
    expectUnpaged(await a.call(`/dev/v1/keys/${key.keyId}`, json('PATCH', { role: 'reader' })));
    expectUnpaged(await a.call(`/dev/v1/keys/${key.keyId}`, { method: 'DELETE' }));
    const credential = expectUnpaged(
      await a.call<{ id: string }>(
        '/dev/v1/credentials',
        json('POST', { name: 'risk', type: 'apiKey', key: 'X-Api-Key', value: 'audit-secret-value-1', allowedHosts: ['risk.example.com'] }),
      ),
      201,
    );
    expectUnpaged(await a.call(`/dev/v1/credentials/${credential.id}`, json('PATCH', { value: 'audit-secret-value-2' })));
    const integration = expectUnpaged(
      await a.call<{ id: string }>('/dev/v1/integrations', json('POST', { name: 'risk', type: 'restApi', baseUrl: 'https://risk.example.com' })),
      201,
    );
    expectUnpaged(await a.call(`/dev/v1/integrations/${integration.id}`, json('PATCH', { timeoutMs: 2000 })));
    expectUnpaged(await a.call(`/dev/v1/integrations/${integration.id}`, { method: 'DELETE' }));
    expectUnpaged(await a.call(`/dev/v1/credentials/${credential.id}`, { method: 'DELETE' }));
    // The runtime's own Git server on loopback: the pull that follows reaches nothing off this machine.
    expectUnpaged(await a.call('/dev/v1/remote', json('PUT', { url: `${t.runtime.gitUrl}/demo.git` })));
    const pull = await a.call<{ taskId: string }>('/dev/v1/remote/pull', json('POST', {}, { branch: 'staging' }));
    expect(pull.status).toBe(200);
    const pulled = await waitForTask(t.api, pull.body.data.taskId, { key: admin });
    expect(pulled.taskState).toBe('completed');
    expectUnpaged(await a.call('/dev/v1/rule/fee', { method: 'DELETE' }));
    // Deleting again changes nothing.
    expectUnpaged(await a.call('/dev/v1/rule/fee', { method: 'DELETE' }));

    const records = (await exported()).slice(before);
    expect(records.map((r) => r.operation)).toEqual([
      'createEntity',
      'updateEntity',
      'publishEntity',
      'saveSchedule',
      'saveSchedule',
      'createKey',
      'updateKey',
      'revokeKey',
      'createCredential',
      'updateCredential',
      'createIntegration',
      'updateIntegration',
      'deleteIntegration',
      'revokeCredential',
      'putRemote',
      'pullRemoteV1',
      'pullApplied',
      'deleteEntity',
    ]);
    for (const record of records) {
      expect(record).toMatchObject({ workspaceId, outcome: 'ok', actor: { keyId: adminKeyId, owner: adminKeyId, role: 'admin' } });
      expect(record.requestId).toBeTruthy();
    }
    expect(records[0]).toMatchObject({ target: { type: 'rule', id: 'fee', branch: 'main' }, checksumAfter: made.checksum });
    expect(records[0]!.checksumBefore).toBeUndefined();
    expect(records[1]).toMatchObject({ checksumBefore: made.checksum, checksumAfter: edited.checksum });
    expect(records[2]).toMatchObject({ checksumAfter: edited.checksum, detail: { version: 'v1' } });
    expect(records[5]).toMatchObject({ target: { type: 'key', id: key.keyId }, detail: { role: 'editor', owner: 'ci-bot' } });
    expect(records[9]).toMatchObject({ target: { type: 'credential', id: credential.id }, detail: { changed: 'value' } });
    expect(records[15]).toMatchObject({ target: { type: 'task', id: pull.body.data.taskId, branch: 'staging' } });
    // The pull's writes to the branch, recorded as the worker began them, in the name of who asked.
    expect(records[16]).toMatchObject({
      operation: 'pullApplied',
      requestId: records[15]!.requestId,
      target: { type: 'branch', id: 'staging', branch: 'staging' },
      detail: { taskId: pull.body.data.taskId, commit: (pulled as unknown as { commit: string }).commit, rulesAdded: expect.any(Number) },
    });
    // No record holds a credential's value.
    expect(JSON.stringify(records)).not.toMatch(/audit-secret-value/);
    expect((await as(admin).verify()).body.data).toMatchObject({ intact: true });
  });

  it('records a refusal (403) with the permission the key lacked, and an owner other keys share', async () => {
    const reader = expectUnpaged(
      await as(admin).call<{ key: string; keyId: string }>('/dev/v1/keys', json('POST', { label: 'r', owner: 'ana', role: 'reader' })),
      201,
    );
    expectFailure(await as(reader.key).call('/dev/v1/rule', json('POST', simpleRule('nope', 'Nope'))), 403, 'forbidden');
    const limited = expectUnpaged(
      await as(admin).call<{ key: string }>('/dev/v1/keys', json('POST', { label: 's', owner: 'ana', role: 'editor', branches: ['staging'] })),
      201,
    );
    expectFailure(await as(limited.key).call('/dev/v1/rule', { branch: 'main' }), 403, 'forbidden');
    const refused = expectUnpaged(await as(admin).list({ outcome: 'forbidden' })).records;
    expect(refused.slice(0, 2)).toMatchObject([
      {
        operation: 'listEntities',
        outcome: 'forbidden',
        actor: { owner: 'ana', role: 'editor' },
        target: { type: 'rule', branch: 'main' },
        detail: { branch: 'main' },
      },
      { operation: 'createEntity', outcome: 'forbidden', actor: { keyId: reader.keyId, owner: 'ana', role: 'reader' }, detail: { permission: 'write' } },
    ]);
    expect(expectUnpaged(await as(admin).list({ owner: 'ana' })).records.length).toBe(2);
    // The log itself needs manage.
    expectFailure(await as(reader.key).list(), 403, 'forbidden');
  });

  it('keeps the chain whole under concurrent writes: numbers without gaps or twins', async () => {
    const before = (await exported()).length;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => as(admin).call('/dev/v1/rule', json('POST', simpleRule(`par-${i}`, `Parallel ${i}`)))),
    );
    for (const answer of answers) expect(answer.status).toBe(201);
    const records = await exported();
    expect(records.length).toBe(before + 12);
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
    expect((await as(admin).verify()).body.data).toMatchObject({ intact: true, checked: records.length });
  });
});

describe('reading the log', () => {
  it('pages newest first with next, and filters by operation, target, key and time', async () => {
    const all = await exported();
    const first = expectUnpaged(await as(admin).list({ limit: 5 }));
    expect(first.records.map((r) => r.seq)).toEqual(
      all
        .slice(-5)
        .reverse()
        .map((r) => r.seq),
    );
    const second = expectUnpaged(await as(admin).list({ limit: 5, before: first.next! }));
    expect(second.records.map((r) => r.seq)).toEqual(
      all
        .slice(-10, -5)
        .reverse()
        .map((r) => r.seq),
    );
    const publishes = expectUnpaged(await as(admin).list({ operation: 'publishEntity' })).records;
    expect(publishes.map((r) => r.target.id)).toEqual(['fee']);
    expect(expectUnpaged(await as(admin).list({ targetType: 'rule', targetId: 'par-3' })).records).toHaveLength(1);
    expect(expectUnpaged(await as(admin).list({ keyId: 'key_nobody' })).records).toEqual([]);
    const middle = all[Math.floor(all.length / 2)]!;
    const upTo = expectUnpaged(await as(admin).list({ to: middle.at, limit: 100 })).records;
    expect(upTo.every((r) => r.at < middle.at)).toBe(true);
    expect(upTo.length).toBe(all.filter((r) => r.at < middle.at).length);
    const since = await exported(admin, { from: middle.at });
    expect(since.map((r) => r.seq)).toEqual(all.filter((r) => r.at >= middle.at).map((r) => r.seq));
    expectFailure(await as(admin).list({ from: 'yesterday' }), 400, 'invalid_request');
  });

  it('exports NDJSON whose chain checks outside the service, record by record', async () => {
    const records = await exported();
    const keptSince = new Date(0).toISOString();
    records.forEach((record, i) => expect(chainBreak(record, records[i - 1], keptSince)).toBeUndefined());
    const listed = expectUnpaged(await as(admin).list({ limit: 100 })).records;
    expect(listed).toEqual(records.slice(-listed.length).reverse());
  });
});

describe('tampering', () => {
  const documents = () => createDocumentClient({ tableName: t.runtime.tableName, endpoint: t.runtime.dynamoEndpoint });
  /** Edits a stored record behind the service's back, as someone with access to the table could. */
  const setOperation = (seq: number, operation: string) =>
    documents().send(
      new UpdateCommand({
        TableName: t.runtime.tableName,
        Key: auditRecordKey(workspaceId, seq),
        UpdateExpression: 'SET #op = :op',
        ExpressionAttributeNames: { '#op': 'operation' },
        ExpressionAttributeValues: { ':op': operation },
      }),
    );

  it('names a record edited in DynamoDB, then one removed', async () => {
    const records = await exported();
    const victim = records[3]!;
    await setOperation(victim.seq, 'getEntity');
    const edited = expectUnpaged(await as(admin).verify());
    expect(edited).toMatchObject({ intact: false, break: { seq: victim.seq, reason: expect.stringMatching(/changed/) } });
    // Put back as it was, the chain holds again; then a record removed is named as missing.
    await setOperation(victim.seq, victim.operation);
    expect(expectUnpaged(await as(admin).verify()).intact).toBe(true);
    await documents().send(new DeleteCommand({ TableName: t.runtime.tableName, Key: auditRecordKey(workspaceId, victim.seq + 1) }));
    expect(expectUnpaged(await as(admin).verify())).toMatchObject({ intact: false, break: { seq: victim.seq + 2, reason: expect.stringMatching(/missing/) } });
  });
});
