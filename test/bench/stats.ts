/** Nearest-rank quantile (q in [0, 1]) of the samples; the median of an odd count is its middle sample. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export const median = (samples: readonly number[]) => quantile(samples, 0.5);
