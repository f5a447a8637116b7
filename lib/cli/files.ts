import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImportSource } from '../publishing/import.ts';
import { parseJson } from '../decimal/json.ts';
import { formatOfFileName, formats } from '../interchange/format-registry.ts';
import type { ImportedFile } from '../interchange/transfer.ts';

/** The files at the given paths that `wanted` takes, walking directories (hidden entries skipped) in name order; a file named is taken as it is. */
async function filesAt(paths: string[], wanted: (name: string) => boolean): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (!(await stat(path)).isDirectory()) files.push(path);
    else {
      const entries = (await readdir(path, { withFileTypes: true })).filter((e) => !e.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name));
      files.push(
        ...(await filesAt(
          entries.filter((e) => e.isDirectory() || wanted(e.name)).map((e) => join(path, e.name)),
          wanted,
        )),
      );
    }
  }
  return files;
}

/** Files of every format an import reads (DMN, XLSX, CSV, JDM or this service's JSON), by extension. */
export async function readInterchangeFiles(paths: string[]): Promise<ImportedFile[]> {
  const files: ImportedFile[] = [];
  for (const name of await filesAt(paths, (file) => formatOfFileName(file) !== undefined)) {
    const format = formatOfFileName(name);
    if (!format) throw new Error(`${name}: not a file an import reads (${[...new Set(Object.values(formats).flatMap((f) => f.extensions))].join(', ')})`);
    files.push({ name, bytes: await readFile(name), format });
  }
  return files;
}

/** One JSON file's content. */
export async function readJsonFile(file: string): Promise<unknown> {
  try {
    return parseJson(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
  }
}

/** Records to import: each file holds one record or an array of them. */
export async function readImportSources(paths: string[]): Promise<ImportSource[]> {
  const sources: ImportSource[] = [];
  for (const file of await filesAt(paths, (name) => name.endsWith('.json'))) {
    const content = await readJsonFile(file);
    if (Array.isArray(content)) content.forEach((item, i) => sources.push({ origin: `${file}[${i}]`, content: item }));
    else sources.push({ origin: file, content });
  }
  return sources;
}
