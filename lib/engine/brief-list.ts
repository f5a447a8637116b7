/**
 * Lists in messages, kept short: a problem that names what is allowed or
 * what was found (declared inputs, allowed values, unknown fields) must not
 * grow with the definition or the request, or one refusal could outgrow the
 * 6 MB a Lambda function may answer.
 */

/** At most this many items are named; the rest are counted. */
export const maxListed = 20;
/** An item longer than this is cut, with "…". */
export const maxItemLength = 64;

/**
 * The items joined by ", ", the first `maxListed` named, each cut to `maxItemLength` characters, then "and N more".
 *
 * @example
 * briefList(['a', 'b']); // 'a, b'
 * briefList(Array.from({ length: 25 }, (_, i) => `x${i}`)); // 'x0, x1, …, x19 and 5 more'
 */
export function briefList(items: readonly string[]): string {
  const named = items.slice(0, maxListed).map((item) => (item.length > maxItemLength ? `${item.slice(0, maxItemLength - 1)}…` : item));
  const more = items.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}
