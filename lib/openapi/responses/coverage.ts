/** The answer of a rule's coverage (lib/coverage). */
import { z } from 'zod';
import type { coverageRoutes } from '../../coverage/routes.ts';
import { timestamp, type ResponsesOf } from './shared.ts';

/** A rule's coverage: per part (row, entry, branch) its test cases and production counts, with the parts to mark. */
const unitIndexes = (what: string) => z.array(z.number().int()).describe(`indexes into units: ${what}`);
const coverageSchema = z.object({
  ruleId: z.string(),
  kind: z.enum(['decisionTable', 'ruleSet', 'simpleRule']),
  version: z.string().nullable().describe('the published version counted; null for the draft of a rule never published (test coverage only)'),
  checksum: z.string().describe('of the version (or draft) whose parts these are'),
  publishedAt: timestamp.optional(),
  tests: z.object({
    cases: z
      .array(z.object({ name: z.string(), failed: z.boolean().optional().describe('whether it fails now (absent when the tests could not run)') }))
      .describe("the version's (or draft's) saved test cases, in order: what units[].testCases index"),
    problem: z.string().optional().describe('why the test cases could not run (a rule it refers to no longer resolves): units then have no test cases'),
  }),
  units: z.array(
    z.object({
      index: z.number().int().describe('0-based, as the engine counts hits'),
      kind: z.enum(['row', 'entry', 'branch']),
      name: z.string().describe('as people name it: "row 7", "entry risk", "then", "otherwise"'),
      id: z.string().optional().describe("the row's or entry's id, when it has one"),
      path: z.string().describe('where it is in the definition: definition.rules[6], definition.then'),
      testCases: z.array(z.number().int()).describe('indexes into tests.cases of the cases that reach it, the first few'),
      testCaseCount: z.number().int().describe('how many test cases reach it: 0 marks it untested'),
      matched: z.number().int().optional().describe('executions of the version it gave the answer in (absent for a draft)'),
      lastMatchedAt: timestamp.optional().describe('when it last did'),
    }),
  ),
  production: z
    .object({
      executions: z.number().int().describe('executions of the version counted so far'),
      failed: z.number().int().describe('of them, those that failed (params that do not fit, no answer under the hit policy)'),
      unmatched: z.number().int().describe('of them, those no part answered (a table answered its defaults, or null)'),
      lastExecutedAt: timestamp.optional(),
      neverMatched: unitIndexes('the parts never matched since the version was published'),
      notMatchedSince: z.object({
        days: z.number().int(),
        since: timestamp,
        units: unitIndexes('the parts not matched since then (the never matched ones too)'),
      }),
    })
    .optional()
    .describe('absent for a draft'),
});

export const coverageResponses = {
  getCoverage: { data: coverageSchema },
} satisfies ResponsesOf<typeof coverageRoutes>;
