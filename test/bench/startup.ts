/**
 * Start-up time: a fresh Node process per sample, timing only the import of
 * the bundle (module evaluation included), as a cold Lambda loads its handler.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/**
 * The child's environment, made from scratch: the parent runs under tsx, whose
 * loader flags must not reach the child, and module-scope code needs a table
 * name, a region and (dummy) credentials to get as far as it would on Lambda.
 */
const childEnv = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  TABLE_NAME: 'bench',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  POWERTOOLS_LOG_LEVEL: 'ERROR',
};

function importTimeMs(file: string): number {
  const script = `const started = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - started));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: childEnv, encoding: 'utf8', timeout: 30_000 });
  const ms = Number(child.stdout);
  if (child.status !== 0 || !Number.isFinite(ms)) throw new Error(`importing ${file} failed (status ${child.status}): ${child.stderr || child.error}`);
  return ms;
}

/**
 * `runs` import times per file. The files take turns, one process at a time,
 * so that a slow spell of the machine touches every bundle alike instead of
 * skewing whichever was being measured then.
 */
export function measureStartup(files: readonly string[], runs: number): Map<string, number[]> {
  const samples = new Map(files.map((file) => [file, [] as number[]]));
  for (let run = 0; run < runs; run++) for (const file of files) samples.get(file)!.push(importTimeMs(file));
  return samples;
}
