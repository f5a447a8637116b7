/** The round trip every format promises: an entity it can hold, written then read, is the very entity, with the same checksum. */
import { expect } from 'vitest';
import { entityChecksum } from '../../lib/entities/checksum.ts';
import type { EntityInput } from '../../lib/entities/schema.ts';
import type { Format, WrittenFile } from '../../lib/interchange/format-contract.ts';
import { canonical } from './arbitrary.ts';

/** Checks the round trip of `entity` in `format`, and what `checkFile` checks of the file written (a format's own demands). */
export async function expectRoundTrip(format: Format, entity: EntityInput, checkFile?: (file: WrittenFile) => Promise<void>): Promise<void> {
  expect(format.cannotHold(entity)).toBeUndefined();
  const file = await format.write(entity);
  const reading = await format.read(file.body, file.fileName);
  expect(reading.problems).toEqual([]);
  expect(reading.notCarried).toEqual([]);
  expect(reading.records).toHaveLength(1);
  const back = canonical(reading.records[0]);
  expect(back).toEqual(entity);
  expect(entityChecksum(back)).toBe(entityChecksum(entity));
  await checkFile?.(file);
}
