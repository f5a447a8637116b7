/** The test operation's request body (zod/mini); the parts it shares with execute are in ./schema.ts. */
import * as z from 'zod/mini';
import { runBody, version } from './schema.ts';

export const testSchema = runBody({
  version: version('a published version (such as v1) to test instead of the draft'),
  checksum: z
    .optional(z.string().check(z.maxLength(64, { error: 'must be a checksum as the get returns it' })))
    .register(z.globalRegistry, { description: 'the checksum of what you mean to test, as you last read it: refused (409) when it is no longer that' }),
});
export type TestRequest = z.output<typeof testSchema>;
