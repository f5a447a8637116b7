/** Warm latency of several calls measured side by side. */

/** Prepares one call (inputs built outside the timing) and returns it. */
export type Probe = () => () => Promise<unknown>;

export interface LatencyOptions {
  warmup: number;
  calls: number;
  /** Stops measuring after this long even if fewer calls were made, so a slow build cannot hang the run. */
  maxMs: number;
}

/**
 * Times each probe `calls` times after `warmup` untimed calls. The probes take
 * turns, and the turn order rotates every round, so that garbage collection,
 * JIT tiers and other drift fall on all of them alike.
 */
export async function compareLatency<K extends string>(probes: Record<K, Probe>, options: LatencyOptions): Promise<Record<K, number[]>> {
  const names = Object.keys(probes) as K[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < options.warmup; i++) for (const name of names) await probes[name]()();
  const deadline = performance.now() + options.maxMs;
  for (let round = 0; round < options.calls && performance.now() < deadline; round++) {
    for (let turn = 0; turn < names.length; turn++) {
      const name = names[(round + turn) % names.length]!;
      const call = probes[name]();
      const started = performance.now();
      await call();
      samples[name].push(performance.now() - started);
    }
  }
  return samples;
}
