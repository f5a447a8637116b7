/** The ZIP bounds an XLSX file is held to before exceljs opens it: inflated size, ratio, entries, and no DOCTYPE in any part. */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ImportBoundExceeded } from '../../lib/interchange/format-contract.ts';
import { checkZipBounds, type ZipBounds } from '../../lib/interchange/zip-bounds.ts';

const bounds: ZipBounds = { maxZipEntries: 1000, maxUnzippedBytes: 64 * 1024 * 1024, maxZipRatio: 200 };

function refusal(archive: Uint8Array, given: ZipBounds = bounds) {
  try {
    checkZipBounds(archive, given);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportBoundExceeded);
    const { bound, status, message } = error as ImportBoundExceeded;
    return { bound, status, message };
  }
  throw new Error('the archive was not refused');
}

/** Text a workbook part might hold: repetitive, as XML is, but far from a bomb's ratio. */
const xmlLike = (bytes: number) =>
  strToU8(
    Array.from({ length: Math.ceil(bytes / 24) }, (_, i) => `<c r="A${i}"><v>${(i * 7919) % 1000}</v></c>`)
      .join('')
      .slice(0, bytes),
  );

describe('checkZipBounds', () => {
  it('reads an ordinary archive and answers its entries', () => {
    const archive = zipSync({ '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types/>'), 'xl/worksheets/sheet1.xml': xmlLike(50_000) });
    expect(checkZipBounds(archive, bounds)).toEqual(['[Content_Types].xml', 'xl/worksheets/sheet1.xml']);
  });

  it('stops a zip bomb: one highly compressible entry, past the ratio', () => {
    const archive = zipSync({ 'xl/worksheets/sheet1.xml': new Uint8Array(16 * 1024 * 1024) }, { level: 9 });
    expect(archive.length).toBeLessThan(20_000);
    expect(refusal(archive)).toEqual({
      bound: 'maxZipRatio',
      status: 400,
      message: 'xl/worksheets/sheet1.xml inflates more than 200 times its compressed size: the archive looks like a zip bomb.',
    });
  });

  it('stops past the inflated total, whatever the sizes the headers declare', () => {
    const archive = zipSync({ a: xmlLike(40_000), b: xmlLike(40_000) });
    // The declared sizes are made small: the count is of the bytes inflated.
    const view = new DataView(archive.buffer);
    for (let at = 0; at < archive.length - 4; at++) if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 10, true);
    expect(refusal(archive, { ...bounds, maxUnzippedBytes: 60_000 }).bound).toBe('maxUnzippedBytes');
  });

  it('inflates every entry of the directory, as the reader would, even entries that share their data', () => {
    const single = zipSync({ 'xl/worksheets/sheet1.xml': xmlLike(30_000) });
    const view = new DataView(single.buffer);
    const end = single.length - 22;
    const directoryOffset = view.getUint32(end + 16, true);
    const entry = single.slice(directoryOffset, end);
    const copies = 5;
    const overlapping = new Uint8Array(directoryOffset + entry.length * copies + 22);
    overlapping.set(single.subarray(0, directoryOffset));
    for (let i = 0; i < copies; i++) overlapping.set(entry, directoryOffset + i * entry.length);
    const record = single.slice(end);
    const recordView = new DataView(record.buffer);
    recordView.setUint16(8, copies, true);
    recordView.setUint16(10, copies, true);
    recordView.setUint32(12, entry.length * copies, true);
    overlapping.set(record, directoryOffset + entry.length * copies);
    expect(checkZipBounds(overlapping, bounds)).toHaveLength(copies);
    expect(refusal(overlapping, { ...bounds, maxUnzippedBytes: 100_000 }).bound).toBe('maxUnzippedBytes');
  });

  it('refuses more entries than the bound, before inflating any', () => {
    const archive = zipSync(Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`xl/media/${i}.txt`, strToU8('x')])));
    expect(refusal(archive)).toEqual({ bound: 'maxZipEntries', status: 400, message: 'The archive has 1001 entries; at most 1000 are read.' });
  });

  it.each([
    ['a DOCTYPE', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><Types/>', 'utf-8'],
    ['an ENTITY, in lower case', '<!entity a SYSTEM "file:///etc/passwd">', 'utf-8'],
    ['a DOCTYPE in UTF-16', '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE x SYSTEM "http://example.com/x.dtd"><Types/>', 'utf-16le'],
  ])('refuses a part holding %s', (_, text, encoding) => {
    const bytes = encoding === 'utf-8' ? strToU8(text) : new Uint8Array(Array.from(text).flatMap((c) => [c.charCodeAt(0), 0]));
    const archive = zipSync({ 'xl/workbook.xml': strToU8('<workbook/>'), '[Content_Types].xml': new Uint8Array([...xmlLike(5000), ...bytes]) });
    expect(refusal(archive)).toEqual({
      bound: 'doctype',
      status: 400,
      message: '[Content_Types].xml holds a DOCTYPE or ENTITY declaration, which a workbook never needs (and XML external entities could reach outside).',
    });
  });

  it('refuses what is not a ZIP archive, and archives it does not read', () => {
    expect(refusal(strToU8('Column,input,output\n'))).toMatchObject({ bound: 'format', message: 'Not a readable XLSX workbook: it is not a ZIP archive.' });
    const archive = zipSync({ 'a.xml': xmlLike(1000) });
    const view = new DataView(archive.buffer);
    const directory = view.getUint32(archive.length - 22 + 16, true);
    view.setUint16(directory + 10, 12, true);
    expect(refusal(archive)).toMatchObject({ bound: 'format', message: 'Not a readable XLSX workbook: a.xml is compressed by a method other than deflate.' });
    view.setUint16(directory + 10, 8, true);
    view.setUint16(directory + 8, 1, true);
    expect(refusal(archive)).toMatchObject({ bound: 'format', message: 'Not a readable XLSX workbook: a.xml is encrypted.' });
    expect(refusal(archive.subarray(0, 40))).toMatchObject({ bound: 'format' });
  });
});
