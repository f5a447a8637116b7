/**
 * `npx tsx test/bench/rule-startup.ts [runs] [passes]`: only the bundles and
 * start-up of the functions that run rules against the floor, measured as
 * `npm run bench` measures them (fresh processes taking turns, the passes
 * pooled), without the rest of the bench, which takes far longer. Prints the
 * table RESULTS.md gives for them; writes nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundles } from './bundles.ts';
import { ruleBundleTable, ruleFunctionNames, ruleStartupPasses } from './execute-report.ts';
import { measureStartup } from './startup.ts';

const runs = Number(process.argv[2] ?? 21);
const passCount = Number(process.argv[3] ?? ruleStartupPasses);

const outDir = await mkdtemp(join(tmpdir(), 'rules-startup-'));
try {
  const { floor, functions } = await buildBundles(outDir, ruleFunctionNames);
  const bundles = [floor, ...functions];
  const passes: Record<string, number[]>[] = [];
  for (let pass = 1; pass <= passCount; pass++) {
    console.log(`pass ${pass} of ${passCount}: ${runs} processes per bundle`);
    const samples = measureStartup(
      bundles.map((b) => b.file),
      runs,
    );
    passes.push(Object.fromEntries(bundles.map((b) => [b === floor ? 'floor' : b.name, samples.get(b.file)!])));
  }
  console.log(ruleBundleTable({ floor, functions, passes }));
} finally {
  await rm(outDir, { recursive: true, force: true });
}
