/**
 * A published rule's prepared form (its FEEL parsed once, `lib/engine/prepared.ts`)
 * as kept with the version: JSON, gzipped and base64-encoded, which makes it
 * several times smaller than the definition text it came from. Executing a
 * version compiles this form, so the execute function needs no FEEL parser.
 * zlib is part of Node: nothing is added to a bundle.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { PreparedRule } from '../engine/index.ts';

export const packPrepared = (prepared: PreparedRule): string => gzipSync(JSON.stringify(prepared)).toString('base64');

export const unpackPrepared = (packed: string): PreparedRule => JSON.parse(gunzipSync(Buffer.from(packed, 'base64')).toString('utf8')) as PreparedRule;
