/** RESULTS.md: the figures, how they were measured, and each target met or missed. */
import { bundling } from '../../cdk/bundling.ts';
import { bytesByPackage, type Bundle } from './bundles.ts';
import type { LatencyFigures } from './list-latency.ts';
import type { ReadFigures } from './reads.ts';
import { median, quantile } from './stats.ts';

/** The targets, as ratios to the floor or to the bare query. */
export const targets = { startup: 1.15, size: 1.5, latency: 1.3 } as const;

export interface BundleFigures {
  bundle: Bundle;
  startupMs: number[];
}

export interface Results {
  startedAt: Date;
  durationMs: number;
  machine: string;
  versions: string;
  settings: { startupRuns: number; warmup: number; calls: number; maxMs: number; logLevel: string; directoryCacheTtl: string };
  floor: BundleFigures;
  functions: BundleFigures[];
  /** Time to load each branch, and the process's resident memory after it. */
  loads: { entities: number; ms: number; rssBytes: number }[];
  latency: LatencyFigures[];
  reads: ReadFigures[];
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(2);
const ratio = (value: number) => `${value.toFixed(2)}×`;
const verdict = (met: boolean) => (met ? 'met' : '**missed**');
const count = (n: number) => n.toLocaleString('en-US');
const requestsOf = (n: number) => `${n} request${n === 1 ? '' : 's'}`;

function table(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

function bundleTable({ floor, functions }: Results): string {
  const floorSize = floor.bundle.bytes;
  const floorStart = median(floor.startupMs);
  const iqr = (samples: number[]) => {
    const [q1, q3] = [quantile(samples, 0.25), quantile(samples, 0.75)];
    return `${ms(q1)}–${ms(q3)} (${ms(q3 - q1)})`;
  };
  const row = ({ bundle, startupMs }: BundleFigures, isFloor: boolean) => {
    const sizeRatio = bundle.bytes / floorSize;
    const startRatio = median(startupMs) / floorStart;
    // The bundles took turns, so run i of a function and run i of the floor ran side by side.
    const paired = startupMs.map((t, i) => t / floor.startupMs[i]!);
    return [
      isFloor ? `${bundle.name} (DynamoDB client only)` : `\`functions/${bundle.name}.ts\``,
      kib(bundle.bytes),
      ratio(sizeRatio),
      isFloor ? '' : verdict(sizeRatio <= targets.size),
      ms(median(startupMs)),
      iqr(startupMs),
      ratio(startRatio),
      isFloor ? '' : `${ratio(quantile(paired, 0.25))}–${ratio(quantile(paired, 0.75))}`,
      isFloor ? '' : verdict(startRatio <= targets.startup),
    ];
  };
  return table(
    [
      'Bundle',
      'Size (KiB)',
      'Size ÷ floor',
      `Size target ≤ ${targets.size}×`,
      'Start-up median (ms)',
      'Start-up IQR (ms): p25–p75 (width)',
      'Start-up ÷ floor (medians)',
      'Per-run start-up ÷ floor, IQR',
      `Start-up target ≤ ${targets.startup}×`,
    ],
    [row(floor, true), ...functions.map((f) => row(f, false))],
  );
}

/** Output KiB by package for every bundle: the packages that make a function bigger than the floor. */
function packageTable({ floor, functions }: Results, shown = 14): string {
  const bundles = [floor, ...functions].map((f) => f.bundle);
  const byPackage = bundles.map(bytesByPackage);
  const largest = (name: string) => Math.max(...byPackage.map((m) => m.get(name) ?? 0));
  const names = [...new Set(byPackage.flatMap((m) => [...m.keys()]))].sort((a, b) => largest(b) - largest(a));
  const top = names.slice(0, shown);
  const rest = (m: Map<string, number>) => [...m].filter(([name]) => !top.includes(name)).reduce((sum, [, bytes]) => sum + bytes, 0);
  return table(
    ['Package (KiB in output)', ...bundles.map((b) => b.name)],
    [
      ...top.map((name) => [`\`${name}\``, ...byPackage.map((m) => kib(m.get(name) ?? 0))]),
      [`${names.length - top.length} other packages and files`, ...byPackage.map((m) => kib(rest(m)))],
      ['bundle total (with banner and glue)', ...bundles.map((b) => kib(b.bytes))],
    ],
  );
}

function largestInputsTable({ functions }: Results, shown = 12): { name: string; text: string } {
  const largest = functions.map((f) => f.bundle).sort((a, b) => b.bytes - a.bytes)[0]!;
  const rows = Object.entries(largest.inputs)
    .sort(([, a], [, b]) => b - a)
    .slice(0, shown)
    .map(([path, bytes]) => [`\`${path.replace(/^.*node_modules\//, '')}\``, kib(bytes)]);
  return { name: largest.name, text: table(['Input file', 'KiB in output'], rows) };
}

/** The handler against the bare query (the target), and the ratios between adjacent layers, whose product it is. */
function latencyTable({ latency }: Results): string {
  const p50p95 = (samples: number[]) => `${ms(median(samples))} / ${ms(quantile(samples, 0.95))}`;
  const over = (a: number[], b: number[]) => ratio(median(a) / median(b));
  return table(
    ['Entities', 'Calls each', 'Handler', 'listEntities', 'Bare Query', 'Handler ÷ Query', `Target ≤ ${targets.latency}×`, 'Handler ÷ listEntities', 'listEntities ÷ Query'],
    latency.map(({ entities, handler, domain, bare }) => [
      count(entities),
      handler.length,
      p50p95(handler),
      p50p95(domain),
      p50p95(bare),
      over(handler, bare),
      verdict(median(handler) / median(bare) <= targets.latency),
      over(handler, domain),
      over(domain, bare),
    ]),
  );
}

function readsTable({ reads }: Results): string {
  return table(
    ['Entities', 'Call', 'Query string', 'Requests', 'By operation', 'Response bytes', 'Items read', 'Read capacity units', 'Wall time, one call (ms)'],
    reads.map((r) => [
      count(r.entities),
      r.scenario,
      `\`${r.query}\``,
      r.requests,
      Object.entries(r.operations).map(([op, n]) => `${op} ${n}`).join(', '),
      count(r.responseBytes),
      count(r.itemsRead),
      count(r.capacityUnits),
      ms(r.ms),
    ]),
  );
}

/** The scaling target: an unfiltered first page costs as many requests at the largest size as at the smallest. */
function firstPageVerdict({ reads }: Results): string {
  const requestsBySize = (scenario: ReadFigures['scenario']) => {
    const rows = reads.filter((r) => r.scenario === scenario).sort((a, b) => a.entities - b.entities);
    return [rows[0]!, rows[rows.length - 1]!] as const;
  };
  const [smallest, largest] = requestsBySize('first page');
  const [smallestDesc, largestDesc] = requestsBySize('first page, descending');
  return [
    `Unfiltered first page: ${requestsOf(smallest.requests)} at ${count(smallest.entities)} entities, ${largest.requests} at ${count(largest.entities)}: target (equal) ${verdict(smallest.requests === largest.requests)}.`,
    `Descending first page (not a target, for comparison): ${requestsOf(smallestDesc.requests)} at ${count(smallestDesc.entities)} entities, ${largestDesc.requests} at ${count(largestDesc.entities)}.`,
  ].join(' ');
}

/** The tables alone: what the run prints. */
export function summary(results: Results): string {
  const inputs = largestInputsTable(results);
  return [
    '### Bundle size and start-up',
    bundleTable(results),
    '### What the bundles hold',
    packageTable(results),
    `Largest input files of the largest bundle (\`${inputs.name}\`):`,
    inputs.text,
    '### Warm list latency against a bare query',
    'Milliseconds, p50 / p95; ratios at p50.',
    latencyTable(results),
    '### DynamoDB reads per list call (warm function)',
    readsTable(results),
    firstPageVerdict(results),
    '### Loading',
    table(
      ['Entities', 'writeEntities (s)', 'Process memory after (MiB, RSS)'],
      results.loads.map(({ entities, ms: t, rssBytes }) => [count(entities), (t / 1000).toFixed(1), (rssBytes / 2 ** 20).toFixed(0)]),
    ),
  ].join('\n\n');
}

export function resultsMarkdown(results: Results): string {
  const { settings: s } = results;
  return `# Benchmark results

Written by \`npm run bench\` (\`test/bench/run.ts\`); every figure below comes from that run. Re-run it to refresh them.

- Run: ${results.startedAt.toISOString()}, ${(results.durationMs / 1000).toFixed(0)} s in all
- Machine: ${results.machine}
- Versions: ${results.versions}

## Method

- **Bundles.** Each function in the route table, and a floor entry that only imports \`DynamoDBClient\` and constructs one client at module scope, is bundled with esbuild's API using the settings in \`cdk/bundling.ts\` (the stack's): minified ES module for \`${bundling.target}\`, \`platform: node\`, \`mainFields: module, main\`, the \`require\` banner, nothing external. Sizes are the output files' bytes (KiB = 1,024 bytes). The package tables come from esbuild's metafile (\`bytesInOutput\` per input).
- **Start-up.** ${s.startupRuns} fresh \`node\` processes per bundle, one at a time, the bundles taking turns (run 1 of every bundle, then run 2 of every bundle, and so on). Each child times only \`await import(bundle)\` with \`performance.now()\` (loading, parsing and evaluating the module) and prints it. The table gives each bundle's median and interquartile range (p25–p75, nearest rank, and its width), the ratio of the function's median to the floor's (the figure the target is judged on), and, because run *i* of a function and run *i* of the floor ran side by side, the p25–p75 of the ${s.startupRuns} per-run ratios, which shows how far the ratio moves with the machine's noise. The children get \`TABLE_NAME\`, \`AWS_REGION\` and dummy credentials and nothing else. The floor's import includes constructing its client, as the issue defines it; the functions make their client lazily, on the first request, so their import does not.
- **Warm latency.** The list function (\`functions/list-entities.ts\`) runs in this process against the embedded DynamoDB (dynalite, in memory, same process). It is called with the API Gateway proxy event the local runtime builds (\`toProxyEvent\`) and a Lambda context, with \`Service-API-Key\` and \`Service-Branch\` headers and \`pageNo=1&pageSize=10\`. Beside it, the domain call the handler makes (\`listEntities\` of \`lib/entities/list.ts\` on a store from the same \`createStore\`), which leaves out the HTTP layer (middy, header normalisation, logging context, authentication and branch lookups from the cache, query validation, envelope). The baseline (bare Query) is a bare DynamoDB query that fetches the same page: one \`QueryCommand\` through a document client made by the same \`createDocumentClient\`, on index GSI1 for the branch's rule partition, key condition \`#pk = :pk AND #sk > :counter\` (\`:counter\` being the counter's index sort key, so the counter item that heads the partition is not read), \`Limit: 10\`, projecting the same summary attributes. For this call the store too makes one request: one Query on GSI1 from the start of the partition with \`Limit: 11\`, whose first item is the counter (its index sort key, \`\\u0001\`, sorts before every entity) and gives the total, and the other ten are the page; it projects the summary attributes plus the index sort key and \`total\`. So the store's Query reads one item more than the bare one (the counter) and projects two attributes more; the rest of the gap is the code around the request. All three probes are checked to return the same ten ids. ${s.warmup} untimed calls of each, then up to ${s.calls} timed calls of each (at most ${s.maxMs / 1000} s), taking turns, the order rotating each round. The target is on handler ÷ bare query at the median. Only the call is timed; events, contexts and commands are built beforehand. Log level \`POWERTOOLS_LOG_LEVEL=${s.logLevel}\` (so the one INFO line per request is not written); directory cache TTL ${s.directoryCacheTtl}, so a warm function looks up key, workspace and branch from memory. Only the 1k and 10k branches exist while latency is measured; the 100k branch is loaded afterwards, so that the memory it takes (see Loading) does not add garbage-collection time to these figures.
- **Reads per call.** Node's HTTP server diagnostics channels count, on dynalite's side, every request one list call causes and its response body bytes (Content-Length); nothing is placed between the function and DynamoDB. Each call is made once unmetered first (warming the directory cache), then once metered. A cold function would add three GetItems (key, workspace, branch). Items read and read capacity units come from sending each metered request again with \`ReturnConsumedCapacity: TOTAL\` (the function does not ask for it); dynalite computes them as DynamoDB does (items read on the index, rounded up to 4 KB per request, half a unit per 4 KB for eventually consistent reads). What the store does for an unfiltered list: ascending (the default), the counter item heads each index partition, so the first page's Query (\`Limit\` page size + 1) returns the total and the page in one request; a later page first skips the offset with Queries projecting only the index sort key and \`total\` (the counter is read with the first of them) and then reads the page. Descending, the counter comes last in the partition, so the store reads it with a GetItem beside the page's Query: two requests for the first page (the descending row, \`sortDir=desc\` on the v1 handler, reports this path). A filtered list reads the whole index partition once, as the total must count the matches. The middle page's offset is half the entities; the name filter matches one entity in ten.
- **Data.** Synthetic rules of the three rule kinds (decision table, rule set, simple rule) with real checksums, loaded per branch (\`size-1000\`, \`size-10000\`, \`size-100000\`) in one table with \`store.writeEntities\`, which batch-writes 25 at a time and then recounts the branch.

## Results

${summary(results)}
`;
}
