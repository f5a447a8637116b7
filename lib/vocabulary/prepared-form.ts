/**
 * A published version's prepared form (its FEEL parsed once: a rule's
 * `lib/engine/prepared.ts`, a workflow's parsed expressions) as kept with the
 * version: JSON, gzipped and base64-encoded, which makes it several times
 * smaller than the definition text it came from. Running a version compiles
 * this form, so the execute functions need no FEEL parser. zlib is part of
 * Node: nothing is added to a bundle.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { parseJson } from '../decimal/json.ts';

export const packPrepared = <T>(prepared: T): string => gzipSync(JSON.stringify(prepared)).toString('base64');

export const unpackPrepared = <T>(packed: string): T => parseJson(gunzipSync(Buffer.from(packed, 'base64')).toString('utf8')) as T;
