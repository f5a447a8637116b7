/**
 * Import and export through the local runtime, as curl would call them: a
 * rule exported in each format comes back unchanged when imported, an import
 * creates drafts from a file sent with its content type, replaces a draft
 * only with its checksum, writes nothing on a dry run or a bad file, and each
 * bound is answered 400 or 413 naming it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { entityChecksum } from '../../lib/entities/checksum.ts';
import { entityInputSchema } from '../../lib/entities/schema.ts';
import { formatFiles, formatNames, importBounds } from '../../lib/interchange/format-contract.ts';
import { addBranch } from '../../lib/workspaces/admin.ts';
import { expectFailure } from '../helpers/envelope.ts';
import { parcelFee, rulesClient, simple, type Json } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
let rules: ReturnType<typeof rulesClient>;

interface ImportAnswer {
  dryRun: boolean;
  records: { id: string; action: string; checksum: string; previousChecksum?: string; checksumRequired?: boolean; record?: Json }[];
  problems: { path: string; message: string }[];
  notCarried: { path: string; message: string }[];
}

const checksumOf = (record: Json) => entityChecksum(entityInputSchema.parse(record));

/** An export's answer: its status, headers and the file's bytes. */
const exported = async (id: string, format: string, options: { query?: Record<string, string>; branch?: string } = {}) => {
  const response = await t.api(`/dev/v1/rule/${id}/export`, { query: { format, ...options.query }, ...(options.branch && { branch: options.branch }) });
  expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
  return { headers: response.headers, bytes: response.body as unknown as Buffer };
};

const importing = (bytes: Uint8Array | string, contentType: string, query: Record<string, string> = {}, branch?: string) =>
  t.api<ImportAnswer>('/dev/v1/rule/import', {
    method: 'POST',
    body: typeof bytes === 'string' ? bytes : new Uint8Array(bytes),
    headers: { 'Content-Type': contentType },
    query,
    ...(branch && { branch }),
  });

/** A table with something of every kind a format must carry: labels, allowed values, a default, row ids and descriptions, a test case. */
const discount = (id: string, overrides: Json = {}): Json => ({
  id,
  name: `Discount ${id}`,
  description: 'By customer type and order size',
  tags: ['pricing', 'import'],
  type: 'decisionTable',
  definition: {
    hitPolicy: 'priority',
    inputs: [
      { id: 'customer', label: 'Customer type', expression: 'customer.type', type: 'string' },
      { id: 'size', label: 'Order size', expression: 'order.total', type: 'number' },
    ],
    outputs: [{ id: 'rate', label: 'Rate', name: 'rate', type: 'number', allowedValues: [0.15, 0.1, 0.05, 0], default: 0 }],
    rules: [
      { id: 'gold-large', description: 'Our best customers', when: ['"gold"', '>= 1000'], then: [0.15] },
      { id: 'gold', when: ['"gold"', '-'], then: [0.1] },
      { id: 'silver', when: ['"silver","bronze"', '[100..1000)'], then: [0.05] },
    ],
    tests: [{ name: 'gold, large', params: { customer: { type: 'gold' }, order: { total: 2000 } }, expected: { rate: 0.15 } }],
    ...overrides,
  },
});

beforeAll(async () => {
  rules = rulesClient(t.api);
  expect((await rules.create(discount('discount'))).status).toBe(201);
  expect((await rules.create(simple('flat-shipping', { when: 'order.total >= 50', then: { shippingFee: 0 }, otherwise: { shippingFee: 4.9 } }))).status).toBe(
    201,
  );
  await addBranch(t.runtime.store, 'demo', 'imports');
});

describe('export then import', () => {
  it.each(formatNames)('gives back the same rule and checksum in %s', async (format) => {
    const file = await exported('discount', format);
    expect(file.headers.get('content-type')).toBe(formatFiles[format].contentType);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="discount${formatFiles[format].extensions[0]}"`);
    const again = await importing(file.bytes, formatFiles[format].contentType, { dryRun: 'true' });
    expect(again.status).toBe(200);
    expect(again.body.data.problems).toEqual([]);
    expect(again.body.data.records).toEqual([expect.objectContaining({ id: 'discount', action: 'unchanged', checksum: checksumOf(discount('discount')) })]);
  });

  it('exports a published version, and refuses a version that does not exist', async () => {
    const { checksum } = (await rules.get('flat-shipping')).body.data as { checksum: string };
    expect((await t.api('/dev/v1/rule/flat-shipping/publish', { method: 'POST', body: JSON.stringify({ checksum }) })).status).toBe(201);
    const file = await exported('flat-shipping', 'dmn', { query: { version: 'v1' } });
    expect(file.bytes.toString('utf8')).toContain('https://www.omg.org/spec/DMN/20230324/MODEL/');
    expectFailure(await t.api('/dev/v1/rule/flat-shipping/export', { query: { format: 'dmn', version: 'v9' } }), 404, 'version_not_found');
  });

  it("writes DMN with 1.3's namespaces for Camunda Modeler and dmn-js, and reads it back the same", async () => {
    const file = await exported('discount', 'dmn', { query: { dmnVersion: '1.3' } });
    expect(file.bytes.toString('utf8')).toContain('xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/"');
    expect(file.bytes.toString('utf8')).not.toContain('20230324');
    const again = await importing(file.bytes, 'application/xml', { dryRun: 'true' });
    expect(again.body.data.records).toEqual([expect.objectContaining({ id: 'discount', action: 'unchanged' })]);
  });

  it('refuses a rule the format cannot hold, saying why', async () => {
    const answer = await t.api('/dev/v1/rule/flat-shipping/export', { query: { format: 'xlsx' } });
    expectFailure(answer, 400, 'format_cannot_hold');
  });
});

describe('import', () => {
  it('creates drafts from a file sent with its content type, and a second import leaves them as they are', async () => {
    const file = await exported('discount', 'csv');
    const created = await importing(file.bytes, 'text/csv', {}, 'imports');
    expect(created.status).toBe(201);
    expect(created.body.data.records).toEqual([expect.objectContaining({ id: 'discount', action: 'create' })]);
    const stored = await t.api<{ checksum: string; createdBy: string }>('/dev/v1/rule/discount', { branch: 'imports' });
    expect(stored.body.data.checksum).toBe(checksumOf(discount('discount')));
    const again = await importing(file.bytes, 'text/csv', {}, 'imports');
    expect(again.status).toBe(200);
    expect(again.body.data.records[0]!.action).toBe('unchanged');
  });

  it('replaces a draft with other content only with its checksum, and never a stale one', async () => {
    expect((await rules.create(discount('replaced', { hitPolicy: 'first' }))).status).toBe(201);
    const before = ((await rules.get('replaced')).body.data as { checksum: string }).checksum;
    // The same id with other content on another branch: its export is the file.
    const source = await t.api('/dev/v1/rule', { method: 'POST', body: JSON.stringify(discount('replaced')), branch: 'imports' });
    expect(source.status).toBe(201);
    const sheet = (await exported('replaced', 'xlsx', { branch: 'imports' })).bytes;
    const dry = await importing(sheet, formatFiles.xlsx.contentType, { dryRun: 'true' });
    expect(dry.body.data.records).toEqual([expect.objectContaining({ id: 'replaced', action: 'replace', previousChecksum: before, checksumRequired: true })]);
    expect(dry.body.data.records[0]!.record).toMatchObject({ definition: { hitPolicy: 'priority' } });
    expectFailure(await importing(sheet, formatFiles.xlsx.contentType), 409, 'checksum_required');
    expectFailure(await importing(sheet, formatFiles.xlsx.contentType, { checksum: `replaced:${'0'.repeat(64)}` }), 409, 'checksum_mismatch');
    expect(((await rules.get('replaced')).body.data as { checksum: string }).checksum).toBe(before);
    const replaced = await importing(sheet, formatFiles.xlsx.contentType, { checksum: before });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.records[0]).toMatchObject({ action: 'replace' });
    expect(((await rules.get('replaced')).body.data as unknown as { definition: Json }).definition).toMatchObject({ hitPolicy: 'priority' });
  });

  it('writes nothing for a file with problems: a dry run lists them, the import refuses them', async () => {
    const broken = discount('broken', { rules: [{ id: 'r', when: ['>>> 5', '-'], then: [0.05] }] });
    const body = JSON.stringify(broken);
    const dry = await importing(body, 'application/json', { dryRun: 'true' });
    expect(dry.status).toBe(200);
    expect(dry.body.data.problems).toEqual([expect.objectContaining({ path: expect.stringContaining('definition.rules[0].when[0]') })]);
    expectFailure(await importing(body, 'application/json'), 400, 'import_refused');
    expectFailure(await rules.get('broken'), 404, 'entity_not_found');
  });

  it('answers 415 for a type it does not read, unless the format is named', async () => {
    const dmn = (await exported('discount', 'dmn')).bytes;
    expectFailure(await importing(dmn, 'text/plain', { dryRun: 'true' }), 415, 'unsupported_media_type');
    expect((await importing(dmn, 'application/octet-stream', { dryRun: 'true', format: 'dmn' })).status).toBe(200);
  });

  it('answers 413 for a file past the size bound, and 400 naming the bound for a DTD', async () => {
    expectFailure(await importing(new Uint8Array(importBounds.maxFileBytes + 1).fill(32), 'text/csv'), 413, 'file_too_large');
    const xxe = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/">&x;</definitions>`;
    const refused = await importing(xxe, 'application/xml');
    expectFailure(refused, 400, 'file_refused');
    expect(refused.body.data).toEqual({ bound: 'doctype' });
  });

  it('refuses the id "import", which the import operation\'s path takes', async () => {
    const answer = await rules.create(parcelFee('import'));
    expectFailure(answer, 400, 'invalid_request');
  });
});
