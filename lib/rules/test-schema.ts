/** The test operation's request body (zod/mini); the parts it shares with execute are in ./schema.ts. */
import * as z from 'zod/mini';
import { definitionBounds } from '../entities/authoring-schema.ts';
import { boundedJsonObject } from '../vocabulary/json-bounds.ts';
import { runBody, version } from './schema.ts';

export const testSchema = runBody({
  version: version('a published version (such as v1) to test instead of the draft'),
  checksum: z
    .optional(z.string().check(z.maxLength(64, { error: 'must be a checksum as the get returns it' })))
    .register(z.globalRegistry, { description: 'the checksum of what you mean to test, as you last read it: refused (409) when it is no longer that' }),
  definition: z.optional(
    boundedJsonObject(
      definitionBounds,
      'rules only: the draft as typed, tested instead of the stored draft, as a save would take it (400 naming each field at fault) and never stored',
    ),
  ),
}).check(
  // What is tested is named once: the typed definition has no stored checksum or version to hold it to.
  z.superRefine((body, ctx) => {
    if (body.definition === undefined) return;
    for (const field of ['version', 'checksum'] as const)
      if (body[field] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: 'give definition (the draft as typed) or a stored draft or version to test, not both',
          input: body,
        });
  }),
);
export type TestRequest = z.output<typeof testSchema>;
