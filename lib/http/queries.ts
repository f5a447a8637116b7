/** Request schemas every kind of operation shares (zod/mini, as in every API function); a list's paging is in ./paging.ts. */
import * as z from 'zod/mini';
import { briefList } from '../engine/brief-list.ts';

/** A date and time as ISO 8601 text (or any form Date.parse reads), kept as given: a new schema each call, so that each field registers its own description. */
export const instant = () => z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)), 'must be a date and time (ISO 8601)'));

/** For operations that take no query parameters: any given are ignored. */
export const emptyQuery = z.object({});

/** The problem of a body with fields its operation does not know, naming them (a few, however many were sent). */
export const unknownFields = (keys: readonly string[]) => `unknown fields: ${briefList(keys)}`;

/** A JSON object body whose unknown fields are refused by name: a misspelt "valeu" must not pass unnoticed. */
export const strictBody = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownFields(issue.keys) : 'must be a JSON object'),
  });
