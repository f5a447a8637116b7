/**
 * Builds every API function, and a floor bundle holding only the DynamoDB
 * client, with the stack's own esbuild settings, so the sizes and start-up
 * times measured are those of the deployed bundles.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { bundling } from '../../cdk/bundling.ts';
import { routeList } from '../../lib/http/routes.ts';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface Bundle {
  name: string;
  file: string;
  bytes: number;
  /** Bytes each input file contributes to the minified output, by input path. */
  inputs: Record<string, number>;
}

export const floorName = 'floor';

/** What every function does at the least: load the DynamoDB client and make one at module scope. */
const floorSource = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
export const client = new DynamoDBClient({});
`;

/** cdk/bundling.ts in esbuild's terms (the CDK passes the banner as a string). */
const settings: BuildOptions = {
  bundle: true,
  minify: bundling.minify,
  format: bundling.format,
  target: bundling.target,
  platform: bundling.platform,
  mainFields: [...bundling.mainFields],
  external: [...bundling.external],
  banner: { js: bundling.banner },
  absWorkingDir: repoRoot,
  metafile: true,
  logLevel: 'warning',
};

async function bundle(name: string, entry: Pick<BuildOptions, 'entryPoints' | 'stdin'>, outDir: string): Promise<Bundle> {
  const file = join(outDir, `${name}.mjs`);
  const { metafile } = await build({ ...settings, ...entry, outfile: file });
  const output = Object.values(metafile!.outputs)[0]!;
  const inputs = Object.fromEntries(Object.entries(output.inputs).map(([path, { bytesInOutput }]) => [path, bytesInOutput]));
  return { name, file, bytes: output.bytes, inputs };
}

/** The floor and one bundle per function the route table deploys. */
export async function buildBundles(outDir: string): Promise<{ floor: Bundle; functions: Bundle[] }> {
  const floor = await bundle(floorName, { stdin: { contents: floorSource, resolveDir: repoRoot, sourcefile: 'floor.ts', loader: 'ts' } }, outDir);
  const handlers = [...new Set(routeList.map((route) => route.handler))];
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
