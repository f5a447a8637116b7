/**
 * How every function is bundled, shared by the stack and the benchmark, so
 * the measured bundles are the deployed ones. Code a function imports with
 * `import()` (the workflow code of the functions that run rules and
 * workflows) goes to a chunk of its own: a cold start then neither evaluates
 * nor parses it until the first call that needs it.
 */
import type { BuildOptions } from 'esbuild';

export const lambdaTarget = 'node22';

export const bundling = {
  minify: true,
  format: 'esm',
  target: lambdaTarget,
  platform: 'node',
  // Prefer ES module builds: they tree-shake, which keeps the AWS SDK small.
  mainFields: ['module', 'main'],
  // Bundle the SDK clients too, so deployed versions are the pinned ones.
  external: [] as string[],
  // Some CommonJS dependencies call require(); an ES module bundle must provide it.
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
} as const;

/** The entry point Lambda loads: `index.mjs`, whose `handler` export the functions' Handler `index.handler` names. */
export const entryFile = 'index.mjs';

/**
 * What bundles one function into `outdir`: `index.mjs` and, when it imports
 * code lazily, `chunks/*.mjs` (for esbuild's build, or buildSync where the
 * caller cannot wait, as CDK's local bundling).
 */
export function functionBuildOptions(
  entry: Pick<BuildOptions, 'entryPoints' | 'stdin'>,
  outdir: string,
  absWorkingDir: string,
): BuildOptions & { metafile: true } {
  return {
    ...entry,
    bundle: true,
    splitting: true,
    minify: bundling.minify,
    format: bundling.format,
    target: bundling.target,
    platform: bundling.platform,
    mainFields: [...bundling.mainFields],
    external: [...bundling.external],
    banner: { js: bundling.banner },
    outdir,
    entryNames: 'index',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    absWorkingDir,
    metafile: true,
    logLevel: 'warning',
  };
}
