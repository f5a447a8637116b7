/**
 * Builds every API function, and a floor bundle holding only the DynamoDB
 * client, with the stack's own esbuild settings (`functionBuildOptions`), so
 * the sizes and start-up times measured are those of the deployed bundles.
 * A bundle's size is what a cold start loads (the entry file and the chunks
 * it imports statically); the chunks only `import()` reaches are counted apart.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { entryFile, functionBuildOptions } from '../../cdk/bundling.ts';
import { routeList } from '../../lib/api/routes.ts';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface Bundle {
  name: string;
  file: string;
  /** What a cold start loads: the entry file and the chunks it imports statically. */
  bytes: number;
  /** Bytes each input file contributes to what a cold start loads, by input path. */
  inputs: Record<string, number>;
  /** Bytes of the chunks it loads only when a call needs them (the workflow code of the run functions), not loaded at start. */
  lazyBytes: number;
}

export const floorName = 'floor';

/** What every function does at the least: load the DynamoDB client and make one at module scope. */
const floorSource = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
export const client = new DynamoDBClient({});
`;

async function bundle(name: string, entry: Pick<BuildOptions, 'entryPoints' | 'stdin'>, outDir: string): Promise<Bundle> {
  const dir = join(outDir, name);
  const { metafile } = await build(functionBuildOptions(entry, dir, repoRoot));
  const outputs = metafile.outputs;
  const entryPath = Object.keys(outputs).find((path) => path.endsWith(`/${entryFile}`))!;
  // What a cold start loads: the entry file and the chunks it imports statically, transitively.
  const eager = new Set<string>();
  for (const pending = [entryPath]; pending.length;) {
    const path = pending.pop()!;
    if (eager.has(path)) continue;
    eager.add(path);
    for (const imported of outputs[path]!.imports) if (imported.kind === 'import-statement' && outputs[imported.path]) pending.push(imported.path);
  }
  const inputs: Record<string, number> = {};
  let bytes = 0;
  let lazyBytes = 0;
  for (const [path, output] of Object.entries(outputs)) {
    if (!path.endsWith('.mjs')) continue;
    if (!eager.has(path)) {
      lazyBytes += output.bytes;
      continue;
    }
    bytes += output.bytes;
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) inputs[input] = (inputs[input] ?? 0) + bytesInOutput;
  }
  return { name, file: join(dir, entryFile), bytes, inputs, lazyBytes };
}

/** The floor and one bundle per function the route table deploys, or per function `only` names. */
export async function buildBundles(outDir: string, only?: readonly string[]): Promise<{ floor: Bundle; functions: Bundle[] }> {
  const floor = await bundle(floorName, { stdin: { contents: floorSource, resolveDir: repoRoot, sourcefile: 'floor.ts', loader: 'ts' } }, outDir);
  const handlers = [...new Set(routeList.map((route) => route.handler))].filter((handler) => !only || only.includes(handler));
  const functions: Bundle[] = [];
  for (const handler of handlers) functions.push(await bundle(handler, { entryPoints: [join(repoRoot, 'functions', `${handler}.ts`)] }, outDir));
  return { floor, functions };
}

/** The package an input belongs to (the innermost node_modules entry), or its directory for the project's own files. */
export function packageOf(inputPath: string): string {
  const inPackage = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(inputPath);
  if (inPackage) return inPackage[1]!;
  const slash = inputPath.lastIndexOf('/');
  return slash < 0 ? inputPath : inputPath.slice(0, slash);
}

/** Output bytes of a bundle summed by package. */
export function bytesByPackage(bundle: Bundle): Map<string, number> {
  const totals = new Map<string, number>();
  for (const [path, bytes] of Object.entries(bundle.inputs)) totals.set(packageOf(path), (totals.get(packageOf(path)) ?? 0) + bytes);
  return totals;
}

/** The installed version of a dependency, for the record of what was measured. */
export async function installedVersion(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}
