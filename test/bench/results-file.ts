/** RESULTS.md, where `npm run bench` writes every section and a bench run alone puts its own in place of the last run's. */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const resultsFile = fileURLToPath(new URL('RESULTS.md', import.meta.url));

/** Puts `section` (markdown starting with `heading`) where the section with that heading was, or at the end. */
export async function putSection(heading: string, section: string): Promise<void> {
  let existing = '';
  try {
    existing = await readFile(resultsFile, 'utf8');
  } catch {
    // No results yet: the section alone.
  }
  const at = existing.indexOf(`\n${heading}`);
  const next = at < 0 ? -1 : existing.indexOf('\n## ', at + 1);
  const updated =
    at < 0 ? `${existing.trimEnd()}${existing ? '\n\n' : ''}${section}` : `${existing.slice(0, at + 1)}${section}${next < 0 ? '' : existing.slice(next)}`;
  await writeFile(resultsFile, updated);
}
