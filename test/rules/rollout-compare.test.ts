/**
 * How a rollout counts the engine's comparison of the candidate's answer
 * with the served version's (test/engine/outcome.test.ts checks the
 * comparison itself), and what a sample keeps of each.
 */
import { describe, expect, it } from 'vitest';
import { agreementOf, keptOutcome } from '../../lib/rules/rollout-compare.ts';
import { maxRecordedOutputBytes } from '../../lib/rules/executions.ts';

const failed = (code: string) => ({ error: { code, message: `failed: ${code}` } });

describe('agreement', () => {
  it('is the same output or the same failure; else a disagreement, unless only one of them failed', () => {
    expect(agreementOf({ output: { fee: 1 } }, { output: { fee: 1 } })).toBe('agree');
    expect(agreementOf({ output: { fee: 1 } }, { output: { fee: 2 } })).toBe('disagree');
    expect(agreementOf(failed('evaluation_failed'), failed('evaluation_failed'))).toBe('agree');
    expect(agreementOf(failed('evaluation_failed'), failed('invalid_params'))).toBe('disagree');
    expect(agreementOf({ output: { fee: 1 } }, failed('evaluation_failed'))).toBe('candidateFailed');
    expect(agreementOf(failed('evaluation_failed'), { output: { fee: 1 } })).toBe('baselineFailed');
  });
});

describe('a sample keeps', () => {
  it("each version's output, or its failure, and leaves out an output larger than an execution keeps", () => {
    expect(keptOutcome('v2', { output: { fee: 1 } })).toEqual({ version: 'v2', output: { fee: 1 } });
    expect(keptOutcome('v2', failed('evaluation_failed'))).toEqual({
      version: 'v2',
      error: { code: 'evaluation_failed', message: 'failed: evaluation_failed' },
    });
    expect(keptOutcome('v2', { output: { text: 'x'.repeat(maxRecordedOutputBytes) } })).toEqual({ version: 'v2', outputOmitted: true });
  });
});
