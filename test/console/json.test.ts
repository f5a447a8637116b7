/**
 * JSON typed into the console's forms reaches the API with the digits typed:
 * read by the exact reader, held as a `Decimal` where a double would round,
 * and written back as its digits by the API client's body serializer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Decimal } from '../../lib/decimal/decimal.ts';
import { createApi } from '../../lib/console/web/api.ts';
import { canonicalJson, isJsonObject, parseObject, parseValue, pretty, sameJson } from '../../lib/console/web/ui/json.ts';

const typed = '{"amount": 12345678901234567.89, "count": 3}';

describe('typed JSON', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("keeps a 19-digit number's digits from the form's text to the request the API receives", async () => {
    const sent: string[] = [];
    vi.stubGlobal('location', { origin: 'http://127.0.0.1' });
    vi.stubGlobal('fetch', async (request: Request) => {
      sent.push(await request.text());
      return Response.json({ data: { output: {}, trace: [], durationMs: 1 } });
    });
    const api = createApi(
      () => ({ apiKey: 'key', branch: '' }),
      () => undefined,
    );
    const params = parseObject(typed);
    expect(params.ok).toBe(true);
    if (!params.ok) return;
    // What the test form does with typed params: the body of POST /test.
    await api.data(
      api.client.POST('/dev/v1/{entityType}/{entityId}/test', {
        params: { path: { entityType: 'rule', entityId: 'pricing' } },
        body: { params: params.value, checksum: 'c' },
      }),
    );
    expect(sent).toEqual(['{"params":{"amount":12345678901234567.89,"count":3},"checksum":"c"}']);
    // The plain reader would have sent another number.
    expect(JSON.stringify(JSON.parse(typed))).toContain('12345678901234568');
  });

  it('holds a number a double would round as a Decimal, and every other one as a double', () => {
    const parsed = parseValue('[12345678901234567.89, 0.1, 42]');
    expect(parsed.ok && parsed.value).toEqual([expect.any(Decimal), 0.1, 42]);
    expect(pretty(parsed.ok && parsed.value)).toBe('[\n  12345678901234567.89,\n  0.1,\n  42\n]');
  });

  it('takes an exact number for a number, not for an object', () => {
    expect(parseObject('12345678901234567.89')).toEqual({ ok: false, error: 'Must be a JSON object, such as {"age": 30}.' });
    expect(isJsonObject(new Decimal(1234567890123456789n, -2))).toBe(false);
    expect(parseValue('{"amount": 1,}').ok).toBe(false);
  });

  it('compares exact numbers by their digits', () => {
    const a = parseValue('{"b": 12345678901234567.89, "a": 1}');
    const b = parseValue('{"a": 1, "b": 12345678901234567.89}');
    const c = parseValue('{"a": 1, "b": 12345678901234567.88}');
    expect(a.ok && canonicalJson(a.value)).toBe('{"a":1,"b":12345678901234567.89}');
    expect(a.ok && b.ok && sameJson(a.value, b.value)).toBe(true);
    expect(a.ok && c.ok && sameJson(a.value, c.value)).toBe(false);
  });
});
