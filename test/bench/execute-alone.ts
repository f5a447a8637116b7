/**
 * `npx tsx test/bench/execute-alone.ts [calls] [passes]`: only the warm
 * execute latency (execute-latency.ts), measured as `npm run bench` measures
 * it, on a table of its own, without the rest of the bench, which takes far
 * longer. Prints the tables RESULTS.md gives for its latency; writes
 * nothing. Its DynamoDB requests are not metered: the meter
 * (request-meter.ts) reads the embedded DynamoDB's requests through Node's
 * HTTP diagnostics channels, and on Node 22.23 the request it watches then
 * reaches dynalite without its body (a SerializationException).
 */
// First: sets the log level before any module that loads the logger is evaluated (see log-level.ts).
import './log-level.ts';
import { startBenchTable } from './bench-table.ts';
import { capacityReplayer } from './capacity.ts';
import { loadExecuteFunction } from './execute-call.ts';
import { measureExecuteLatency } from './execute-latency.ts';
import { executeBreakdownTable, executeLatencyTable } from './execute-report.ts';
import type { meterRequests } from './request-meter.ts';

const calls = Number(process.argv[2] ?? 1_000);
const passes = Number(process.argv[3] ?? 3);

const table = await startBenchTable();
const unmetered = { start: () => undefined, stop: () => [] } as ReturnType<typeof meterRequests>;
const replayer = capacityReplayer(table.config.endpoint);
try {
  const execute = await loadExecuteFunction(table.apiKey);
  const figures = await measureExecuteLatency(
    execute,
    table.store,
    table.config,
    unmetered,
    replayer,
    { warmup: 100, calls, maxMs: 60_000, passes },
    console.log,
  );
  console.log(
    [
      executeLatencyTable(figures),
      executeBreakdownTable(figures),
      `The shadow compared ${figures.shadow.compared} calls, ${figures.shadow.disagree} disagreeing.`,
    ].join('\n\n'),
  );
} finally {
  replayer.close();
  await table.dynamo.close();
}
