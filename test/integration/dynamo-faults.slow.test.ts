/**
 * DynamoDB throttling, 500s and lost answers, injected at the SDK client
 * (test/helpers/dynamo-faults.ts), under a workload of authoring, running
 * and credential writes through the local HTTP runtime: first at a rate the
 * SDK's retries absorb, then in a storm that drains their quota, so that
 * requests fail half-way through. A client that meets a 500 tries the same
 * request again, backing off, as a user would. The promises:
 * - every answer is the envelope, and a fault shows only as a 500
 *   (internal_error) or as the answer the request deserved;
 * - a retried write finishes what the first began: the same create, edit or
 *   publish again answers as if it had been sent once;
 * - once the faults stop, the branch is exactly what the answers said:
 *   every entity there or gone as told, with its content and versions, the
 *   lists and their totals agreeing, every credential as rotated.
 * About 15 s, so `npm run test:slow` runs it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialBody, credentialPath, credentialsPath, json, type CredentialView } from '../helpers/credentials.ts';
import { injectDynamoFaults, type DynamoFaults } from '../helpers/dynamo-faults.ts';
import { expectEnvelope } from '../helpers/envelope.ts';
import type { ApiResponse } from '../helpers/api.ts';
import { parcelFee, rulesClient } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';

/**
 * The share of DynamoDB requests that fail: steady, the SDK's three attempts
 * let about 1 in 300 fail through; in the storm its retry quota (a token
 * bucket per client) runs dry and every fault fails through, as it is meant
 * to. The storm passes after `stormMs`.
 */
const steadyRate = 0.15;
const stormRate = 0.5;
const stormMs = 3_000;
const seed = Number(process.env.FAULT_SEED ?? Date.now() % 100_000);
const actors = 4;
const rulesPerActor = 4;
/** A client tries a request that answered 500 (or 409 `…_busy`: another create of the name under way) this many times in all, backing off. */
const maxTries = 12;
const backoffMs = (tries: number) => Math.min(2_000, 100 * 2 ** tries);

let faults: DynamoFaults;
beforeAll(() => {
  faults = injectDynamoFaults({ seed });
});
const t = useRuntime();
afterAll(() => faults.remove());

const fivehundreds: string[] = [];
const busy: string[] = [];

/** Sends until the answer is not a 500 or a busy name, checking that each 500 is the envelope saying so, as a client following the 500's advice would. */
async function untilAnswered<D>(what: string, send: () => Promise<ApiResponse<D>>): Promise<ApiResponse<D>> {
  for (let tries = 1; ; tries++) {
    const response = await send();
    expectEnvelope(response);
    if (response.status === 409 && response.body.code.endsWith('_busy')) busy.push(what);
    else if (response.status === 500) {
      expect(response.body.code, what).toBe('internal_error');
      fivehundreds.push(what);
    } else return response;
    if (tries === maxTries) throw new Error(`${what} answered ${response.status} ${maxTries} times`);
    await new Promise((resolve) => setTimeout(resolve, backoffMs(tries)));
  }
}

interface Expected {
  rules: Map<string, { deleted: boolean; name: string; versions: number }>;
  credentials: Map<string, { id: string; hint: string }>;
}

async function runActor(actor: number, expected: Expected, prefix: string) {
  const rules = rulesClient(t.api);
  for (let n = 0; n < rulesPerActor; n++) {
    const id = `${prefix}-${actor}-${n}`;
    const created = await untilAnswered(`create ${id}`, () => rules.create(parcelFee(id)));
    // 201; 200 when a retry finds what its first attempt made.
    expect([200, 201], JSON.stringify(created.body)).toContain(created.status);
    const edited = await untilAnswered(`edit ${id}`, () => rules.update(id, { name: `Edited ${id}`, checksum: created.body.data.checksum }));
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const published = await untilAnswered(`publish ${id}`, () => rules.publish(id, { checksum: edited.body.data.checksum }));
    expect([200, 201], JSON.stringify(published.body)).toContain(published.status);
    expect(published.body.data.version).toBe('v1');
    const executed = await untilAnswered(`execute ${id}`, () => rules.execute(id, { params: { weightKg: 1 } }));
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    expect(executed.body.data.output).toEqual({ fee: 4.9 });
    const deleted = n % 2 === 1;
    if (deleted) {
      const removed = await untilAnswered(`delete ${id}`, () => rules.remove(id));
      expect([200, 404], JSON.stringify(removed.body)).toContain(removed.status);
    }
    expected.rules.set(id, { deleted, name: `Edited ${id}`, versions: 1 });
  }
  const name = `${prefix}-cred-${actor}`;
  const made = await untilAnswered(`create ${name}`, () =>
    t.api<CredentialView>(credentialsPath, json('POST', credentialBody(name, `first-value-${actor}-0000`))),
  );
  expect([200, 201], JSON.stringify(made.body)).toContain(made.status);
  const rotated = await untilAnswered(`rotate ${name}`, () =>
    t.api<CredentialView>(credentialPath(made.body.data.id), json('PATCH', { value: `second-value-${actor}-9999` })),
  );
  expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
  expected.credentials.set(name, { id: made.body.data.id, hint: rotated.body.data.valueHint });
}

const runActors = (expected: Expected, prefix: string) => Promise.all(Array.from({ length: actors }, (_, actor) => runActor(actor, expected, prefix)));

describe(`DynamoDB faults at the SDK client (seed ${seed})`, () => {
  const expected: Expected = { rules: new Map(), credentials: new Map() };

  it('answers every request with its answer or a 500 envelope, and a retried write finishes what the first began', { timeout: 120_000 }, async () => {
    faults.on(steadyRate);
    try {
      await runActors(expected, 'steady');
      faults.on(stormRate);
      const storm = setTimeout(() => faults.off(), stormMs);
      await runActors(expected, 'storm').finally(() => clearTimeout(storm));
    } finally {
      faults.off();
    }
    console.log(
      `dynamo faults (seed ${seed}): ${faults.counts.requests} DynamoDB requests, ${faults.counts.throttled} throttled, ` +
        `${faults.counts['server-error']} failed with 500, ${faults.counts['answer-lost']} answers lost; ${fivehundreds.length} API answers were 500 and ${busy.length} were busy, and were retried`,
    );
    expect(faults.counts.throttled + faults.counts['server-error'] + faults.counts['answer-lost']).toBeGreaterThan(0);
  });

  it('leaves the branch exactly as the answers said, once the faults stop', async () => {
    const rules = rulesClient(t.api);
    for (const [id, rule] of expected.rules) {
      const found = await rules.get(id);
      if (rule.deleted) {
        expect(found.status, id).toBe(404);
        continue;
      }
      expect(found.status, id).toBe(200);
      expect(found.body.data.name).toBe(rule.name);
      expect(found.body.data.versions.map((v) => v.version)).toEqual(['v1']);
    }
    const listed = await t.api<{ id: string }[]>('/dev/v1/rule', { query: { pageSize: 100, name: 'Edited ' } });
    const kept = [...expected.rules].filter(([, rule]) => !rule.deleted).map(([id]) => id);
    expect(listed.body.data.map((r) => r.id).sort()).toEqual(kept.sort());
    expect(listed.body.totalCount).toBe(kept.length);
    const byKind = await t.api<{ id: string }[]>('/dev/v1/rule', { query: { pageSize: 100, type: 'decisionTable' } });
    expect(byKind.body.totalCount).toBe(byKind.body.data.length);
    const all = await t.api<{ id: string }[]>('/dev/v1/rule', { query: { pageSize: 100 } });
    expect(all.body.totalCount).toBe(all.body.data.length);

    const credentials = await t.api<CredentialView[]>(credentialsPath, { query: { pageSize: 100 } });
    for (const [name, credential] of expected.credentials) {
      const views = credentials.body.data.filter((c) => c.name === name);
      expect(
        views.map((v) => v.id),
        name,
      ).toEqual([credential.id]);
      expect(views[0]!.valueHint).toBe(credential.hint);
      expect(views[0]!.status).toBe('active');
    }
  });
  it('records each change made once in the audit log, and nothing for an attempt that failed; the chain is whole', async () => {
    const records: { operation: string; target: { id?: string } }[] = [];
    for (let after: string | null = '0', parts = 0; after !== null && parts < 50; parts++) {
      const part: ApiResponse<unknown> = await t.api<unknown>('/dev/v1/audit/export', { query: { after } });
      expect(part.status).toBe(200);
      records.push(...(part.body as unknown as typeof records));
      after = part.headers.get('audit-next-after');
    }
    const operationsOn = (id: string) => records.filter((r) => r.target.id === id).map((r) => r.operation);
    for (const [id, rule] of expected.rules)
      expect(operationsOn(id), id).toEqual(['createEntity', 'updateEntity', 'publishEntity', ...(rule.deleted ? ['deleteEntity'] : [])]);
    for (const [name, credential] of expected.credentials) expect(operationsOn(credential.id), name).toEqual(['createCredential', 'updateCredential']);
    const verified = await t.api<{ intact: boolean; checked: number }>('/dev/v1/audit/verify');
    expect(verified.body.data).toMatchObject({ intact: true, checked: records.length });
  });
});
