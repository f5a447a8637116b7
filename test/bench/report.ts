/** RESULTS.md: the figures, how they were measured, and each target met or missed. */
import { bundling } from '../../cdk/bundling.ts';
import { taskTimes } from '../../lib/tasks/delivery.ts';
import { bytesByPackage, type Bundle } from './bundles.ts';
import type { ExecuteLatencyFigures } from './execute-latency.ts';
import { ruleMethod, ruleSummary, type ExecuteSettings, type RuleFunctionFigures } from './execute-report.ts';
import type { LatencyFigures } from './list-latency.ts';
import { purposes, type PullFigures, type PullName, type PullRun } from './pull.ts';
import type { ReadFigures } from './reads.ts';
import { median, quantile } from './stats.ts';

/** The issue's targets, as ratios to the floor or to the bare query. */
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
  /** The functions that run rules (execute-report.ts): their bundles in further start-up passes, and the execute function's warm latency. */
  ruleFunctions: RuleFunctionFigures;
  execute: ExecuteLatencyFigures & { settings: ExecuteSettings };
  reads: ReadFigures[];
  pull: PullFigures;
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(2);
const ms0 = (value: number) => value.toFixed(0);
const ratio = (value: number) => `${value.toFixed(2)}×`;
const verdict = (met: boolean) => (met ? 'met' : '**missed**');
const count = (n: number) => n.toLocaleString('en-US');
const requestsOf = (n: number) => `${n} request${n === 1 ? '' : 's'}`;

/** The functions that load code lazily, with its size: "execute-entity 171.3 KiB, ..." (or "none"). */
function lazyChunks({ functions }: Results): string {
  const lazy = functions.map((f) => f.bundle).filter((b: Bundle) => b.lazyBytes > 0);
  return lazy.length ? lazy.map((b) => `\`${b.name}\` ${kib(b.lazyBytes)} KiB`).join(', ') : 'none';
}

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
    [
      'Entities',
      'Calls each',
      'Handler',
      'listEntities',
      'Bare Query',
      'Handler ÷ Query',
      `Target ≤ ${targets.latency}×`,
      'Handler ÷ listEntities',
      'listEntities ÷ Query',
    ],
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
      Object.entries(r.operations)
        .map(([op, n]) => `${op} ${n}`)
        .join(', '),
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

const writeOperations = ['BatchWriteItem', 'PutItem', 'UpdateItem', 'DeleteItem'] as const;
const pullNames: readonly PullName[] = ['first', 'changed', 'no-op'];
const pullLabel: Record<PullName, string> = {
  first: 'first pull, empty branch',
  changed: 'after a commit changing 10',
  'no-op': 'same commit again (no-op)',
};
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const byOperation = (operations: Record<string, number>) =>
  Object.entries(operations)
    .map(([op, n]) => `${op} ${n}`)
    .join(', ') || 'none';
/** Write requests other than BatchWriteItem: one item each. */
const singleWrites = (run: PullRun) => sum(writeOperations.slice(1).map((op) => run.operations[op] ?? 0));
const singleWritesByPurpose = (run: PullRun) =>
  purposes
    .flatMap((purpose) => writeOperations.slice(1).flatMap((op) => (run.byPurpose[purpose]?.[op] ? [`${purpose} ${op} ${run.byPurpose[purpose]![op]}`] : [])))
    .join(', ') || 'none';
const runsOf = ({ pull }: Results, name: PullName) => pull.runs.filter((r) => r.pull === name);
/** The requests of a pull, which every round should repeat exactly. */
const requestShape = (run: PullRun) => JSON.stringify([run.operations, run.byPurpose, run.batchSizes]);

/** Each target, judged on every round: met only when all rounds meet it. */
function pullVerdicts(results: Results) {
  const { entities, changed, batchLimit } = results.pull;
  const rounds = (name: PullName) => runsOf(results, name);
  const pairOf = (run: PullRun) => rounds('changed').find((r) => r.round === run.round)!;
  const firstMet = rounds('first').every(
    (r) => r.batchSizes.length === Math.ceil(entities / batchLimit) && sum(r.batchSizes) === entities && singleWrites(r) === singleWrites(pairOf(r)),
  );
  const changedMet = rounds('changed').every(
    (r) => r.batchSizes.length === 1 && sum(r.batchSizes) === changed && singleWrites(r) === singleWrites(rounds('first').find((f) => f.round === r.round)!),
  );
  const noopMet = rounds('no-op').every((r) => r.batchSizes.length === 0 && !r.operations.PutItem && !r.operations.DeleteItem);
  return { first: firstMet, changed: changedMet, 'no-op': noopMet } satisfies Record<PullName, boolean>;
}

function pullTimeTable(results: Results): string {
  const { rounds } = results.pull;
  const cell = (samples: number[]) => `${ms0(median(samples))} (${ms0(Math.min(...samples))}–${ms0(Math.max(...samples))})`;
  return table(
    [
      'Pull',
      'Rule changes (task summary)',
      `Whole task run: median (min–max) of ${rounds}`,
      'Fetch',
      '… of which the Git server answering',
      'Branch state read',
      'Entity writes and recount',
      'Rest (task bookkeeping, validating, planning)',
    ],
    pullNames.map((name) => {
      const runs = runsOf(results, name);
      const { added, updated, deleted, unchanged } = runs[0]!.summary.rule;
      return [
        pullLabel[name],
        `${count(added)} added, ${count(updated)} updated, ${count(deleted)} deleted, ${count(unchanged)} unchanged`,
        cell(runs.map((r) => r.totalMs)),
        cell(runs.map((r) => r.fetchMs)),
        cell(runs.map((r) => r.gitServerMs)),
        cell(runs.map((r) => r.stateMs)),
        cell(runs.map((r) => r.writeMs)),
        cell(runs.map((r) => r.totalMs - r.fetchMs - r.stateMs - r.writeMs)),
      ];
    }),
  );
}

function pullRequestTable(results: Results): string {
  const { entities, changed, batchLimit } = results.pull;
  const verdicts = pullVerdicts(results);
  const target: Record<PullName, string> = {
    first: `${Math.ceil(entities / batchLimit)} BatchWriteItem of ≤ ${batchLimit} (${count(entities)} items), plus a constant`,
    changed: `${changed} entity items (1 BatchWriteItem), plus the same constant`,
    'no-op': 'no entity item written',
  };
  return table(
    [
      'Pull',
      'Requests',
      'By operation',
      'BatchWriteItem (items in each)',
      'Write requests',
      'Items written: in batches + single',
      'Single-item writes (the constant)',
      'Target',
      'Verdict',
    ],
    pullNames.map((name) => {
      const run = runsOf(results, name)[0]!;
      const batches = run.batchSizes.length
        ? `${run.batchSizes.length} (${[...new Set(run.batchSizes)].map((n) => `${run.batchSizes.filter((m) => m === n).length} × ${n}`).join(', ')})`
        : '0';
      return [
        pullLabel[name],
        sum(Object.values(run.operations)),
        byOperation(run.operations),
        batches,
        sum(writeOperations.map((op) => run.operations[op] ?? 0)),
        `${count(sum(run.batchSizes))} + ${singleWrites(run)}`,
        singleWritesByPurpose(run),
        target[name],
        verdict(verdicts[name]),
      ];
    }),
  );
}

function pullPurposeTable(results: Results): string {
  const used = purposes.filter((purpose) => results.pull.runs.some((r) => r.byPurpose[purpose]));
  return table(
    ['What the request was for', ...pullNames.map((name) => pullLabel[name])],
    used.map((purpose) => [purpose, ...pullNames.map((name) => byOperation(runsOf(results, name)[0]!.byPurpose[purpose] ?? {}))]),
  );
}

function pullNotes(results: Results): string {
  const { rounds } = results.pull;
  const varied = pullNames.filter((name) => new Set(runsOf(results, name).map(requestShape)).size > 1);
  const start = runsOf(results, 'first')[0]!.startOperations;
  const lines = [
    varied.length
      ? `**The requests differed between rounds** for: ${varied.join(', ')}. Per round: ${results.pull.runs
          .filter((r) => varied.includes(r.pull))
          .map((r) => `round ${r.round} ${r.pull}: ${byOperation(r.operations)}; batches ${r.batchSizes.join('+') || 'none'}`)
          .join(' · ')}. The tables show round 1; the verdicts hold only if every round meets the target.`
      : `The requests (by operation, by purpose, and the items in each batch) were identical in all ${rounds} rounds; the tables show them once.`,
    `Starting each task (the API's part, \`startPull\`, not metered into the figures above): ${byOperation(start)}.`,
  ];
  return lines.join(' ');
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
    ruleSummary(results.ruleFunctions, results.execute),
    '### DynamoDB reads per list call (warm function)',
    readsTable(results),
    firstPageVerdict(results),
    `### Remote pull: ${count(results.pull.entities)} rules`,
    'Milliseconds. Wall time of `runPullTask` and its parts; see Method for what each part holds.',
    pullTimeTable(results),
    "DynamoDB requests of one task run (the worker's part), metered on the embedded DynamoDB's side.",
    pullRequestTable(results),
    'The same requests by what they were for:',
    pullPurposeTable(results),
    pullNotes(results),
    '### Loading',
    table(
      ['Entities', 'writeEntities (s)', 'Process memory after (MiB, RSS)'],
      results.loads.map(({ entities, ms: t, rssBytes }) => [count(entities), (t / 1000).toFixed(1), (rssBytes / 2 ** 20).toFixed(0)]),
    ),
  ].join('\n\n');
}

/** The request counts of the three pulls, for the method's note on real DynamoDB. */
function pullRequestRange(results: Results): string {
  return pullNames
    .map((name) => {
      const run = runsOf(results, name)[0]!;
      const total = sum(Object.values(run.operations));
      return `${pullLabel[name]}: ${run.batchSizes.length} BatchWriteItem and ${total - run.batchSizes.length} other requests`;
    })
    .join('; ');
}

export function resultsMarkdown(results: Results): string {
  const { settings: s } = results;
  return `# Benchmark results

Written by \`npm run bench\` (\`test/bench/run.ts\`); every figure below comes from that run. Re-run it to refresh them.

- Run: ${results.startedAt.toISOString()}, ${(results.durationMs / 1000).toFixed(0)} s in all
- Machine: ${results.machine}
- Versions: ${results.versions}

## Method

- **Bundles.** Each function in the route table, and a floor entry that only imports \`DynamoDBClient\` and constructs one client at module scope, is bundled with esbuild's API using the settings in \`cdk/bundling.ts\` (the stack's): minified ES module for \`${bundling.target}\`, \`platform: node\`, \`mainFields: module, main\`, the \`require\` banner, nothing external, code imported with \`import()\` split into chunks. Sizes are the bytes a cold start loads (\`index.mjs\` and the chunks it imports statically; KiB = 1,024 bytes); the chunks only an \`import()\` reaches, loaded when a call needs them, are given apart: ${lazyChunks(results)}. The package tables come from esbuild's metafile (\`bytesInOutput\` per input).
- **Start-up.** ${s.startupRuns} fresh \`node\` processes per bundle, one at a time, the bundles taking turns (run 1 of every bundle, then run 2 of every bundle, and so on). Each child times only \`await import(bundle)\` with \`performance.now()\` (loading, parsing and evaluating the module) and prints it. The table gives each bundle's median and interquartile range (p25–p75, nearest rank, and its width), the ratio of the function's median to the floor's (the figure the target is judged on), and, because run *i* of a function and run *i* of the floor ran side by side, the p25–p75 of the ${s.startupRuns} per-run ratios, which shows how far the ratio moves with the machine's noise. The children get \`TABLE_NAME\`, \`AWS_REGION\` and dummy credentials and nothing else. The floor's import includes constructing its client, as the issue defines it; the functions make their client lazily, on the first request, so their import does not.
- **Warm latency.** The list function (\`functions/list-entities.ts\`) runs in this process against the embedded DynamoDB (dynalite, in memory, same process). It is called with the API Gateway proxy event the local runtime builds (\`toProxyEvent\`) and a Lambda context, with \`Service-API-Key\` and \`Service-Branch\` headers and \`pageNo=1&pageSize=10\`. Beside it, the domain call the handler makes (\`listEntities\` of \`lib/entities/list.ts\` on a store from the same \`createStore\`), which leaves out the HTTP layer (middy, header normalisation, logging context, authentication and branch lookups from the cache, query validation, envelope). The baseline (bare Query) is a bare DynamoDB query that fetches the same page: one \`QueryCommand\` through a document client made by the same \`createDocumentClient\`, on index GSI1 for the branch's rule partition, key condition \`#pk = :pk AND #sk > :counter\` (\`:counter\` being the counter's index sort key, so the counter item that heads the partition is not read), \`Limit: 10\`, projecting the same summary attributes. For this call the store too makes one request: one Query on GSI1 from the start of the partition with \`Limit: 11\`, whose first item is the counter (its index sort key, \`\\u0001\`, sorts before every entity) and gives the total, and the other ten are the page; it projects the summary attributes plus the index sort key and \`total\`. So the store's Query reads one item more than the bare one (the counter) and projects two attributes more; the rest of the gap is the code around the request. All three probes are checked to return the same ten ids. ${s.warmup} untimed calls of each, then up to ${s.calls} timed calls of each (at most ${s.maxMs / 1000} s), taking turns, the order rotating each round. The target is on handler ÷ bare query at the median. Only the call is timed; events, contexts and commands are built beforehand. Log level \`POWERTOOLS_LOG_LEVEL=${s.logLevel}\` (so the one INFO line per request is not written); directory cache TTL ${s.directoryCacheTtl}, so a warm function looks up key, workspace and branch from memory. Only the 1k and 10k branches exist while latency is measured; the 100k branch is loaded afterwards, so that the memory it takes (see Loading) does not add garbage-collection time to these figures.
${ruleMethod(results.ruleFunctions, results.execute)}
- **Reads per call.** Node's HTTP server diagnostics channels count, on dynalite's side, every request one list call causes and its response body bytes (Content-Length); nothing is placed between the function and DynamoDB. Each call is made once unmetered first (warming the directory cache), then once metered. A cold function would add three GetItems (key, workspace, branch). Items read and read capacity units come from sending each metered request again with \`ReturnConsumedCapacity: TOTAL\` (the function does not ask for it); dynalite computes them as DynamoDB does (items read on the index, rounded up to 4 KB per request, half a unit per 4 KB for eventually consistent reads). What the store does for an unfiltered list: ascending (the default), the counter item heads each index partition, so the first page's Query (\`Limit\` page size + 1) returns the total and the page in one request; a later page first skips the offset with Queries projecting only the index sort key and \`total\` (the counter is read with the first of them) and then reads the page. Descending, the counter comes last in the partition, so the store reads it with a GetItem beside the page's Query: two requests for the first page (the descending row, \`sortDir=desc\` on the v1 handler, reports this path). A filtered list reads the whole index partition once, as the total must count the matches. The middle page's offset is half the entities; the name filter matches one entity in ten.
- **Remote pull.** A bare Git repository made with \`createRepository\` (\`lib/local/git-server.ts\`, the git CLI's fast-import) holds ${count(results.pull.entities)} rule files \`rules/<id>.json\` (${Object.entries(
    results.pull.kinds,
  )
    .map(([kind, n]) => `${n} ${kind}`)
    .join(
      ', ',
    )}; ${(results.pull.repositoryBytes / 1024).toFixed(0)} KiB in all; the same synthetic rules as the read benchmark, pretty-printed JSON, each valid for \`entityInputSchema\`), one branch per round, served by \`startGitServer\` (\`git http-backend\` as CGI, one git process per request) on 127.0.0.1. The bench workspace's remote (\`store.putRemote\`, no credential) points at it. Each round adds a new, empty workspace branch and pulls it three times: (1) into the empty branch, (2) after \`commitFiles\` commits new contents for ${results.pull.changed} of the rules (ids 0, 100, …, 900: all three kinds; description and definition changed), (3) that same commit again. Each pull is started as the API starts one (\`startPull\`: the task written as pending and the branch claimed for it; its queue only keeps the message; its requests are given below the tables, not counted in them) and then run in this process by the worker's core, \`runPullTask\` (first delivery of three), with the real dependencies: \`fetchBranch\` of \`lib/remote/git-remote.ts\` (isomorphic-git, shallow fetch into a throwaway repository under the temp folder, through the outbound client with \`allowPrivateNetworks: true\`, as loopback is otherwise refused), the bench's store on the embedded DynamoDB, the worker's lease (${taskTimes.leaseMs / 60_000} minutes). After each run the bench fails unless the task ended \`completed\` with the pulled commit and exactly the expected summary (1,000 added; 10 updated and 990 unchanged; 1,000 unchanged; nothing deleted, no workflows, no ignored folders), the branch record holds that commit and no active task, the branch has ${count(results.pull.entities)} entities all marked as from the remote, exactly the 10 edited ones at revision 2 (none before the edit), and the branch's counter reads ${count(results.pull.entities)}. Wall time is the whole \`runPullTask\` call, median and range over ${results.pull.rounds} rounds (round 1 also pays the process's first use of the fetch code). It is split by wrapping the dependencies it calls: the fetch (\`fetchBranch\`: ref discovery and pack download from the local server, unpacking into the throwaway repository, reading all ${count(results.pull.entities)} blobs, removing the repository), of which the Git server's own time (its two requests, arrival to last byte written, metered like DynamoDB's on the server side; it runs \`git upload-pack\` to build the pack, work a real host does, and is on loopback, so no network time); reading the branch's current state (\`listEntityStates\` of rules and workflows, side by side); writing (\`writeEntities\`: the BatchWriteItems, then the recount; nothing when the plan writes nothing); the rest is the task's bookkeeping requests, parsing and validating the files with zod, checksums and planning. DynamoDB's figures are the requests the embedded DynamoDB served during \`runPullTask\`, by operation (\`X-Amz-Target\`), with the put and delete requests inside each BatchWriteItem body counted, and each request told apart by its key or key condition: the task record (\`getTask\` once to find the task; \`transitionTask\` reads the task, then updates it conditionally, once to claim it, pending → in-progress, and once to finish it, → completed), the remote config (GetItem), the branch's current entities (one Query per entity type, rules and workflows), the entity writes (BatchWriteItem, 25 requests at most each), the recount after writing (a Query on the name index for the entities' kinds, a Query for the existing counters, then one PutItem per counter: the type's total and one per rule kind), and the branch pull record (UpdateItem: the active task released and the pulled commit recorded). The constant in the targets is the single-item writes: they do not grow with the entities written (the same in the first and the second pull), only with the kinds present, since a counter is written per kind. Write capacity units are not given: the store does not ask for them, and sending the writes again to learn them, as the read figures do with reads, would not repeat them (conditional task updates fail the second time, puts overwrite); items written are counted instead. Times are those of this machine with an in-process DynamoDB and a loopback Git server: a real Git host adds network time to the fetch, and real DynamoDB some milliseconds per request (${pullRequestRange(results)}).
- **Data.** Synthetic rules of the three rule kinds (decision table, rule set, simple rule) with real checksums, loaded per branch (\`size-1000\`, \`size-10000\`, \`size-100000\`) in one table with \`store.writeEntities\`, which batch-writes 25 at a time and then recounts the branch.

## Results

${summary(results)}
`;
}
