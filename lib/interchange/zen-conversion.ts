/**
 * GoRules zen's expression language to FEEL and back, for the JDM format
 * (`./jdm.ts`): what both directions share. The two languages are close:
 * both compare, add, call `date(...)`, test ranges `[1..10]` and lists. They
 * differ where a regular expression cannot follow them, so both directions go
 * through syntax trees: FEEL text is read by the engine's parser
 * (`lib/engine/feel/parse.ts`), zen text by zen's (`./zen-syntax.ts`), and
 * each tree is printed in the other language (`./zen-print.ts`). The two
 * directions are `./zen-to-feel.ts` and `./feel-to-zen.ts`; this module holds
 * their result, the failure either raises, and the functions both languages
 * have.
 *
 * What differs, and what the two directions decide:
 * - A cell. zen reads a cell as tests joined by `,`, `or` and `and`, taken left
 *   to right with no precedence (`a or b and c` is `(a or b) and c`), each test
 *   either a comparison that starts with its operator (`> 5`), a value the input
 *   is compared with (`'gold'`, `$`), a list or interval the input is looked up
 *   in (`[1, 2]`, `[1..5]`), or a condition on `$` (the input: FEEL's `?`).
 *   zen cannot group `and` and `or` with brackets in a cell, so a FEEL cell whose
 *   conditions nest them other than left to right has no zen equivalent.
 *   FEEL's `not(a, b)` is written `!= a and != b` (or `not(... )` of each test).
 * - Strings. zen's have no escapes: a string ends at its next quote, `'`, `"`
 *   or a backtick. A string holding all three is written as a sum of parts.
 * - Names of functions: `len` is FEEL's `string length` or `count` (told by the
 *   argument's type where it is known, else both, chosen when it runs), `upper`
 *   is `upper case`, `startsWith` is `starts with`, `ceil` is `ceiling`, `avg`
 *   is `mean`, `round(x)` is `round half up(x, 0)`; zen's `date(...)` holds a
 *   date and time, so a date literal is `date("2025-01-31")` in both.
 * - Indexes: zen counts from 0, FEEL from 1.
 * - zen's `%` takes the dividend's sign and FEEL's `modulo` the divisor's; zen's
 *   `len` of a string counts UTF-8 bytes, FEEL characters; zen's `matches` reads
 *   Rust's regular expressions, FEEL XPath's. Each is converted and noted.
 *
 * What has no equivalent (closures over `#`, methods such as `.year()`, template
 * strings with `${...}`, FEEL's `for`, `some`, `instance of`, filters,
 * durations and times) is refused with the reason: an import lists it as a
 * problem; an export carries the FEEL text beside the cell (see `./jdm.ts`).
 */
import type { Expr } from '../engine/feel/ast.ts';
import { freeNames } from '../engine/feel/names.ts';
import { FeelSyntaxError } from '../engine/feel/parse.ts';

/** A conversion: the text in the other language, with what differs in meaning noted; or why there is none. */
export type Conversion = { ok: true; text: string; notes: string[] } | { ok: false; reason: string };

/** Why a text has no equivalent in the other language. */
export class NoEquivalent extends Error {}

/** Functions named alike, or differently, with the same meaning: [zen, FEEL]. */
export const sameFunctions: [string, string][] = [
  ['date', 'date'],
  ['upper', 'upper case'],
  ['lower', 'lower case'],
  ['startsWith', 'starts with'],
  ['endsWith', 'ends with'],
  ['matches', 'matches'],
  ['abs', 'abs'],
  ['floor', 'floor'],
  ['ceil', 'ceiling'],
  ['avg', 'mean'],
  ['median', 'median'],
  ['sum', 'sum'],
  ['min', 'min'],
  ['max', 'max'],
  ['string', 'string'],
  ['number', 'number'],
];

/** Whether a FEEL expression reads `?`. */
export const readsInput = (e: Expr): boolean => freeNames(e).has('?');

/** Runs one conversion: its text and the notes it made, or the reason there is none (zen's or FEEL's text unreadable included). */
export function converted(run: (notes: Set<string>) => string): Conversion {
  const notes = new Set<string>();
  try {
    return { ok: true, text: run(notes), notes: [...notes] };
  } catch (error) {
    if (error instanceof NoEquivalent) return { ok: false, reason: error.message };
    if (error instanceof FeelSyntaxError) return { ok: false, reason: `FEEL this engine cannot read: ${error.message}` };
    throw error;
  }
}
