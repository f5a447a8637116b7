/**
 * The pieces the definition schemas of rules and workflows share, in
 * zod/mini. zod/mini carries no messages of its own: the English locale is
 * loaded here (imported alone, as its namespace would bring every locale),
 * so that every issue says what is wrong.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { feelLimits } from '../engine/feel/limits.ts';
import { noControlCharacters } from './patterns.ts';
import { entityIdPattern } from './kinds.ts';
import { Decimal } from '../decimal/decimal.ts';

z.config(en());

/**
 * A number a caller gave: a double, or a `Decimal` where the JSON's digits say
 * more than a double holds (request bodies are read exactly: lib/decimal/json.ts).
 * Described as a number in the OpenAPI document.
 */
const decimal = z.custom<Decimal>((value) => value instanceof Decimal, 'must be a number');
z.globalRegistry.add(decimal, { type: 'number' } as never);
export const exactNumber = z.union([z.number(), decimal]);

/** Names that must never become keys of a context: they would reach an object's prototype. */
export const reservedNames: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The id of an entity, a step, a row or an entry. */
export const entityId = z.string().check(z.regex(entityIdPattern, 'letters, digits, ".", "_" or "-", starting with a letter or digit, at most 128 characters'));

/** FEEL text: an expression (a condition, an input column, a computed value) or a cell's unary tests. */
export const feelText = z.string().check(z.minLength(1), z.maxLength(feelLimits.maxLength));

/** A name a value goes by (an output, a declared input, a context entry): no control characters, no prototype names. */
export const valueName = z.string().check(
  z.minLength(1),
  z.maxLength(200),
  z.regex(noControlCharacters, 'must not contain control characters'),
  z.refine((name) => !reservedNames.has(name), 'must not be __proto__, constructor or prototype'),
);
