/**
 * Counts that every execution adds to (a version's coverage, a rollout's
 * agreement), summed in memory by the warm function and added to the table
 * at most every `everyMs`, off the request's path: `add` never waits on
 * I/O, and a flush is started, not awaited, by the add that finds the last
 * one old enough, or by a timer when the function goes quiet. Each flush is
 * one ADD update per item (lib/store/dynamo/tallies.ts), so concurrent
 * functions' counts add up without reading each other.
 *
 * What can be lost: counts added since the last flush live only in this
 * function's memory. A Lambda function frozen between invocations keeps them
 * and flushes on its next invocation (its timer fires when thawed); one that
 * is shut down while frozen, or dies, loses at most what it counted in the
 * last `everyMs` before its last invocation ended. A flush that fails puts
 * its counts back, to go with the next one.
 *
 * A process has one buffer for its store (`tallyBufferOf`), whatever counts:
 * a version's coverage, a rollout's comparisons. Work that will count once it
 * ends (a rollout's comparison, started after the answer) is handed to
 * `whileCounting`, and `flushTallies` waits for it before it flushes: the one
 * flush every entry point that must not leave counts to a frozen function
 * calls (the task worker, the scheduled run, the local runtime as it closes,
 * and tests). Execute does not wait: its counts go with the next flush.
 */
import { logger } from '../logging/logger.ts';
import { talliesPerUpdate, type TallyKey, type TallyStore } from '../store/types.ts';

export const tallyFlush = {
  everyMs: 10_000,
  /** Items waiting for a flush at most: counts for further items are dropped (and logged) until the next flush, so memory stays bounded. */
  maxItems: 1_000,
};

interface Pending {
  key: TallyKey;
  counts: Map<string, number>;
  latest: Map<string, string>;
}

const keyString = (key: TallyKey) => [key.workspaceId, key.branch, key.ruleId, key.name].join('\u0000');

export class TallyBuffer {
  private pending = new Map<string, Pending>();
  private lastFlushAt: number;
  private flushing: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private dropped = 0;

  constructor(
    private readonly store: Pick<TallyStore, 'addTallies'>,
    private readonly options: { everyMs: number; maxItems: number; now: () => number } = { ...tallyFlush, now: Date.now },
  ) {
    this.lastFlushAt = options.now();
  }

  /** Adds `counts` (and sets the `latest` times) of the item `key`; a flush starts when the last one is older than `everyMs`. */
  add(key: TallyKey, counts: Iterable<readonly [string, number]>, latest: Iterable<readonly [string, string]> = []) {
    const id = keyString(key);
    let item = this.pending.get(id);
    if (!item) {
      if (this.pending.size >= this.options.maxItems) {
        this.dropped++;
        return;
      }
      item = { key, counts: new Map(), latest: new Map() };
      this.pending.set(id, item);
    }
    for (const [name, n] of counts) item.counts.set(name, (item.counts.get(name) ?? 0) + n);
    for (const [name, at] of latest) if (at > (item.latest.get(name) ?? '')) item.latest.set(name, at);
    if (this.options.now() - this.lastFlushAt >= this.options.everyMs) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.lastFlushAt + this.options.everyMs - this.options.now()).unref();
  }

  /** Adds everything counted so far to the table: what tests and a shutting-down runtime call; one flush at a time. */
  async flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => (this.pending.size ? this.flush() : undefined));
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastFlushAt = this.options.now();
    const batch = [...this.pending.values()];
    this.pending = new Map();
    if (this.dropped) logger.warn('tallies dropped: too many items waiting for a flush', { items: this.options.maxItems, dropped: this.dropped });
    this.dropped = 0;
    this.flushing = (async () => {
      for (const item of batch)
        for (const part of updatesOf(item))
          try {
            await this.store.addTallies(item.key, Object.fromEntries(part.counts), Object.fromEntries(part.latest));
          } catch (error) {
            // An update whose answer was lost may have been applied: its counts then count twice, which is rarer and less harmful than dropping them.
            logger.warn('tallies not flushed: kept for the next flush', error as Error);
            this.add(item.key, part.counts, part.latest);
          }
    })().finally(() => (this.flushing = undefined));
    return this.flushing;
  }
}

/** An item's counts and times cut into updates of at most `talliesPerUpdate`. */
function updatesOf(item: Pending): { counts: [string, number][]; latest: [string, string][] }[] {
  const changes = [...[...item.counts].map((c) => ({ count: c })), ...[...item.latest].map((l) => ({ latest: l }))];
  const parts = [];
  for (let start = 0; start < changes.length; start += talliesPerUpdate) {
    const chunk = changes.slice(start, start + talliesPerUpdate);
    parts.push({ counts: chunk.flatMap((c) => ('count' in c ? [c.count] : [])), latest: chunk.flatMap((c) => ('latest' in c ? [c.latest] : [])) });
  }
  return parts;
}

const buffers = new Map<Pick<TallyStore, 'addTallies'>, TallyBuffer>();
const counting = new Set<Promise<unknown>>();

/** The process's buffer for `store`: a function has one store, and so one buffer, one timer and one cap. */
export function tallyBufferOf(store: Pick<TallyStore, 'addTallies'>): TallyBuffer {
  let buffer = buffers.get(store);
  if (!buffer) buffers.set(store, (buffer = new TallyBuffer(store)));
  return buffer;
}

/** Keeps `work` (which adds to a buffer when it ends, and handles its own failure) in view until it ends, so that `flushTallies` waits for it. */
export function whileCounting(work: Promise<unknown>): void {
  const tracked = work.finally(() => counting.delete(tracked));
  counting.add(tracked);
}

/** Waits for the work still counting, then adds everything counted so far to the table. */
export async function flushTallies(): Promise<void> {
  while (counting.size) await Promise.allSettled([...counting]);
  await Promise.all([...buffers.values()].map((buffer) => buffer.flush()));
}
