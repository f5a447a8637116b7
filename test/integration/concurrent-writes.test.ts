/**
 * Writers racing for one item: each read-modify-write tries again after a
 * random, growing wait when another got in between, and a write that keeps
 * losing answers 409 write_conflict (which a client may retry), never a 500.
 * Ten concurrent rotations of one credential answered 500 to three of them
 * (issue 11).
 */
import { expect, it } from 'vitest';
import { expectEnvelope } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

it('ten concurrent rotations of one credential all end well: 200, or 409 write_conflict, and the value is one of theirs', async () => {
  const created = await t.api<{ id: string }>('/dev/v1/credentials', {
    method: 'POST',
    body: JSON.stringify({
      name: 'raced',
      type: 'apiKey',
      key: 'X-Api-Key',
      placement: 'header',
      value: 'first-value-0000',
      allowedHosts: ['api.example.com'],
    }),
  });
  expect(created.status).toBe(201);
  const values = Array.from({ length: 10 }, (_, i) => `rotated-value-${String(i).padStart(4, '0')}`);
  const answers = await Promise.all(
    values.map((value) => t.api<{ valueHint: string }>(`/dev/v1/credentials/${created.body.data.id}`, { method: 'PATCH', body: JSON.stringify({ value }) })),
  );
  for (const answer of answers) {
    expectEnvelope(answer);
    expect([200, 409]).toContain(answer.status);
    if (answer.status === 409) expect(answer.body.code).toBe('write_conflict');
  }
  expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
  const hint = (await t.api<{ valueHint: string }>(`/dev/v1/credentials/${created.body.data.id}`)).body.data.valueHint;
  expect(values.map((v) => `••••${v.slice(-4)}`)).toContain(hint);
});
