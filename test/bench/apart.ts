/**
 * A bench section in a process of its own: one that starts the local
 * runtime, whose functions keep the store they made on their first call
 * (storeFromEnv), while run.ts's other sections load the same functions
 * against the bench's own table. The script writes its figures, as JSON, to
 * the file its environment names in `variable`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `script` (a file path) with tsx and answers the figures it wrote. */
export async function figuresApart<T>(script: string, variable: string, what: string): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'rules-bench-apart-'));
  const file = join(dir, 'figures.json');
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, [variable]: file }, stdio: 'inherit' });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    const figures = await readFile(file, 'utf8').catch(() => {
      throw new Error(`${what} exited with code ${code} and no figures`);
    });
    return JSON.parse(figures) as T;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
