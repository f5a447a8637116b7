/**
 * Renaming a name that FEEL text reads, as a refactoring does: when the
 * console renames a workflow step, the expressions that read the step's
 * result follow. Only reads of the name in its scope change: a loop
 * variable, a context entry or a filter's `item` that hides it, a path's
 * member (`order.quote`), a string or a comment stay as they are.
 */
import { freeReads } from './names.ts';
import { FeelSyntaxError, parseExpressionWithSpans } from './parse.ts';

function readsOf(text: string, names: readonly string[]) {
  try {
    const { expr, spans } = parseExpressionWithSpans(text, names);
    return freeReads(expr, { intoFilters: true }).map((read) => ({ name: read.name, span: spans.get(read)! }));
  } catch (error) {
    if (error instanceof FeelSyntaxError) return undefined;
    throw error;
  }
}

/**
 * `text` with every read of the name `from` written as `to`. Text that does
 * not parse, or that the new name would not read back the same (a name
 * that another name's words would swallow), is given back as it is, for
 * the save to name.
 *
 * @param names the names in scope before the rename, `from` among them: what lets names such as "risk-score" parse
 * @example
 * renameReads('quote.total > 100 and (for quote in quotes return quote.total) != []', 'quote', 'offer', ['quote', 'quotes'])
 * // 'offer.total > 100 and (for quote in quotes return quote.total) != []'
 */
export function renameReads(text: string, from: string, to: string, names: readonly string[]): string {
  const reads = readsOf(text, names);
  if (!reads?.some((read) => read.name === from)) return text;
  let renamed = text;
  for (const { name, span } of [...reads].reverse()) {
    if (name !== from) continue;
    const written = text.slice(span.from, span.to);
    const start = span.from + written.length - written.trimStart().length;
    const end = span.to - (written.length - written.trimEnd().length);
    renamed = renamed.slice(0, start) + to + renamed.slice(end);
  }
  const after = readsOf(renamed, [...names.filter((name) => name !== from), to]);
  const expected = reads.map((read) => (read.name === from ? to : read.name));
  return after && after.length === expected.length && after.every((read, i) => read.name === expected[i]) ? renamed : text;
}
