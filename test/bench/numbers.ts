/**
 * What exact numbers cost where a request passes (issue 20), against what the
 * same step cost with doubles, in one run: reading a request's JSON
 * (`parseJson` of lib/decimal/json.ts against JSON.parse), preparing an item
 * for the document client (`withStoredNumbers`, a walk that finds no Decimal
 * in the usual item, against the marshalling the client does anyway), and FEEL arithmetic on the fast path and the exact
 * path against a double's. `npm run bench:numbers` runs this section alone;
 * `npm run bench` runs it with the rest. Not a test.
 */
import { pathToFileURL } from 'node:url';
import { marshall } from '@aws-sdk/util-dynamodb';
import { add, divide, multiply, parseNumber } from '../../lib/decimal/decimal.ts';
import { parseJson } from '../../lib/decimal/json.ts';
import { withStoredNumbers } from '../../lib/store/dynamo/client.ts';
import { putSection } from './results-file.ts';

interface Contender {
  name: string;
  run: () => unknown;
}

interface Comparison {
  title: string;
  /** What one call does, for the table. */
  unit: string;
  contenders: Contender[];
}

interface Measured {
  title: string;
  unit: string;
  rows: { name: string; nsPerCall: number; perRound: number[] }[];
}

const rounds = 7;
const windowMs = 200;
let sink: unknown;

/** ns per call of each contender: rounds of `windowMs` each, the contenders taking turns, the order rotating; the median round. */
function measure(comparison: Comparison): Measured {
  const perRound = comparison.contenders.map(() => [] as number[]);
  for (const c of comparison.contenders) for (let i = 0; i < 2_000; i++) sink = c.run();
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < comparison.contenders.length; k++) {
      const at = (k + round) % comparison.contenders.length;
      const { run } = comparison.contenders[at]!;
      let calls = 0;
      const start = performance.now();
      let now = start;
      while (now - start < windowMs) {
        for (let i = 0; i < 100; i++) sink = run();
        calls += 100;
        now = performance.now();
      }
      perRound[at]!.push(((now - start) * 1e6) / calls);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    title: comparison.title,
    unit: comparison.unit,
    rows: comparison.contenders.map((c, i) => ({ name: c.name, nsPerCall: median(perRound[i]!), perRound: perRound[i]! })),
  };
}

/** The execute bench's request body (table (a) of the engine bench, amounts with cents). */
const executeBody = JSON.stringify({ params: { tier: 'gold', age: 42, amount: 4521.37, country: 'US' } });
/** A create request of a 200-row decision table with prices: about 20 KB. */
const definitionBody = JSON.stringify({
  id: 'price-list',
  name: 'Price list',
  type: 'decisionTable',
  definition: {
    hitPolicy: 'first',
    inputs: [{ id: 'sku', expression: 'sku', type: 'string' }],
    outputs: [{ id: 'price', name: 'price', type: 'number' }],
    rules: Array.from({ length: 200 }, (_, r) => ({ id: `r${r}`, when: [`"SKU-${r}"`], then: [Number(`${r * 100 + 99}e-2`)] })),
  },
});
/** The execute body with one number past a double's digits: the exact reader's slow path. */
const preciseBody = executeBody.replace('4521.37', '4521.370000000000000001');
const storedItem = parseJson(definitionBody);
const big = parseNumber('12345678901234567890')!;

const comparisons: Comparison[] = [
  {
    title: 'Reading a request body',
    unit: 'one body parsed',
    contenders: [
      { name: `execute body (${executeBody.length} B), JSON.parse`, run: () => JSON.parse(executeBody) },
      { name: `execute body (${executeBody.length} B), parseJson`, run: () => parseJson(executeBody) },
      { name: `create body (${(definitionBody.length / 1024).toFixed(1)} KiB), JSON.parse`, run: () => JSON.parse(definitionBody) },
      { name: `create body (${(definitionBody.length / 1024).toFixed(1)} KiB), parseJson`, run: () => parseJson(definitionBody) },
      { name: 'execute body with a 22-digit amount, parseJson (source text read)', run: () => parseJson(preciseBody) },
    ],
  },
  {
    title: 'Preparing an item for the document client',
    unit: 'one item walked',
    contenders: [
      {
        name: `the create body's record (${(definitionBody.length / 1024).toFixed(1)} KiB), marshall (what the client does with it anyway)`,
        run: () => marshall(storedItem),
      },
      { name: 'the same record, withStoredNumbers (the walk added before it)', run: () => withStoredNumbers(storedItem) },
    ],
  },
  {
    title: 'FEEL arithmetic',
    unit: 'one operation',
    contenders: [
      { name: 'double: 19.99 * 3 (rounds: 59.97000000000001 in general)', run: () => 19.99 * 3 },
      { name: 'multiply(19.99, 3), fast path', run: () => multiply(19.99, 3) },
      { name: 'add(4521.37, 0.07), fast path', run: () => add(4521.37, 0.07) },
      { name: 'add(12345678901234567890, 1), exact path', run: () => add(big, 1) },
      { name: 'divide(1, 3), 34 digits', run: () => divide(1, 3) },
    ],
  },
];
export interface NumbersFigures {
  measured: Measured[];
  at: string;
  durationMs: number;
}

export function measureNumbers(log: (message: string) => void): NumbersFigures {
  const started = Date.now();
  log('numbers: request bodies, items and arithmetic');
  const measured = comparisons.map(measure);
  void sink;
  return { measured, at: new Date(started).toISOString(), durationMs: Date.now() - started };
}

const ns = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

export function numbersMarkdown(figures: NumbersFigures): string {
  const tables = figures.measured.map((m) => {
    const base = m.rows[0]!.nsPerCall;
    return [
      `### ${m.title}`,
      '',
      `| Contender | ns per call (${m.unit}), median of ${rounds} rounds | ÷ the first row | Rounds, lowest–highest (ns) |`,
      '| --- | --- | --- | --- |',
      ...m.rows.map(
        (r) => `| ${r.name} | ${ns(r.nsPerCall)} | ${(r.nsPerCall / base).toFixed(2)}× | ${ns(Math.min(...r.perRound))}–${ns(Math.max(...r.perRound))} |`,
      ),
    ].join('\n');
  });
  return [
    '## Exact numbers (issue 20)',
    '',
    'Written by `npm run bench`, or by `npm run bench:numbers`, which runs only this section (`test/bench/numbers.ts`).',
    '',
    `- Run: ${figures.at}, ${(figures.durationMs / 1000).toFixed(0)} s for this section`,
    `- Method: each contender runs 2,000 calls untimed, then ${rounds} rounds of ${windowMs} ms windows, the contenders of a table taking turns with the order rotating each round; the figure is the median round's time per call, in this process, on this shared machine. The bodies: the execute bench's (table (a) params, an amount with cents), a create request of a 200-row price list, and the execute body with an amount of 22 digits, which makes the reader take the source text of every value. The item: the create body's record as the store hands it to the document client.`,
    '',
    ...tables.flatMap((t) => [t, '']),
  ].join('\n');
}

async function runAlone() {
  const figures = measureNumbers((message) => console.log(`[bench:numbers] ${message}`));
  const markdown = numbersMarkdown(figures);
  await putSection('## Exact numbers (issue 20)', markdown);
  console.log(`\n${markdown}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runAlone();
