/**
 * The local runtime with DATA_DIR keeps rule schedules in its table, and the
 * local scheduler holds them in memory: a second start sends every stored
 * schedule to the scheduler again, so it fires as before the restart.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { parcelFee, rulesClient } from '../helpers/rules.ts';
import { startQuietRuntime } from '../helpers/runtime.ts';

it('sends the schedules kept in DATA_DIR to the local scheduler again at start', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rules-restart-'));
  const first = await startQuietRuntime({ dataDir });
  try {
    const rules = rulesClient(api(first));
    await rules.published(parcelFee('kept'));
    const saved = await api(first)('/dev/v1/rule/kept/schedule', { method: 'POST', body: JSON.stringify({ unit: 'hour', spec: { minute: '15' } }) });
    expect(saved.status).toBe(200);
  } finally {
    await first.close();
  }
  const second = await startQuietRuntime({ dataDir });
  try {
    expect(second.scheduler.endpoint.schedules()).toEqual([
      expect.objectContaining({ GroupName: 'rules.demo', Name: 'kept__main', ScheduleExpression: 'cron(15 * * * ? *)' }),
    ]);
    expect(new Date(second.scheduler.local.nextRun('rules.demo', 'kept__main')!).getUTCMinutes()).toBe(15);
  } finally {
    await second.close();
  }
}, 60_000);
