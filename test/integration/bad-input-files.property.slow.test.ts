/**
 * Bad input, as a property over the import operation: hostile files of every
 * format sent over real HTTP to the local runtime, with their own content
 * types and with the wrong ones. Zip bombs (one entry inflating thousands of
 * times, and many entries), XML with DTDs, external entities and billion
 * laughs, XML and JSON nested past any sane depth, CSV with a huge field or
 * thousands of columns, bytes that are not UTF-8, and the service's own
 * exports cut short or with bytes flipped.
 *
 * Whatever comes in: the answer is an envelope the contract documents (the
 * `api` helper checks it against lib/openapi/openapi.json), never a 5xx,
 * within a few seconds, and the branch holds what it held before unless the
 * import answered that it created or replaced drafts.
 *
 * Every loop is bounded in count and time; the runtime is on loopback.
 */
import fc from 'fast-check';
import { zipSync } from 'fflate';
import { beforeAll, expect, it } from 'vitest';
import { formatFiles, formatNames, importBounds, type FormatName } from '../../lib/interchange/format-contract.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

const limits = { runs: 300, timeMs: 40_000, answerMs: 15_000 } as const;

/** The service's own exports of a demo decision table: the valid files the mutations start from. */
const exports = {} as Record<FormatName, Buffer>;

beforeAll(async () => {
  const list = await t.api<{ id: string; type: string }[]>('/dev/v1/rule', { query: { type: 'decisionTable', pageSize: 1 } });
  const [table] = list.body.data;
  for (const format of formatNames) {
    const file = await t.api(`/dev/v1/rule/${table!.id}/export`, { query: { format } });
    expect(file.status).toBe(200);
    exports[format] = file.body as unknown as Buffer;
  }
}, 60_000);

const text = (value: string) => Buffer.from(value, 'utf8');
const zip = (entries: Record<string, Uint8Array>) => Buffer.from(zipSync(entries, { level: 9 }));
const dmnOpen = '<?xml version="1.0" encoding="UTF-8"?>\n<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" id="d" name="d">';

/** Hostile files, each once: the ones a property's random mutations would rarely reach. */
const hostile: { name: string; bytes: () => Buffer }[] = [
  { name: 'zip bomb: one entry inflating 64 MB of zeros', bytes: () => zip({ 'xl/worksheets/sheet1.xml': new Uint8Array(64 * 1024 * 1024) }) },
  {
    name: 'zip of many entries',
    bytes: () => zip(Object.fromEntries(Array.from({ length: importBounds.maxZipEntries + 5 }, (_, i) => [`xl/f${i}.xml`, text('<a/>')]))),
  },
  {
    name: 'xlsx with a DTD in a part',
    bytes: () => zip({ '[Content_Types].xml': text('<?xml version="1.0"?><!DOCTYPE t [<!ENTITY e "x">]><Types>&e;</Types>') }),
  },
  {
    name: 'dmn with an external entity',
    bytes: () => text(`<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>${dmnOpen}&x;</definitions>`),
  },
  {
    name: 'dmn billion laughs',
    bytes: () =>
      text(
        `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]>${dmnOpen}&lol9;</definitions>`,
      ),
  },
  { name: 'dmn nested 100,000 deep', bytes: () => text(`${dmnOpen}${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</definitions>`) },
  { name: 'json nested 100,000 deep', bytes: () => text(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) },
  {
    name: 'jdm of 10,000 nodes',
    bytes: () => text(JSON.stringify({ nodes: Array.from({ length: 10_000 }, (_, i) => ({ id: `n${i}`, type: 'inputNode' })), edges: [] })),
  },
  { name: 'csv with a 3 MB field', bytes: () => text(`Rule,a\nName,"${'x'.repeat(3 * 1024 * 1024)}"\n`) },
  { name: 'csv of 5,000 columns', bytes: () => text(`${Array.from({ length: 5_000 }, (_, i) => `c${i}`).join(',')}\n`) },
  { name: 'csv of 20,000 rows', bytes: () => text(`Column,input\n${'-\n'.repeat(20_000)}`) },
  { name: 'bytes that are not UTF-8', bytes: () => Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1]) },
  { name: 'empty', bytes: () => Buffer.alloc(0) },
];

const contentType = fc.constantFrom(...formatNames.map((format) => formatFiles[format].contentType), 'text/xml', 'application/octet-stream', 'text/plain', '');

/** A valid export cut short, with bytes flipped, or with a slice repeated: files that are almost right. */
const mutated: fc.Arbitrary<{ format: FormatName; bytes: Buffer }> = fc
  .record({
    format: fc.constantFrom(...formatNames),
    kind: fc.constantFrom('cut', 'flip', 'repeat'),
    at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    length: fc.integer({ min: 1, max: 2000 }),
    byte: fc.integer({ min: 0, max: 255 }),
  })
  .map(({ format, kind, at, length, byte }) => {
    const source = exports[format];
    const offset = Math.floor(at * source.length);
    if (kind === 'cut') return { format, bytes: source.subarray(0, offset) };
    if (kind === 'flip') {
      const copy = Buffer.from(source);
      for (let i = offset; i < Math.min(copy.length, offset + length); i += 97) copy[i] = byte;
      return { format, bytes: copy };
    }
    return { format, bytes: Buffer.concat([source.subarray(0, offset), source.subarray(offset, offset + length).fill(byte, 0, 1), source.subarray(offset)]) };
  });

/** The drafts of the branch, by id and checksum: what a refused import must leave as it was. */
async function branchState(): Promise<string> {
  const list = await t.api<{ id: string; updatedAt: string }[]>('/dev/v1/rule', { query: { pageSize: 100 } });
  return JSON.stringify(list.body.data.map((rule) => [rule.id, rule.updatedAt]));
}

async function sendFile(bytes: Buffer, type: string, query: Record<string, string> = {}) {
  const started = Date.now();
  const answer = await t.api<{ records?: { action: string }[] }>('/dev/v1/rule/import', {
    method: 'POST',
    body: new Uint8Array(bytes),
    headers: type ? { 'Content-Type': type } : {},
    query,
  });
  expect(Date.now() - started, 'answered in time').toBeLessThan(limits.answerMs);
  expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBeLessThan(500);
  return answer;
}

it('refuses each hostile file with a 4xx naming why, writing nothing', async () => {
  const before = await branchState();
  for (const file of hostile)
    for (const format of formatNames) {
      const answer = await sendFile(file.bytes(), formatFiles[format].contentType);
      expect([400, 413, 415], `${file.name} as ${format}: ${answer.status} ${answer.body.message}`).toContain(answer.status);
      expect(answer.body.message, file.name).not.toBe('');
    }
  expect(await branchState()).toBe(before);
}, 120_000);

it('answers every almost-valid file with an envelope the contract documents, never a 5xx, and writes only what it says it wrote', async () => {
  const deadline = Date.now() + limits.timeMs;
  await fc.assert(
    fc.asyncProperty(mutated, contentType, fc.boolean(), async ({ format, bytes }, type, dryRun) => {
      if (Date.now() > deadline) return;
      const before = await branchState();
      const answer = await sendFile(bytes, type, dryRun ? { dryRun: 'true', format } : {});
      const wrote = answer.status < 300 && !dryRun && (answer.body.data.records ?? []).some((record) => record.action !== 'unchanged');
      if (!wrote) expect(await branchState()).toBe(before);
    }),
    { numRuns: limits.runs },
  );
}, 120_000);
