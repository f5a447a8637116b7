/**
 * What a person's ID token adds to a warm execute (issue 34), in one run. The
 * execute function (functions/execute-entity.ts) is called in this process as
 * the execute latency bench calls it (execute-call.ts), on one rule with the
 * same params, the calls taking turns (latency.ts): with the bench's
 * Service-API-Key, and as a person with their ID token (Authorization:
 * Bearer, Service-Workspace), one the warm function verified before and so
 * remembers. The difference is what a person's calls in a row cost over a
 * key's. Then, beside the key again, a token the function has never seen at
 * every call, signed ES256 and RS256: a token's first verification, its
 * signature checked against the issuer's keys. And the verifier alone
 * (`tokenVerifier` of lib/auth/person-token.ts) on a new token of each
 * algorithm and on a remembered one. The issuer is the tests' own
 * (test/helpers/issuer.ts) on 127.0.0.1: the function reads its discovery
 * document and keys over HTTP, as from any issuer.
 *
 * `npm run bench:sign-in` runs this section alone and puts it in RESULTS.md;
 * `npm run bench` runs it with the others.
 */
import './log-level.ts';
import { loadavg } from 'node:os';
import { generateKeyPair } from 'jose';
import { tokenVerifier, verifiedTokens } from '../../lib/auth/person-token.ts';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { addBranch } from '../../lib/workspaces/admin.ts';
import { Issuer, type Signing } from '../helpers/issuer.ts';
import { startBenchTable, workspaceId } from './bench-table.ts';
import { benchTables, type Params } from './engine.ts';
import { loadExecuteFunction } from './execute-call.ts';
import { inputsFor, publishRule } from './execute-latency.ts';
import { table } from './execute-report.ts';
import { compareLatency, type Probe } from './latency.ts';
import { putSection } from './results-file.ts';
import { median, quantile } from './stats.ts';

const heading = "## People's tokens on the warm execute path (issue 34)";
const branch = 'sign-in';
const audience = 'bench-console';
const group = 'bench-executors';
const defaults = { warmup: 100, calls: 1_000, maxMs: 60_000, passes: 3, inputs: 64 };
type Settings = typeof defaults;
/** Issue 34: verification adds at most this much to a warm execute, at the median (ms). */
const targetMs = 0.2;

const algorithms = ['ES256', 'RS256'] as const;
type Algorithm = (typeof algorithms)[number];

/** The comparisons of a pass: the probes of each take turns. */
interface Pass {
  /** The handler with the key, and with a token it remembers. */
  warm: Record<'key' | 'token', number[]>;
  /** The handler with the key, and with a new token each call. */
  first: Record<'key' | Algorithm, number[]>;
  /** The verifier alone: a new token each call, and a remembered one. */
  alone: Record<Algorithm | 'remembered', number[]>;
}

export interface SignInFigures {
  settings: Settings;
  startedAt: string;
  machineLoad: number;
  node: string;
  rule: string;
  /** Milliseconds a call, in the order of the rounds, per pass. */
  passes: Pass[];
  /** How often the issuer's keys were read during the passes (the function and the verifier alone). */
  keyReads: number;
  durationMs: number;
}

/** The bench's table, when `npm run bench` has one already; else this starts its own. */
type BenchTable = Pick<Awaited<ReturnType<typeof startBenchTable>>, 'store' | 'apiKey'>;

export async function measureSignIn(log: (message: string) => void = console.log, shared?: BenchTable, settings: Settings = defaults): Promise<SignInFigures> {
  const own = shared ? undefined : await startBenchTable();
  const { store, apiKey } = shared ?? own!;
  const issuer = await new Issuer().start();
  // What the stack tells every function (cdk/sign-in.ts); the function reads it when the first bearer token comes.
  Object.assign(process.env, { OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: audience, OIDC_GROUPS_CLAIM: 'groups' });
  try {
    const rsa = await generateKeyPair('RS256');
    await issuer.publish(rsa, 'k-rs', 'RS256');
    const signing: Record<Algorithm, Signing> = { ES256: {}, RS256: { key: rsa, kid: 'k-rs', alg: 'RS256' } };
    const person = { sub: 'bench-person', email: 'person@bench.example', groups: [group] };
    let serial = 0;
    /** A token no one has verified yet: the same person, a token id of its own, valid for two hours (the whole run). */
    const newToken = (alg: Algorithm) =>
      issuer.token(audience, { ...person, jti: `bench-${++serial}`, exp: Math.floor(Date.now() / 1000) + 7_200 }, signing[alg]);
    const newTokens = async (alg: Algorithm, count: number) => {
      const tokens: string[] = [];
      for (let i = 0; i < count; i++) tokens.push(await newToken(alg));
      return tokens;
    };

    await addBranch(store, workspaceId, branch);
    // The person's group may execute in the bench workspace (PUT /dev/v1/access writes the same).
    await store.setWorkspaceAccess(workspaceId, { groups: [{ group, role: 'executor' }], people: [], updatedAt: new Date().toISOString() });
    const spec = benchTables()[0]!;
    const base = { name: 'Sign-in bench: 20-row mixed table', description: 'Table (a) of the engine bench', type: 'decisionTable', tags: ['bench'] };
    const ref = await publishRule(store, { ...base, id: 'sign-in', definition: spec.definition } as unknown as EntityInput, branch);
    const inputs = inputsFor(spec.candidate, settings.inputs);

    const execute = await loadExecuteFunction(apiKey);
    const asPerson = (token: string) => execute.as({ token, workspace: workspaceId });
    const remembered = await newToken('ES256');
    /** Each probe cycles through the inputs on its own counter; they are called equally often, so they see the same sequence. */
    const cycling = (make: (params: Params) => () => Promise<unknown>): Probe => {
      let i = 0;
      return () => make(inputs[i++ % inputs.length]!);
    };
    const byKey = () => cycling((params) => execute.prepare(branch, ref.id, params));
    /** A new token each call, from those signed before the comparison. */
    const byNewTokens = (tokens: string[]) => {
      let t = 0;
      return cycling((params) => asPerson(tokens[t++]!).prepare(branch, ref.id, params));
    };

    // The same answers first, by key and by token; and the token is verified on this path: one for another client is refused.
    for (const params of inputs) {
      const [withKey, withToken] = [await execute.prepare(branch, ref.id, params)(), await asPerson(remembered).prepare(branch, ref.id, params)()];
      if (JSON.stringify(withKey.output) !== JSON.stringify(withToken.output))
        throw new Error(`the key and the token answered differently on ${JSON.stringify(params)}`);
    }
    const stranger = await issuer.token('another-client', person);
    const refusal = await asPerson(stranger)
      .prepare(branch, ref.id, inputs[0]!)()
      .then(
        () => 'accepted',
        (error: Error) => error.message,
      );
    if (!refusal.includes('401')) throw new Error(`a token for another client was not refused: ${refusal}`);

    // The verifier alone, as the function makes it: jose loaded and the keys read before any timing.
    const verify = tokenVerifier({ issuer: issuer.url, audience, groupsClaim: 'groups' });
    await verify(remembered);
    /** The verifier alone on a new token each call. */
    const verifying = (tokens: string[]): Probe => {
      let t = 0;
      return () => {
        const token = tokens[t++]!;
        return () => verify(token);
      };
    };

    const perComparison = settings.warmup + settings.calls;
    const passes: Pass[] = [];
    const machineLoad = loadavg()[0]!;
    const startedAt = new Date();
    const readsBefore = issuer.keyFetches;
    for (let pass = 1; pass <= settings.passes; pass++) {
      log(`sign-in: pass ${pass} of ${settings.passes}, the key against a remembered token`);
      const warm = await compareLatency({ key: byKey(), token: cycling((params) => asPerson(remembered).prepare(branch, ref.id, params)) }, settings);
      log(`sign-in: pass ${pass}, signing ${perComparison} new tokens of each algorithm`);
      const [es, rs] = [await newTokens('ES256', perComparison), await newTokens('RS256', perComparison)];
      log(`sign-in: pass ${pass}, the key against new tokens`);
      const first = await compareLatency({ key: byKey(), ES256: byNewTokens(es), RS256: byNewTokens(rs) }, settings);
      const [esAlone, rsAlone] = [await newTokens('ES256', perComparison), await newTokens('RS256', perComparison)];
      log(`sign-in: pass ${pass}, the verifier alone`);
      const alone = await compareLatency({ ES256: verifying(esAlone), RS256: verifying(rsAlone), remembered: () => () => verify(remembered) }, settings);
      passes.push({ warm, first, alone });
    }
    return {
      settings,
      startedAt: startedAt.toISOString(),
      machineLoad,
      node: `Node ${process.version}`,
      rule: spec.title,
      passes,
      keyReads: issuer.keyFetches - readsBefore,
      durationMs: Date.now() - startedAt.getTime(),
    };
  } finally {
    await issuer.close();
    await own?.dynamo.close();
  }
}

const ms = (value: number) => value.toFixed(2);
const us = (valueMs: number) => (valueMs * 1000).toFixed(0);
const signed = (value: number, digits = 3) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(digits)}`;
const count = (n: number) => n.toLocaleString('en');
const percentiles = [0.5, 0.9, 0.99] as const;

/** Every pass's samples of one probe of one comparison, pooled. */
const pooled = <C extends keyof Pass>(f: SignInFigures, comparison: C, probe: keyof Pass[C]) => f.passes.flatMap((pass) => pass[comparison][probe] as number[]);

/** p50 / p90 / p99 of the samples, in ms. */
const spread = (samples: number[]) => percentiles.map((q) => ms(quantile(samples, q))).join(' / ');

/** Over the key's samples of the same comparison: the difference of each percentile. */
const over = (samples: number[], key: number[]) => percentiles.map((q) => signed(quantile(samples, q) - quantile(key, q))).join(' / ');

/** The median of the differences round by round (in a round each probe is called once, one after the other), over every pass. */
const pairedMedian = (f: SignInFigures) =>
  median(f.passes.flatMap(({ warm }) => warm.token.slice(0, warm.key.length).map((token, round) => token - warm.key[round]!)));

export function signInMarkdown(f: SignInFigures): string {
  const { warmup, calls, passes, inputs } = f.settings;
  const key = pooled(f, 'warm', 'key');
  const token = pooled(f, 'warm', 'token');
  const added = median(token) - median(key);
  const firstKey = pooled(f, 'first', 'key');
  const label: Record<Algorithm, string> = { ES256: 'ES256 (P-256)', RS256: 'RS256 (2,048-bit RSA)' };
  return [
    heading,
    '',
    `Written by \`npm run bench\`, or by \`npm run bench:sign-in\`, which runs only this section (\`test/bench/person-token.ts\`). Run ${f.startedAt}, ${(f.durationMs / 1000).toFixed(0)} s, ${f.node}, the machine's one-minute load average ${f.machineLoad.toFixed(1)} as it started.`,
    '',
    `- Method: the execute function (\`functions/execute-entity.ts\`) in this process against the embedded DynamoDB, called as the warm execute latency above calls it (the proxy event the local runtime builds for \`POST /dev/v1/rule/{id}/execute\`, a Lambda context a call), on the engine bench's table ${f.rule}, published on its own branch, the calls cycling through ${inputs} params from the execute bench's seeded generator, every probe the same sequence. *Key*: \`Service-API-Key\` (the bench's admin key); *token*: \`Authorization: Bearer\` with a person's ID token and \`Service-Workspace\` (the person is an executor there, by a group the token names). The issuer is the tests' (\`test/helpers/issuer.ts\`) on 127.0.0.1, the function told of it as the stack tells it (\`OIDC_ISSUER\`, \`OIDC_AUDIENCE\`), so that it reads the discovery document and the keys over HTTP. Before timing, the run fails unless the key and the token answer the same on every input, and a token for another client is refused (401). Each of ${passes} passes makes three comparisons, the probes of each taking turns with the order rotating each round, ${warmup} untimed calls of each then up to ${count(calls)} timed (at most ${f.settings.maxMs / 1000} s): (1) the key and one token, verified in the warm-up and remembered by the function (by its SHA-256, a minute at most, ${count(verifiedTokens.max)} tokens at most), so that its calls cost what a person's calls in a row do; (2) the key again and a new token each call, signed beforehand with ES256 and with RS256: each call is that token's first verification (its signature checked, the claims read); (3) the verifier alone (\`tokenVerifier\`, made as the function makes it, its keys read before timing), on new tokens of each algorithm and on a remembered one. The tokens of (2) push the remembered one of (1) out of the function's memory, and its minute runs out: it is verified again in the next warm-up, or once in a comparison. The function keeps the issuer's keys a minute at most, after which a call reads them again (on loopback): ${f.keyReads === 1 ? 'once' : `${count(f.keyReads)} times`} during these passes. Percentiles by nearest rank over the pooled passes; the differences are over the key's in the same comparison.`,
    '',
    `Warm execute, the key against a remembered token (ms; ${count(key.length)} calls each):`,
    '',
    table(
      ['Caller', 'p50 / p90 / p99', 'Over the key: p50 / p90 / p99', 'Over the key at p50, each pass'],
      [
        ['`Service-API-Key`', spread(key), '', ''],
        ['bearer token, remembered', spread(token), over(token, key), f.passes.map(({ warm }) => signed(median(warm.token) - median(warm.key))).join(', ')],
      ],
    ),
    '',
    `Verification adds **${signed(added)} ms** to a warm execute at the median (the median of the round-by-round differences: ${signed(pairedMedian(f))} ms). Target (issue 34): at most ${targetMs} ms at the median: **${added <= targetMs ? 'met' : 'missed'}**.`,
    '',
    `A token's first verification, through the execute function (ms; ${count(firstKey.length)} calls each):`,
    '',
    table(
      ['Caller', 'p50 / p90 / p99', 'Over the key: p50 / p90 / p99'],
      [
        ['`Service-API-Key`', spread(firstKey), ''],
        ...algorithms.map((alg) => {
          const samples = pooled(f, 'first', alg);
          return [`a new bearer token each call, ${label[alg]}`, spread(samples), over(samples, firstKey)];
        }),
      ],
    ),
    '',
    'The verifier alone (µs a call, p50 / p90 / p99):',
    '',
    table(
      ['Token', 'p50 / p90 / p99 (µs)'],
      [
        ...algorithms.map((alg) => [`new, ${label[alg]}`, percentiles.map((q) => us(quantile(pooled(f, 'alone', alg), q))).join(' / ')]),
        ['remembered (its SHA-256 looked up)', percentiles.map((q) => us(quantile(pooled(f, 'alone', 'remembered'), q))).join(' / ')],
      ],
    ),
  ].join('\n');
}

/** `npm run bench:sign-in -- [calls] [passes]`: fewer calls or passes, for a quick look, are printed and not written to RESULTS.md. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const [calls, passes] = process.argv.slice(2).map(Number);
  const quick = Boolean(calls || passes);
  const figures = await measureSignIn(console.log, undefined, { ...defaults, ...(calls && { calls }), ...(passes && { passes }) });
  const markdown = signInMarkdown(figures);
  if (!quick) await putSection(heading, markdown);
  console.log(`\n${markdown}\n`);
}
