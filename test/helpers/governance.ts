/**
 * What the maker-checker properties share (test/integration/governance*.property.slow.test.ts):
 * each step's answer held to the same rules, whoever took it. No answer is a
 * 5xx; a step that failed changed nothing the property watches; a refusal
 * (403, or 409 branch_protected) leaves exactly one more refusal in the
 * workspace's audit log; and at the end the log verifies and holds each
 * refusal the sequence met. The answers met are tallied, so that a property
 * can show it reached what it is about.
 */
import { expect } from 'vitest';
import type { ApiResponse } from './api.ts';
import { expectUnpaged } from './envelope.ts';

export const isRefusal = (response: ApiResponse) => response.status === 403 || (response.status === 409 && response.body.code === 'branch_protected');

/** Reads the workspace's audit log, as a key with manage does. */
export type AuditReader = <D>(path: string, query?: Record<string, string>) => Promise<ApiResponse<D>>;

/** The answers a property's steps met, by step kind and answer (`publish 409 approvals_missing`). */
export class Tally {
  readonly counts = new Map<string, number>();

  add(kind: string, response: ApiResponse) {
    const answer = `${kind} ${response.status}${response.status >= 400 ? ` ${response.body.code}` : ''}`;
    this.counts.set(answer, (this.counts.get(answer) ?? 0) + 1);
  }

  /** Prints what was met, and fails unless each of `reached` was met at least once: a property that never publishes or refuses would prove little. */
  expectReached(name: string, reached: string[]) {
    console.log(
      `${name}: ${[...this.counts]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([answer, count]) => `${answer} ×${count}`)
        .join(', ')}`,
    );
    for (const answer of reached) expect(this.counts.get(answer) ?? 0, answer).toBeGreaterThan(0);
  }
}

/** One sequence's account of its refusals, held against the workspace's audit log. */
export class RefusalLedger {
  refusals = 0;

  constructor(private readonly read: AuditReader) {}

  private async recorded() {
    const { records } = expectUnpaged(await this.read<{ records: unknown[] }>('/dev/v1/audit', { outcome: 'forbidden', limit: '100' }));
    return records.length;
  }

  /**
   * Holds one step's answer to the rules every step keeps: below 500; when it
   * failed, `after` is `before`; a refusal is in the audit log once.
   */
  async check(context: string, response: ApiResponse, before: unknown, after: unknown) {
    expect(response.status, `${context}: ${JSON.stringify(response.body)}`).toBeLessThan(500);
    if (response.status < 400) return;
    expect(after, `${context}: a failed step changed something`).toEqual(before);
    if (!isRefusal(response)) return;
    this.refusals++;
    expect(await this.recorded(), `${context}: the refusal is in the audit log once`).toBe(this.refusals);
  }

  /** At the end of a sequence: the log's chain verifies, and it holds each refusal met. */
  async expectAllRecorded() {
    expect(expectUnpaged(await this.read<{ intact: boolean }>('/dev/v1/audit/verify')).intact).toBe(true);
    expect(await this.recorded()).toBe(this.refusals);
  }
}
