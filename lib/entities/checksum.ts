import { createHash } from 'node:crypto';
import { Decimal } from '../decimal/decimal.ts';
import type { EntityInput } from './schema.ts';

/** JSON with object keys sorted, so equal content always hashes alike (a Decimal is a number: its digits). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Decimal)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The content checksum: what decides whether a write or a pull changes anything. */
export function entityChecksum(input: EntityInput): string {
  const { name, description, type, tags, definition } = input;
  return sha256(canonicalJson({ name, description, type, tags, definition }));
}
