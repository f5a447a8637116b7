/**
 * @gorules/zen-engine for the bench only, kept out of package.json: its
 * optional native packages for other platforms are not all on the registry
 * this project installs from, so listing it would leave a lock file that
 * `npm ci` refuses. The bench fetches the package and this platform's native
 * binding with `npm pack` (registry tarballs, no install scripts) into an
 * ignored cache folder once, and loads it from there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const zenVersion = '0.54.0';

const cache = fileURLToPath(new URL(`../../.cache/bench/zen-engine-${zenVersion}/`, import.meta.url));

/** The native binding's package for this machine (the bench runs on linux x64 here; glibc assumed on Linux). */
const bindingPackage = () => `@gorules/zen-engine-${platform()}-${arch()}${platform() === 'linux' ? '-gnu' : ''}`;

function fetchPackage(name: string) {
  const target = join(cache, 'node_modules', name);
  if (existsSync(join(target, 'package.json'))) return;
  mkdirSync(target, { recursive: true });
  const tarball = execFileSync('npm', ['pack', `${name}@${zenVersion}`, '--silent', '--pack-destination', cache], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()!;
  execFileSync('tar', ['-xzf', join(cache, tarball), '-C', target, '--strip-components=1']);
}

/** The part of zen-engine's API the bench uses (its own types come with the package, which typechecking does not have). */
export interface ZenDecision {
  evaluate(input: object): Promise<{ result: unknown }>;
}
export interface ZenEngine {
  createDecision(content: object): ZenDecision;
  dispose(): void;
}

/** The zen-engine module, fetched on first use. */
export function loadZenEngine(): { ZenEngine: new () => ZenEngine } {
  fetchPackage('@gorules/zen-engine');
  fetchPackage(bindingPackage());
  return createRequire(join(cache, 'node_modules', '@gorules', 'zen-engine', 'package.json'))('@gorules/zen-engine') as { ZenEngine: new () => ZenEngine };
}
