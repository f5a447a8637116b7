/**
 * Replaying a shard: each of its inputs on both sides, tallied into the shard's part
 * (./report.ts). The worker's shards and the publish gate's inline replay
 * both come here. Recorded executions are read a page at a time and
 * evaluated as they come, so a shard holds one page of inputs at most.
 */
import type { ExecutionRange, ExecutionStore, RuleScope } from '../store/types.ts';
import { ReportTally, type ReportPart } from './report.ts';
import { evaluateOutcome, keptFailure } from '../engine/index.ts';
import { ReplayRefused, type ReplayRules } from './rules.ts';

/** One input to replay: its params, the instant it runs at (now() and today()), and the recorded execution it comes from. */
export interface ReplayInput {
  params: unknown;
  clock: Date;
  executionId?: string;
}

/** A range of a rule's recorded executions, oldest first, each at the time it started. */
export async function* rangeInputs(store: Pick<ExecutionStore, 'readExecutionRange'>, scope: RuleScope, range: ExecutionRange): AsyncGenerator<ReplayInput> {
  let after: string | undefined;
  do {
    const page = await store.readExecutionRange(scope, range, after);
    for (const { input, startedAt, executionId } of page.items) yield { params: input, clock: new Date(startedAt), executionId };
    after = page.next;
  } while (after);
}

/** Runs each input on both sides and tallies it as shard `shard`; a shard still running at `deadline` (epoch ms) is refused. */
export async function tallyShard(
  rules: ReplayRules,
  shard: number,
  inputs: AsyncIterable<ReplayInput> | Iterable<ReplayInput>,
  deadline = Number.POSITIVE_INFINITY,
): Promise<ReportPart> {
  const tally = new ReportTally(shard, rules.units);
  let count = 0;
  for await (const { params, clock, executionId } of inputs) {
    if (Date.now() > deadline)
      throw new ReplayRefused(
        `The replay's shard ${shard} ran out of time after ${count} inputs: the rules take too long on these inputs to replay them within a worker's time limit.`,
      );
    const [baseline, candidate] = [rules.baseline, rules.candidate].map((side) => keptFailure(evaluateOutcome(side.rule, params, { clock })));
    tally.add(params, baseline!, candidate!, executionId);
    count++;
  }
  return tally.part();
}
