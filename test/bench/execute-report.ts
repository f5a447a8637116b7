/**
 * RESULTS.md's sections on the functions that run rules (issue 8's speed
 * section): the execute function's bundle and start-up beside the test,
 * create and publish functions (which bundle the FEEL parser) and the list
 * function (the API stack without the engine), in repeated passes; and the
 * execute function's warm latency against its floor.
 */
import { packageOf, type Bundle } from './bundles.ts';
import { tightLoop, type ExecuteLatencyFigures, type ExecuteProbe } from './execute-latency.ts';
import { median, quantile } from './stats.ts';

/** Issue 8's targets: the execute function against the floor bundle, and its warm call against GetItem + evaluate (+ PutItem). */
export const ruleTargets = { size: 1.2, startup: 1.2, latency: 1.3 } as const;

/** The function the targets are on, and the ones beside it; list-entities is the API stack without the engine. */
export const targetFunction = 'execute-entity';
export const ruleFunctionNames = ['list-entities', targetFunction, 'test-entity', 'create-entity', 'publish-entity'] as const;

/** Further start-up passes of only the floor and these functions, beside the main one. */
export const ruleStartupPasses = 3;

export interface RuleFunctionFigures {
  floor: Bundle;
  functions: Bundle[];
  /** Per pass, start-up samples (ms) by bundle name, the floor's under 'floor'. */
  passes: Record<string, number[]>[];
}

export interface ExecuteSettings {
  warmup: number;
  calls: number;
  maxMs: number;
  passes: number;
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(2);
const ratio = (value: number) => `${value.toFixed(2)}×`;
const verdict = (met: boolean) => (met ? 'met' : '**missed**');
const count = (n: number) => n.toLocaleString('en-US');
const p99 = (samples: readonly number[]) => quantile(samples, 0.99);

/** A markdown table. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------- bundles and start-up

/** Where a bundle's bytes come from, in the groups that tell the rule functions apart. */
type Part = 'parser' | 'engine' | 'zod' | 'rest';
const partOf = (input: string): Part => {
  const pkg = packageOf(input);
  if (pkg === 'lezer-feel' || pkg.startsWith('@lezer/') || input === 'lib/engine/feel/parse.ts') return 'parser';
  if (input.startsWith('lib/engine/')) return 'engine';
  if (pkg === 'zod') return 'zod';
  return 'rest';
};
const partBytes = (bundle: Bundle, part: Part) => Object.entries(bundle.inputs).reduce((sum, [input, bytes]) => sum + (partOf(input) === part ? bytes : 0), 0);

const pooled = (figures: RuleFunctionFigures, name: string) => figures.passes.flatMap((pass) => pass[name]!);
const startRatio = (pass: Record<string, number[]>, name: string) => median(pass[name]!) / median(pass.floor!);

export function ruleBundleTable(figures: RuleFunctionFigures): string {
  const { floor, functions, passes } = figures;
  const floorStart = median(pooled(figures, 'floor'));
  const row = (bundle: Bundle, isFloor: boolean) => {
    const name = isFloor ? 'floor' : bundle.name;
    const sizeRatio = bundle.bytes / floor.bytes;
    const samples = pooled(figures, name);
    const start = median(samples) / floorStart;
    const perPass = passes.map((pass) => startRatio(pass, name));
    const judged = bundle.name === targetFunction;
    const paired = passes.flatMap((pass) => pass[name]!.map((t, i) => t / pass.floor![i]!));
    return [
      isFloor ? `${bundle.name} (DynamoDB client only)` : `\`functions/${bundle.name}.ts\``,
      kib(bundle.bytes),
      ratio(sizeRatio),
      kib(partBytes(bundle, 'parser')),
      kib(partBytes(bundle, 'engine')),
      kib(partBytes(bundle, 'zod')),
      judged ? verdict(sizeRatio <= ruleTargets.size) : '',
      ms(median(samples)),
      ratio(start),
      isFloor ? '' : perPass.map(ratio).join(', '),
      isFloor ? '' : `${ratio(Math.min(...perPass))}–${ratio(Math.max(...perPass))}`,
      isFloor ? '' : `${ratio(quantile(paired, 0.25))}–${ratio(quantile(paired, 0.75))}`,
      judged ? `${verdict(start <= ruleTargets.startup)} (${perPass.filter((r) => r <= ruleTargets.startup).length} of ${passes.length} passes within)` : '',
    ];
  };
  const runs = passes[0]!.floor!.length;
  return table(
    [
      'Bundle',
      'Size (KiB)',
      'Size ÷ floor',
      'FEEL parser (KiB): lezer-feel, @lezer/*, feel/parse.ts',
      'Rest of lib/engine (KiB)',
      'zod (KiB)',
      `Size target ≤ ${ruleTargets.size}× (execute)`,
      `Start-up median, ${passes.length} passes × ${runs} runs (ms)`,
      'Start-up ÷ floor (medians, all passes)',
      'Start-up ÷ floor, each pass',
      'Spread of the passes (lowest–highest)',
      'Per-run start-up ÷ floor, IQR',
      `Start-up target ≤ ${ruleTargets.startup}× (execute)`,
    ],
    [row(floor, true), ...functions.map((f) => row(f, false))],
  );
}

// ---------------------------------------------------------------- warm latency

const pooledProbe = (f: ExecuteLatencyFigures, probe: ExecuteProbe) => f.passes.flatMap((pass) => pass[probe]);
const p50p99 = (samples: readonly number[]) => `${ms(median(samples))} / ${ms(p99(samples))}`;

interface Case {
  label: string;
  handler: ExecuteProbe;
  domain: ExecuteProbe;
  floor: ExecuteProbe;
  floorLabel: string;
}
const cases: Case[] = [
  { label: 'executions not recorded (the default)', handler: 'handler', domain: 'executeRule', floor: 'floor', floorLabel: 'GetItem + evaluate' },
  {
    label: 'settings.recordExecutions: true',
    handler: 'handlerRecorded',
    domain: 'executeRuleRecorded',
    floor: 'floorRecorded',
    floorLabel: 'GetItem + evaluate + PutItem',
  },
  {
    label: 'a candidate in a shadow rollout (executions not recorded)',
    handler: 'handlerShadow',
    domain: 'executeRuleShadow',
    floor: 'floor',
    floorLabel: 'GetItem + evaluate (of the served version alone)',
  },
];

/** The verdicts, for the summary line and the final check. */
export function executeVerdicts(f: ExecuteLatencyFigures) {
  return cases.map((c) => {
    const [h, fl] = [pooledProbe(f, c.handler), pooledProbe(f, c.floor)];
    return { case: c.label, p50: median(h) / median(fl), p99: p99(h) / p99(fl) };
  });
}

export function executeLatencyTable(f: ExecuteLatencyFigures): string {
  return table(
    [
      'Rule',
      'Calls each',
      'Handler (ms)',
      'executeRule (ms)',
      'Floor (ms)',
      'Floor is',
      'Handler ÷ floor, p50',
      `p50 target ≤ ${ruleTargets.latency}×`,
      'Handler ÷ floor, p99',
      `p99 target ≤ ${ruleTargets.latency}×`,
      'p50 ratio, each pass',
      'p99 ratio, each pass',
    ],
    cases.map((c) => {
      const [h, d, fl] = [pooledProbe(f, c.handler), pooledProbe(f, c.domain), pooledProbe(f, c.floor)];
      const [r50, r99] = [median(h) / median(fl), p99(h) / p99(fl)];
      return [
        c.label,
        count(h.length),
        p50p99(h),
        p50p99(d),
        p50p99(fl),
        c.floorLabel,
        ratio(r50),
        verdict(r50 <= ruleTargets.latency),
        ratio(r99),
        verdict(r99 <= ruleTargets.latency),
        f.passes.map((pass) => ratio(median(pass[c.handler]) / median(pass[c.floor]))).join(', '),
        f.passes.map((pass) => ratio(p99(pass[c.handler]) / p99(pass[c.floor]))).join(', '),
      ];
    }),
  );
}

/** The medians of every probe, and the differences that put the gap down to a layer. */
export function executeBreakdownTable(f: ExecuteLatencyFigures): string {
  const m = (probe: ExecuteProbe) => median(pooledProbe(f, probe));
  const rows: [string, string, string][] = [
    ['bare GetItem of the version item', ms(m('versionGet')), "the floor's read"],
    ['`evaluateRule` alone (tight loop, the median round)', (f.evaluateUs / 1000).toFixed(4), `the floor's CPU part: ${f.evaluateUs.toFixed(1)} µs`],
    ['floor: GetItem + evaluate', ms(m('floor')), ''],
    [
      '`store.getEntity` of the rule (the read the warm function makes)',
      ms(m('entityRead')),
      `${ms(m('entityRead') - m('versionGet'))} over the bare GetItem: consistent read, projection, the entity item`,
    ],
    ['`executeRule` (domain: read, compiled-rule cache, evaluate, answer)', ms(m('executeRule')), `${ms(m('executeRule') - m('floor'))} over the floor`],
    [
      'handler (middleware, body validation, auth and branch from cache, envelope)',
      ms(m('handler')),
      `${ms(m('handler') - m('executeRule'))} over \`executeRule\``,
    ],
    ['floor + PutItem', ms(m('floorRecorded')), `PutItem ≈ ${ms(m('floorRecorded') - m('floor'))}`],
    [
      '`executeRule`, recorded',
      ms(m('executeRuleRecorded')),
      `${ms(m('executeRuleRecorded') - m('floorRecorded'))} over the floor + PutItem; recording adds ${ms(m('executeRuleRecorded') - m('executeRule'))}`,
    ],
    ['handler, recorded', ms(m('handlerRecorded')), `${ms(m('handlerRecorded') - m('executeRuleRecorded'))} over \`executeRule\`, recorded`],
    [
      '`executeRule`, a shadow candidate',
      ms(m('executeRuleShadow')),
      `${ms(m('executeRuleShadow') - m('executeRule'))} over \`executeRule\` without a rollout: the candidate evaluated, compared and counted`,
    ],
    [
      'handler, a shadow candidate',
      ms(m('handlerShadow')),
      `${ms(m('handlerShadow') - m('handler'))} over the handler without a rollout (${ratio(m('handlerShadow') / m('handler'))})`,
    ],
  ];
  return table(['Probe', 'Median (ms), all passes', 'Difference'], rows);
}

/** What counting every execution for coverage costs the warm execute path (lib/tallies/coverage-counts.ts), with it against without. */
export function coverageOverheadTable(f: ExecuteLatencyFigures): string {
  const m = (probe: ExecuteProbe) => median(pooledProbe(f, probe));
  const q = (probe: ExecuteProbe) => p99(pooledProbe(f, probe));
  const us = (value: number) => `${value.toFixed(2)} µs`;
  const handlerRatio = median(pooledProbe(f, 'handler')) / median(pooledProbe(f, 'floor'));
  const rows: [string, string, string][] = [
    ['`evaluateRule`, tight loop', us(f.evaluateUs), ''],
    ['`evaluateRule` collecting its hits', us(f.coverageUs.hits), `+${us(f.coverageUs.hits - f.evaluateUs)}`],
    ['… and counting them into the tally buffer (`countExecution`)', us(f.coverageUs.counted), `+${us(f.coverageUs.counted - f.evaluateUs)} in all`],
    ['`executeRule` without coverage (p50 / p99, ms)', p50p99(pooledProbe(f, 'executeRuleUncounted')), ''],
    [
      '`executeRule` with coverage, as shipped (p50 / p99, ms)',
      p50p99(pooledProbe(f, 'executeRule')),
      `${ms(m('executeRule') - m('executeRuleUncounted'))} / ${ms(q('executeRule') - q('executeRuleUncounted'))} ms; ${ratio(m('executeRule') / m('executeRuleUncounted'))} at p50`,
    ],
    ['floor: GetItem + evaluate (p50 / p99, ms)', p50p99(pooledProbe(f, 'floor')), ''],
    [
      'floor with hits counted (p50 / p99, ms)',
      p50p99(pooledProbe(f, 'floorCounted')),
      `${ms(m('floorCounted') - m('floor'))} / ${ms(q('floorCounted') - q('floor'))} ms; ${ratio(m('floorCounted') / m('floor'))} at p50`,
    ],
    [
      'handler (with coverage) ÷ floor (without), p50',
      ratio(handlerRatio),
      `target ≤ ${ruleTargets.latency}×: ${verdict(handlerRatio <= ruleTargets.latency)}`,
    ],
  ];
  return table(['Probe', 'Time', 'With coverage, against without'], rows);
}

export function executeRequestsTable(f: ExecuteLatencyFigures): string {
  return table(
    ['Rule', 'Requests', 'By operation', 'Response bytes', 'Read capacity units'],
    f.requests.map((r) => [
      r.recorded ? 'settings.recordExecutions: true' : 'executions not recorded',
      r.requests,
      Object.entries(r.operations)
        .map(([op, n]) => `${op} ${n}`)
        .join(', '),
      count(r.responseBytes),
      r.readCapacityUnits,
    ]),
  );
}

/** The tables: what the run prints. */
export function ruleSummary(bundles: RuleFunctionFigures, execute: ExecuteLatencyFigures): string {
  return [
    '### The functions that run rules: bundle size and start-up against the floor',
    `The floor and these functions only, in ${bundles.passes.length} passes after the main one; targets on the execute function. KiB columns are bytes in the minified output.`,
    ruleBundleTable(bundles),
    '### Warm execute latency against GetItem + evaluate',
    `Milliseconds, p50 / p99 over all ${execute.passes.length} passes; ratios of the pooled percentiles, then each pass's.`,
    executeLatencyTable(execute),
    'Where the time goes (medians of the same calls):',
    executeBreakdownTable(execute),
    'DynamoDB requests of one warm execute call:',
    executeRequestsTable(execute),
    '### Coverage counting on the warm execute path',
    "Every execution counts its hits into the version's tallies (lib/tallies/coverage-counts.ts): summed in memory, added to the table at most every 10 s off the request's path. What that costs a warm call, with it against without:",
    coverageOverheadTable(execute),
  ].join('\n\n');
}

export function ruleMethod(bundles: RuleFunctionFigures, execute: ExecuteLatencyFigures & { settings: ExecuteSettings }): string {
  const { settings } = execute;
  const runs = bundles.passes[0]!.floor!.length;
  const { rule } = execute;
  return [
    `- **Functions that run rules: bundles and start-up.** The same bundles as above. After the main start-up pass, ${bundles.passes.length} further passes of ${runs} fresh processes each time only the floor and ${ruleFunctionNames.map((n) => `\`${n}\``).join(', ')} (taking turns as above), so the execute function's ratio can be seen to move or not from pass to pass; the table pools the passes (median of all ${bundles.passes.length * runs} runs over the floor's), gives each pass's ratio of medians and their spread, and the per-run ratio's IQR. \`list-entities\` is the API stack (middy, zod/mini, logger, store) without the engine; \`test-entity\`, \`create-entity\` and \`publish-entity\` bundle the FEEL parser (lezer-feel), the execute function compiles the prepared form kept with the version and does not. Targets (issue 8): the execute function's size and start-up ≤ ${ruleTargets.size}× the floor's.`,
    `- **Warm execute latency.** Two published rules on their own branch \`execute\`, created and published with the domain calls the create and publish functions make (\`createEntity\`, \`publishDraft\`, which keeps the prepared form with the version): the engine bench's table ${rule.title} (${rule.rows} rows, hit policy first; definition ${count(rule.definitionBytes)} bytes of JSON, the version item ${count(rule.versionItemBytes)}, the entity item ${count(rule.entityItemBytes)}), once as it is (executions not recorded, the default) and once with \`settings.recordExecutions: true\`; a third, the same table, has a candidate v2 (published with \`{"candidate": true}\`: its odd rows answer another code) in a shadow rollout, so each call also evaluates the candidate after its answer, compares the two, adds the count to the function's tally buffer (flushed at most every 10 s) and writes a sampled disagreement at most once a second (the run compared ${count(execute.shadow.compared)} calls, ${count(execute.shadow.disagree)} disagreeing; its floor is the plain rule's, GetItem + evaluate of one version). The execute function (\`functions/execute-entity.ts\`) runs in this process against the embedded DynamoDB, called with the proxy event the local runtime builds for \`POST /dev/v1/rule/{id}/execute\` (\`Content-Type: application/json\`, \`Service-API-Key\`, \`Service-Branch\`, body \`{"params": …}\`) and a Lambda context. The calls cycle through ${rule.inputs} params drawn by the engine bench's seeded generator for that table (some hit an early row, some a late one, some none), every probe the same sequence. Probes: the handler; \`executeRule\` (\`lib/rules/execute.ts\`) on a store from \`createStore\`, which leaves out the HTTP layer; the floor, a \`GetCommand\` for the version item (key only: the whole item, eventually consistent) through a document client made by \`createDocumentClient\`, then \`evaluateRule\` on the rule compiled once beforehand from the same version's prepared form (the function's cache holds the same); for the recorded rule the floor adds a \`PutCommand\` of an execution item built as the store builds one (its key, index keys, fields, input and output JSON, expiry; the item made before the call, the output added in it). Beside them, to split the gap: the bare GetItem alone, and \`store.getEntity\` of the rule, the one read a warm function makes per call (it reads the entity item, consistent, to find the latest version; the version itself comes from the compiled-rule cache). Before timing, the run fails unless the handler, \`executeRule\` and the floor answer the same on every input. ${settings.passes} passes, each of ${settings.warmup} untimed calls of every probe then up to ${settings.calls} timed calls of each (at most ${settings.maxMs / 1000} s), the probes taking turns with the order rotating each round; p50 and p99 by nearest rank over the pooled passes, and per pass. Measured before any list branch is loaded, so the table holds only the bench workspace and these rules. The requests of one warm call are metered on dynalite's side, as for the list call, and the reads' capacity replayed. An in-process DynamoDB answers a GetItem in under a millisecond; a real one over the network takes several, which the handler and the floor pay alike, so these ratios are the harshest the code can face. Target (issue 8): handler ÷ floor ≤ ${ruleTargets.latency}×, at p50 and at p99 each; issue 23 holds the shadow rollout's calls to the same target over the same floor.`,
    `- **Coverage counting.** Every execution counts its hits into its version's tallies (\`countExecution\`, lib/tallies/coverage-counts.ts): the evaluation collects the indexes of the rows that answered (\`hits\`, no trace), and the counts are added to the function's TallyBuffer, which writes them with one UpdateItem per item at most every 10 s, after a call, never in one (so the handler and \`executeRule\` above already pay for it). Measured beside them in the same passes: \`executeRule\` without coverage (the same steps as \`executeRule\` of \`lib/rules/execute.ts\`, the evaluation without hits, nothing counted), and the floor with the hits counted into the same buffer. And in tight loops over the same inputs, ${tightLoop.rounds} rounds of ${count(tightLoop.calls)} calls each after a round of warm-up, the three loops taking turns with the order rotating each round, the median round of each: \`evaluateRule\` alone (the breakdown's figure above), collecting its hits, and counting them too (the time read, the item names made, the counts added in memory; the buffer flushed once after the loops, out of the timing).`,
  ].join('\n');
}
