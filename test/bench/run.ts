/**
 * `npm run bench`: bundle size and start-up of every function against a
 * DynamoDB-client-only floor (the functions that run rules again in further
 * passes; `npx tsx test/bench/rule-startup.ts` times those alone), warm list
 * latency against a bare query, warm execute latency against a bare GetItem
 * and evaluation (execute-latency.ts), the DynamoDB reads of a list call at
 * growing sizes, and the time and DynamoDB writes of remote pulls of 1,000
 * rules, and the rules engine's speed against zen-engine and json-rules-engine
 * (engine.ts; `npm run bench:engine` runs that section alone), what exact
 * numbers cost on the request path (numbers.ts; `npm run bench:numbers`), and workflows
 * against the rule they run and a bare fetch (workflows.ts; `npm run
 * bench:workflows` alone), a batch execute of 1,000 inputs against 1,000
 * single executes, in process and over HTTP (batch.ts; `npm run bench:batch`
 * alone), what a person's ID token adds to a warm execute against a key
 * (person-token.ts; `npm run bench:sign-in` alone), and the local runtime
 * under 50 concurrent clients (load.ts, in a process of its own; `npm run
 * bench:load` alone; its errors make the run exit 1), and replay's
 * throughput (replay.ts, in a process of its own; `npm run bench:replay`
 * alone). Prints the tables and writes them, with the method, to
 * test/bench/RESULTS.md. Not a test: vitest does not collect it.
 */
// First: sets the log level before any module that loads the logger is evaluated (see log-level.ts).
import './log-level.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { version as esbuildVersion } from 'esbuild';
import { logger } from '../../lib/logging/logger.ts';
import type { Store } from '../../lib/store/types.ts';
import { bareReads } from './bare-query.ts';
import { batchMarkdown, measureBatch } from './batch.ts';
import { measureSignIn, signInMarkdown } from './person-token.ts';
import { branchFor, loadBranch, startBenchTable } from './bench-table.ts';
import { buildBundles, installedVersion, repoRoot } from './bundles.ts';
import { capacityReplayer } from './capacity.ts';
import { engineMarkdown, engineSummary, measureEngines } from './engine.ts';
import { loadExecuteFunction } from './execute-call.ts';
import { measureExecuteLatency } from './execute-latency.ts';
import { ruleFunctionNames, ruleStartupPasses, type ExecuteSettings } from './execute-report.ts';
import { loadListFunction } from './list-call.ts';
import { measureListLatency, type LatencyFigures } from './list-latency.ts';
import { loadMarkdown, measureLoadApart } from './load.ts';
import { measurePulls } from './pull.ts';
import { measureReads, type ReadFigures } from './reads.ts';
import { resultsMarkdown, summary, type Results } from './report.ts';
import { meterRequests } from './request-meter.ts';
import { measureStartup } from './startup.ts';
import { measureNumbers, numbersMarkdown } from './numbers.ts';
import { measureWorkflows, workflowsMarkdown } from './workflows.ts';
import { measureReplayApart, replayMarkdown } from './replay.ts';

const startupRuns = 21;
const latencySizes = [1_000, 10_000];
const readSizes = [1_000, 10_000, 100_000];
const latencyOptions = { warmup: 50, calls: 300, maxMs: 60_000 };
/** More calls than the list's, as p99 is reported too: with 3 × 1,000 calls it is the 30th slowest. */
const executeOptions: ExecuteSettings = { warmup: 100, calls: 1_000, maxMs: 60_000, passes: 3 };

const started = new Date();
const log = (message: string) => console.log(`[bench +${((Date.now() - started.getTime()) / 1000).toFixed(0)} s] ${message}`);

async function bundlesAndStartup() {
  const outDir = await mkdtemp(join(tmpdir(), 'rules-bench-'));
  try {
    log('bundling');
    const { floor, functions } = await buildBundles(outDir);
    log(`timing start-up: ${startupRuns} processes per bundle`);
    const samples = measureStartup(
      [floor, ...functions].map((b) => b.file),
      startupRuns,
    );
    const figures = (bundle: typeof floor) => ({ bundle, startupMs: samples.get(bundle.file)! });
    // The functions that run rules again, alone with the floor, to see how far their ratios move from pass to pass.
    const ruleBundles = ruleFunctionNames.map((name) => functions.find((f) => f.name === name) ?? floor);
    if (ruleBundles.includes(floor))
      throw new Error(`the route table has no function named ${ruleFunctionNames.filter((name) => !functions.some((f) => f.name === name)).join(', ')}`);
    const passes: Record<string, number[]>[] = [];
    for (let pass = 1; pass <= ruleStartupPasses; pass++) {
      log(`timing start-up of the functions that run rules, pass ${pass} of ${ruleStartupPasses}: ${startupRuns} processes per bundle`);
      const passSamples = measureStartup(
        [floor, ...ruleBundles].map((b) => b.file),
        startupRuns,
      );
      passes.push(Object.fromEntries([floor, ...ruleBundles].map((b) => [b === floor ? 'floor' : b.name, passSamples.get(b.file)!])));
    }
    return { floor: figures(floor), functions: functions.map(figures), ruleFunctions: { floor, functions: ruleBundles, passes } };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

async function loadSize(store: Store, entities: number) {
  log(`loading ${entities.toLocaleString('en-US')} entities`);
  const ms = await loadBranch(store, entities);
  log(`  ${(ms / 1000).toFixed(1)} s`);
  return { entities, ms, rssBytes: process.memoryUsage().rss };
}

async function main() {
  const bundles = await bundlesAndStartup();
  // CPU-bound: before the embedded DynamoDB starts and the branches fill the heap.
  const engines = await measureEngines(log);
  const numbers = measureNumbers(log);
  const load = await measureLoadApart(log);
  const replay = await measureReplayApart(log);

  const table = await startBenchTable();
  const list = await loadListFunction(table.apiKey);
  const execute = await loadExecuteFunction(table.apiKey);
  // The figures are reported at this level; a logger made before it was set would log every call.
  if (logger.getLevelName() !== process.env.POWERTOOLS_LOG_LEVEL!.toUpperCase())
    throw new Error(`the functions log at ${logger.getLevelName()}, not ${process.env.POWERTOOLS_LOG_LEVEL}: the logger loaded before log-level.ts ran`);
  const bare = bareReads(table.config);
  const meter = meterRequests(table.config.endpoint);
  const replayer = capacityReplayer(table.config.endpoint);
  try {
    // Before any branch is loaded: the execute function's table holds only its rules, and the heap is small.
    log('warm execute latency');
    const executeFigures = await measureExecuteLatency(execute, table.store, table.config, meter, replayer, executeOptions, log);
    const workflows = await measureWorkflows(log, table);
    const batch = await measureBatch(log, table);
    const signIn = await measureSignIn(log, table);

    const loads = [];
    for (const entities of latencySizes) loads.push(await loadSize(table.store, entities));

    const latency: LatencyFigures[] = [];
    for (const entities of latencySizes) {
      log(`warm latency at ${entities.toLocaleString('en-US')} entities`);
      latency.push(await measureListLatency(list, table.store, bare, entities, latencyOptions));
    }

    // Before the 100k branch is loaded, for the same reason as latency: its memory would add garbage-collection time.
    const pull = await measurePulls(table.store, meter, log);

    for (const entities of readSizes.filter((n) => !latencySizes.includes(n))) loads.push(await loadSize(table.store, entities));

    const reads: ReadFigures[] = [];
    for (const entities of readSizes) {
      log(`metering reads at ${entities.toLocaleString('en-US')} entities`);
      reads.push(...(await measureReads(list, meter, replayer, branchFor(entities), entities)));
    }

    const cpu = cpus();
    const results: Results = {
      startedAt: started,
      durationMs: Date.now() - started.getTime(),
      machine: `Node ${process.version}, ${platform()} ${release()}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
      versions: `esbuild ${esbuildVersion}, @aws-sdk/client-dynamodb ${await installedVersion('@aws-sdk/client-dynamodb')}, dynalite ${await installedVersion('dynalite')}`,
      settings: {
        startupRuns,
        ...latencyOptions,
        logLevel: process.env.POWERTOOLS_LOG_LEVEL!,
        directoryCacheTtl: process.env.DIRECTORY_CACHE_TTL_MS ? `${process.env.DIRECTORY_CACHE_TTL_MS} ms (DIRECTORY_CACHE_TTL_MS)` : '30 s (the default)',
      },
      floor: bundles.floor,
      functions: bundles.functions,
      ruleFunctions: bundles.ruleFunctions,
      execute: { ...executeFigures, settings: executeOptions },
      loads,
      latency,
      reads,
      pull,
    };
    await writeFile(
      join(repoRoot, 'test/bench/RESULTS.md'),
      `${resultsMarkdown(results)}\n${engineMarkdown(engines)}\n\n${numbersMarkdown(numbers)}\n${workflowsMarkdown(workflows)}\n\n${batchMarkdown(batch)}\n\n${signInMarkdown(signIn)}\n\n${loadMarkdown(load)}\n\n${replayMarkdown(replay)}\n`,
    );
    console.log(
      `\n${summary(results)}\n\n${engineSummary(engines)}\n\n${workflowsMarkdown(workflows)}\n\n${batchMarkdown(batch)}\n\n${signInMarkdown(signIn)}\n\n${loadMarkdown(load)}\n`,
    );
    if (load.problems.length) process.exitCode = 1;
    log(`done in ${(results.durationMs / 1000).toFixed(0)} s; written to test/bench/RESULTS.md`);
  } finally {
    replayer.close();
    bare.close();
    await table.dynamo.close();
  }
}

await main();
