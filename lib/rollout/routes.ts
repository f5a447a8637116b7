/**
 * A rule's rollout: read it, start or change it, promote its candidate, end
 * it. Beside the entity operations' paths; only rules have rollouts, and a
 * workflow is answered why (400 rollout_not_supported), not "no such type".
 */
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';
import { rolloutSampleRetentionDays } from '../store/types.ts';
import { tallyFlush } from '../tallies/buffer.ts';
import { promoteBodySchema, rolloutBodySchema } from './schema.ts';
import { shownSamples } from './service.ts';
import { sampleLimits } from '../rules/rollout-watch.ts';

const onRollout = { branch: 'optional', query: emptyQuery, entityTypes: ['rule'], path: '/dev/v1/{entityType}/{entityId}/rollout' } as const;

const answered = `Answers the rollout as getRollout does.`;
const rulesOnly =
  'Workflows have no rollouts (400 rollout_not_supported): their API-request steps have effects, which a second version run beside them would make twice.';

export const rolloutRoutes = {
  getRollout: {
    ...onRollout,
    method: 'GET',
    operationId: 'getRollout',
    permission: 'read',
    handler: 'get-rollout',
    summary: "A rule's candidate and rollout: what the candidate did on live executions",
    description: `The version executions get by default, the candidate (published with {"candidate": true}), and the running rollout, or the last one with how it stopped (ended, promoted, superseded by a publish): its settings, its counts (executions compared; agree: the same answer, that is the same output (numbers by value, object keys in any order) or failures with the same code; disagree: another output, or failures with different codes, which a replay counts as changed too; candidateFailed; baselineFailed: the candidate answered where the served version failed; a canary's servedByCandidate and servedByBaseline; notSticky: a canary's picked at random for want of the stickyBy value), the agreement rate, and the ${shownSamples} newest disagreements with the params and both versions' outputs or errors. Each function adds its counts at most every ${tallyFlush.everyMs / 1000} s, so the latest executions may not be counted yet; disagreements are sampled (at most one a second per function) and kept ${rolloutSampleRetentionDays} days. rollout is null before the first. ${rulesOnly}`,
    tableAccess: 'read',
  },
  startRollout: {
    ...onRollout,
    method: 'PUT',
    operationId: 'startRollout',
    permission: 'publish',
    handler: 'start-rollout',
    summary: "Start, or change, the rollout of a rule's candidate: shadow or canary",
    description: `Shadow: every execution (that names no version) also runs the candidate on the same params as of the same time, after its answer is ready and without changing it. Canary: the candidate answers \`percent\` of executions, picked by a stable hash of the stickyBy param's value, so that the same value always gets the same version (and a wider canary keeps those a narrower one picked); each execution records the version that answered, and the other runs beside it to compare. \`candidate\` must be the rule's candidate (409 rollout_refused otherwise, or when the rule has no served version to compare with). The same candidate and mode again keep the rollout and its counts (a canary's percent and stickyBy may change); another starts a new one. Comparisons are counted and disagreements sampled at most one per ${sampleLimits.sampleEveryMs / 1000} s per function, off the execution's path. ${answered} ${rulesOnly}`,
    body: rolloutBodySchema,
    tableAccess: 'readWrite',
  },
  promoteCandidate: {
    ...onRollout,
    method: 'POST',
    operationId: 'promoteCandidate',
    permission: 'publish',
    path: '/dev/v1/{entityType}/{entityId}/rollout/promote',
    handler: 'promote-candidate',
    summary: 'Promote the candidate: make it the version executions get by default',
    description: `Makes \`candidate\` the served version and ends its rollout (its results stay to read). A candidate already served is answered as done, so a retry is harmless; another than the rule's candidate is 409 promote_refused. ${answered} ${rulesOnly}`,
    body: promoteBodySchema,
    tableAccess: 'readWrite',
  },
  endRollout: {
    ...onRollout,
    method: 'DELETE',
    operationId: 'endRollout',
    permission: 'publish',
    handler: 'end-rollout',
    summary: 'End the rollout: executions go back to the served version alone',
    description: `Stops the running rollout; its results stay to read, and the candidate stays the candidate. With none running, changes nothing. ${answered} ${rulesOnly}`,
    tableAccess: 'readWrite',
  },
} satisfies Record<string, Route>;
