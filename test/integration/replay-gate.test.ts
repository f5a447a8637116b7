/**
 * The publish gate through the local HTTP runtime: a rule whose settings
 * have a replayGate is replayed, draft against latest published, over the
 * executions recorded in its window before each new version; too many
 * changed outcomes refuse the publish (409 replay_gate, with the report and
 * the replay's task), and a publish acknowledging that task goes ahead. The
 * acknowledgement must name a completed replay of this draft against the
 * latest version; a change request of a gated rule shows the replay of its
 * draft.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startReplay } from '../../lib/replay/start.ts';
import { api as apiFor, type Api } from '../helpers/api.ts';
import { createWorkspaceWithKey } from '../helpers/entities.ts';
import { expectFailure, expectUnpaged } from '../helpers/envelope.ts';
import { fieldsOf, rulesClient, type Json } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { waitForTask } from '../helpers/workflows.ts';

const t = useRuntime();
const workspaceId = 'gate-ws';
let api: Api;
let rules: ReturnType<typeof rulesClient>;

/** A band by score; `fees` are the rows' outputs, which the tests change to change outcomes. */
const banded = (id: string, fees: number[], settings: Json = { recordExecutions: true, replayGate: { maxChangedRatio: 0.25, window: 'P7D' } }): Json => ({
  id,
  name: `Banded ${id}`,
  type: 'decisionTable',
  definition: {
    hitPolicy: 'first',
    parameters: [{ name: 'score', type: 'number' }],
    inputs: [{ id: 'score', expression: 'score', type: 'number' }],
    outputs: [{ id: 'fee', name: 'fee', type: 'number' }],
    rules: fees.map((fee, i) => ({ id: `band${i}`, when: [`< ${(i + 1) * 10}`], then: [fee] })),
    settings,
  },
});

/** Saves `record` over the draft. */
async function redraft(record: Json) {
  const current = await rules.get(record.id as string);
  const saved = await rules.update(record.id as string, { checksum: current.body.data.checksum, definition: record.definition });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return saved.body.data.checksum;
}

interface GateRefusal {
  taskId: string;
  report: { counts: Record<string, number>; fields: Json[]; sample: Json[] };
}

const publish = (id: string, body: Json = {}) => api(`/dev/v1/rule/${id}/publish`, { method: 'POST', body: JSON.stringify(body) });

beforeAll(async () => {
  const { key } = await createWorkspaceWithKey(t.runtime.store, { id: workspaceId });
  api = (path, options) => apiFor(t.runtime)(path, { key, ...options });
  rules = rulesClient(api);
  // v1 is the first version: no gate applies to it.
  expect((await rules.published(banded('gated', [1, 2, 3, 4]))).version).toBe('v1');
  // Eight recorded scores, two in each band; and one 8 days ago, outside the window.
  for (const score of [1, 5, 11, 15, 21, 25, 31, 35]) await rules.execute('gated', { params: { score } });
  const old = new Date(Date.now() - 8 * 24 * 3600_000);
  await t.runtime.store.putExecution(
    { workspaceId, branch: 'main', ruleId: 'gated' },
    {
      executionId: 'exec_old',
      ruleId: 'gated',
      version: 'v1',
      trigger: 'api',
      outcome: 'succeeded',
      input: { score: 1 },
      output: { fee: 1 },
      durationMs: 0.1,
      startedAt: old.toISOString(),
      finishedAt: old.toISOString(),
    },
  );
}, 30_000);

describe('a rule with a replay gate', () => {
  let refused: GateRefusal;

  it('refuses a publish that changes more outcomes than the gate allows, with the report and its task', async () => {
    // Two bands of four change: half the outcomes.
    const checksum = await redraft(banded('gated', [1, 2, 7, 8]));
    const answer = await publish('gated', { checksum });
    expectFailure(answer, 409, 'replay_gate');
    expect(answer.body.message).toBe(
      `The rule "gated" is not published: its draft changes the outcome of 4 of the 8 recorded executions replayed, more than the share of 0.25 its settings.replayGate allows. Look at the report (task ${(answer.body.data as GateRefusal).taskId}); to publish anyway, publish with acknowledgeReplay: "${(answer.body.data as GateRefusal).taskId}".`,
    );
    refused = answer.body.data as GateRefusal;
    expect(refused.report.counts).toEqual({ inputs: 8, same: 4, changed: 4, newlyFailing: 0, newlySucceeding: 0, bothFailing: 0 });
    expect(refused.report.fields).toEqual([{ field: 'fee', changed: 4, delta: { count: 4, mean: 4, min: 4, max: 4 } }]);
    // The replay is kept as a completed task, as the refusal shows it.
    const task = expectUnpaged(await api<Json & { replay: Json }>(`/dev/v1/tasks/${refused.taskId}`));
    expect(task).toMatchObject({
      taskState: 'completed',
      replay: {
        ruleId: 'gated',
        candidate: { label: 'draft', checksum },
        baseline: { label: 'v1' },
        gate: { maxChangedRatio: 0.25, window: 'P7D', passed: false },
        report: refused.report,
      },
    });
    expect(((await rules.get('gated')).body.data.versions ?? []).map((v) => v.version)).toEqual(['v1']);
  });

  it('publishes once the replay is acknowledged, naming it', async () => {
    const published = await publish('gated', { acknowledgeReplay: refused.taskId });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    expect(published.body.data).toMatchObject({ version: 'v2', replayTaskId: refused.taskId });
  });

  it('publishes a draft within the gate, keeping the replay it ran', async () => {
    // One band of four changes: a quarter, which the gate allows.
    await redraft(banded('gated', [1, 2, 7, 9]));
    const published = await publish('gated');
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const { replayTaskId } = published.body.data as { replayTaskId: string };
    const task = expectUnpaged(await api<{ replay: { gate: Json; report: { counts: Json } } }>(`/dev/v1/tasks/${replayTaskId}`));
    expect(task.replay.gate).toEqual({ maxChangedRatio: 0.25, window: 'P7D', passed: true });
    // The eight recorded in the window, against v2.
    expect(task.replay.report.counts).toMatchObject({ inputs: 8, same: 6, changed: 2 });
  });

  it('accepts only a completed replay of this draft against the latest version, saying why', async () => {
    const checksum = await redraft(banded('gated', [5, 5, 5, 5]));
    const refusal = await publish('gated', { checksum });
    expectFailure(refusal, 409, 'replay_gate');
    const { taskId } = refusal.body.data as GateRefusal;
    const ref = { workspaceId, branch: 'main', entityType: 'rule' as const, id: 'gated' };
    const silent = { send: async () => undefined };
    const pending = await startReplay({ store: t.runtime.store, queue: silent }, ref, { candidate: 'draft', source: { paramsList: [{ score: 1 }] } });
    const againstV1 = expectUnpaged(
      await api<{ taskId: string }>('/dev/v1/rule/gated/replay', {
        method: 'POST',
        body: JSON.stringify({ candidate: 'draft', baseline: 'v1', source: { executions: {} } }),
      }),
      202,
    );
    expect((await waitForTask(api, againstV1.taskId)).taskState).toBe('completed');
    await rules.published(banded('other', [1, 2, 3, 4]));
    await redraft(banded('other', [9, 9, 9, 9]));
    const ofOther = expectUnpaged(
      await api<{ taskId: string }>('/dev/v1/rule/other/replay', {
        method: 'POST',
        body: JSON.stringify({ candidate: 'draft', source: { paramsList: [{ score: 1 }] } }),
      }),
      202,
    );
    await waitForTask(api, ofOther.taskId);
    const refusals: [string, RegExp][] = [
      ['00000000-0000-4000-8000-000000000000', /it is no replay of the rule "gated" on this branch\.$/],
      [ofOther.taskId, /it is no replay of the rule "gated" on this branch\.$/],
      [pending.taskId, /the replay has not completed \(it is pending\)\.$/],
      [againstV1.taskId, /it compared with v1, while the latest published version is v3: replay again\.$/],
    ];
    for (const [acknowledged, why] of refusals) {
      const answer = await publish('gated', { acknowledgeReplay: acknowledged });
      expectFailure(answer, 409, 'replay_not_acknowledgeable');
      expect(answer.body.message).toMatch(why);
      expect(fieldsOf(answer)).toEqual(['acknowledgeReplay']);
    }
    // The draft edited after its replay: that replay no longer acknowledges it.
    await redraft(banded('gated', [5, 5, 5, 6]));
    const stale = await publish('gated', { acknowledgeReplay: taskId });
    expectFailure(stale, 409, 'replay_not_acknowledgeable');
    expect(stale.body.message).toMatch(/it replayed other content than the draft holds now/);
    expectFailure(await publish('gated', { acknowledgeReplay: 'not-a-task' }), 400, 'invalid_request');
  });

  it('refuses a gate whose bounds are wrong, naming the field', async () => {
    const cases: [Json, string][] = [
      [{ replayGate: { maxChangedRatio: 1.5, window: 'P7D' } }, 'definition.settings.replayGate.maxChangedRatio'],
      [{ replayGate: { maxChangedRatio: 0.1, window: 'P31D' } }, 'definition.settings.replayGate.window'],
      [{ replayGate: { maxChangedRatio: 0.1, window: 'P1M' } }, 'definition.settings.replayGate.window'],
      [{ replayGate: { maxChangedRatio: 0.1, window: 'PT0S' } }, 'definition.settings.replayGate.window'],
      [{ replayGate: { maxChangedRatio: 0.1 } }, 'definition.settings.replayGate.window'],
      [{ replayGate: { maxChangedRatio: 0.1, window: 'P7D', extra: 1 } }, 'definition.settings.replayGate'],
    ];
    for (const [settings, field] of cases) {
      const answer = await rules.create(banded('bad-gate', [1], settings));
      expectFailure(answer, 400, 'invalid_request');
      expect(fieldsOf(answer), JSON.stringify(settings)).toContain(field);
    }
    expect((await rules.create(banded('good-gate', [1], { replayGate: { maxChangedRatio: 0, window: 'P1DT12H' } }))).status).toBe(201);
  });

  it('leaves a rule without a gate as it was: no replay, and an acknowledgement is not looked at', async () => {
    await rules.published(banded('ungated', [1, 2], { recordExecutions: true }));
    await rules.execute('ungated', { params: { score: 1 } });
    await redraft(banded('ungated', [9, 9], { recordExecutions: true }));
    const published = await publish('ungated', { acknowledgeReplay: '00000000-0000-4000-8000-000000000000' });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    expect(published.body.data).not.toHaveProperty('replayTaskId');
  });
});

describe('a change request of a gated rule', () => {
  it('shows the replay of its draft to its reviewers, which the publish may acknowledge', async () => {
    await rules.published(banded('reviewed', [1, 2, 3, 4]));
    for (const score of [1, 11, 21, 31]) await rules.execute('reviewed', { params: { score } });
    const checksum = await redraft(banded('reviewed', [1, 2, 3, 40]));
    const proposed = await api<{ id: string; replayTaskId: string }>('/dev/v1/rule/reviewed/change-requests', {
      method: 'POST',
      body: JSON.stringify({ checksum, description: 'raise the top band' }),
    });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(201);
    const { id, replayTaskId } = proposed.body.data;
    expect(replayTaskId).toMatch(/^[0-9a-f-]{36}$/);
    const shown = expectUnpaged(await api<{ replay: Json & { report: { counts: Json; sample: Json[] } } }>(`/dev/v1/rule/reviewed/change-requests/${id}`));
    expect(shown.replay).toMatchObject({ taskId: replayTaskId, candidate: { label: 'draft', checksum }, baseline: { label: 'v1' }, gate: { passed: true } });
    expect(shown.replay.report.counts).toEqual({ inputs: 4, same: 3, changed: 1, newlyFailing: 0, newlySucceeding: 0, bothFailing: 0 });
    expect(shown.replay.report.sample).toEqual([
      {
        inputIndex: 3,
        executionId: expect.any(String),
        input: { score: 31 },
        baseline: { output: { fee: 4 }, hits: ['row 4'] },
        candidate: { output: { fee: 40 }, hits: ['row 4'] },
      },
    ]);
    const published = await publish('reviewed', { changeRequestId: id, acknowledgeReplay: replayTaskId });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
  });
});
