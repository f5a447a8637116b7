import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImportSource } from '../entities/import.ts';
import { parseJson } from '../decimal/json.ts';

/** The JSON files at the given paths, walking directories (hidden entries skipped) in name order. */
async function jsonFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (!(await stat(path)).isDirectory()) files.push(path);
    else {
      const entries = (await readdir(path, { withFileTypes: true })).filter((e) => !e.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name));
      files.push(...(await jsonFiles(entries.filter((e) => e.isDirectory() || e.name.endsWith('.json')).map((e) => join(path, e.name)))));
    }
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
  for (const file of await jsonFiles(paths)) {
    const content = await readJsonFile(file);
    if (Array.isArray(content)) content.forEach((item, i) => sources.push({ origin: `${file}[${i}]`, content: item }));
    else sources.push({ origin: file, content });
  }
  return sources;
}
