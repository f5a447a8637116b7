/**
 * A ZIP archive (an XLSX workbook) held to the import bounds before any
 * library opens it: a zip bomb inflates a few kilobytes into gigabytes, and
 * an XML part with a DOCTYPE can declare entities that expand or reach
 * outside (XXE). The sizes an archive declares are the attacker's to write,
 * so none is trusted: every entry is inflated here, with a streaming
 * inflater fed a little at a time, counting the bytes it gives and stopping
 * at once past a bound.
 *
 * The walk follows the central directory, as the XLSX reader (JSZip) does:
 * entries that share or overlap their data (the "better zip bomb") are each
 * inflated and counted, as that reader would. Archives this walk does not
 * read (ZIP64, several disks, encryption, compression other than deflate)
 * are refused: no spreadsheet under the size bound needs them.
 */
import { Inflate } from 'fflate';
import { importBounds, ImportBoundExceeded } from './format-contract.ts';

export type ZipBounds = Pick<typeof importBounds, 'maxZipEntries' | 'maxUnzippedBytes' | 'maxZipRatio'>;

/** Compressed bytes handed to the inflater at a time: deflate inflates at most about 1,000 times, so a push gives at most a few megabytes. */
const pushBytes = 4096;

const endOfDirectorySignature = 0x06054b50;
const directoryEntrySignature = 0x02014b50;
const localHeaderSignature = 0x04034b50;
/** The end-of-directory record is 22 bytes, followed by a comment of at most 65,535. */
const endOfDirectoryLength = 22;

/** The bytes kept from one inflated chunk to the next, so that a declaration split between them is seen (in UTF-16 too). */
const carriedBytes = 2 * '<!DOCTYPE'.length;

/**
 * Whether the bytes hold a DOCTYPE or ENTITY declaration, in any case. NUL bytes are passed over, so UTF-16 text is
 * caught too; the scan looks only at each `<`, which the engine finds natively, so megabytes of a part cost little.
 */
function holdsDeclaration(bytes: Uint8Array): boolean {
  for (let at = bytes.indexOf(0x3c); at >= 0; at = bytes.indexOf(0x3c, at + 1)) {
    let word = '';
    for (let i = at + 1; i < bytes.length && word.length < 8; i++) if (bytes[i] !== 0) word += String.fromCharCode(bytes[i]!);
    if (word[0] !== '!') continue;
    const upper = word.toUpperCase();
    if (upper.startsWith('!DOCTYPE') || upper.startsWith('!ENTITY')) return true;
  }
  return false;
}

const refuse = (message: string) => new ImportBoundExceeded('format', `Not a readable XLSX workbook: ${message}.`);

/**
 * Inflates every entry of the archive, counting, and throws ImportBoundExceeded past a bound or for a part
 * holding a DOCTYPE or ENTITY declaration. Answers the entries' names.
 */
export function checkZipBounds(archive: Uint8Array, bounds: ZipBounds = importBounds): string[] {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const within = (at: number, length: number) => at >= 0 && at + length <= archive.length;

  let end = archive.length - endOfDirectoryLength;
  const lowest = Math.max(0, end - 0xffff);
  while (end >= lowest && !(within(end, 4) && u32(end) === endOfDirectorySignature)) end--;
  if (end < lowest) throw refuse('it is not a ZIP archive');
  const entryCount = u16(end + 10);
  const directoryOffset = u32(end + 16);
  if (u16(end + 4) !== 0 || u16(end + 6) !== 0 || u16(end + 8) !== entryCount) throw refuse('the archive spans several disks');
  if (entryCount === 0xffff || directoryOffset === 0xffffffff) throw refuse('ZIP64 archives are not read');
  if (entryCount > bounds.maxZipEntries)
    throw new ImportBoundExceeded('maxZipEntries', `The archive has ${entryCount} entries; at most ${bounds.maxZipEntries} are read.`);

  const names: string[] = [];
  const decoder = new TextDecoder();
  let total = 0;
  for (let i = 0, at = directoryOffset; i < entryCount; i++) {
    if (!within(at, 46) || u32(at) !== directoryEntrySignature) throw refuse('its directory is cut short');
    const flags = u16(at + 8);
    const method = u16(at + 10);
    const compressedSize = u32(at + 20);
    const nameLength = u16(at + 28);
    const localOffset = u32(at + 42);
    if (!within(at + 46, nameLength)) throw refuse('its directory is cut short');
    const name = decoder.decode(archive.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + u16(at + 30) + u16(at + 32);
    if (flags & 1) throw refuse(`${name} is encrypted`);
    if (method !== 0 && method !== 8) throw refuse(`${name} is compressed by a method other than deflate`);
    if (!within(localOffset, 30) || u32(localOffset) !== localHeaderSignature) throw refuse(`the data of ${name} is missing`);
    const dataStart = localOffset + 30 + u16(localOffset + 26) + u16(localOffset + 28);
    if (!within(dataStart, compressedSize)) throw refuse(`the data of ${name} is cut short`);
    const data = archive.subarray(dataStart, dataStart + compressedSize);

    const entryLimit = bounds.maxZipRatio * Math.max(compressedSize, 1);
    let inflated = 0;
    let carried = new Uint8Array(0);
    const take = (chunk: Uint8Array) => {
      inflated += chunk.length;
      total += chunk.length;
      if (total > bounds.maxUnzippedBytes)
        throw new ImportBoundExceeded('maxUnzippedBytes', `The archive inflates to more than ${bounds.maxUnzippedBytes} bytes; at most that is read.`);
      if (inflated > entryLimit)
        throw new ImportBoundExceeded(
          'maxZipRatio',
          `${name} inflates more than ${bounds.maxZipRatio} times its compressed size: the archive looks like a zip bomb.`,
        );
      const scanned = new Uint8Array(carried.length + chunk.length);
      scanned.set(carried);
      scanned.set(chunk, carried.length);
      if (holdsDeclaration(scanned))
        throw new ImportBoundExceeded(
          'doctype',
          `${name} holds a DOCTYPE or ENTITY declaration, which a workbook never needs (and XML external entities could reach outside).`,
        );
      carried = scanned.slice(-carriedBytes);
    };
    if (method === 0) take(data);
    else {
      const inflater = new Inflate(take);
      try {
        for (let from = 0; from < data.length || from === 0; from += pushBytes)
          inflater.push(data.subarray(from, from + pushBytes), from + pushBytes >= data.length);
      } catch (error) {
        if (error instanceof ImportBoundExceeded) throw error;
        throw refuse(`${name} is not valid deflate data (${(error as Error).message})`);
      }
    }
    names.push(name);
  }
  return names;
}
