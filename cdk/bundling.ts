/**
 * How every function is bundled, shared by the stack (NodejsFunction) and the
 * benchmark (esbuild directly), so the measured bundles are the deployed ones.
 */
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
