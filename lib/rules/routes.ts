/**
 * Running rules: test a draft, execute a published version, list the recorded
 * executions. Their paths sit beside the entity operations'
 * (`/dev/v1/{entityType}/{entityId}/...`, as API Gateway allows one variable
 * per level) and serve the rule type only.
 */
import { ruleTypes } from '../http/params.ts';
import { emptyQuery, pageQuerySchema } from '../http/queries.ts';
import type { Route } from '../http/routes.ts';
import { executionRetentionDays } from '../store/types.ts';
import { executeRuleSchema, testRuleSchema } from './schema.ts';

const onRule = { method: 'POST', branch: 'optional', query: emptyQuery, entityTypes: ruleTypes } as const;

export const ruleRunRoutes = {
  testRule: {
    ...onRule,
    operationId: 'testRule',
    path: '/dev/v1/{entityType}/{entityId}/test',
    handler: 'test-rule',
    summary: 'Try a rule on params, with a trace of every row',
    description:
      "Evaluates the rule's draft (or, with `version`, a published version) on `params` and answers the output with a trace: for a decision table the input values and, for every row, whether it matched or which cell failed on which value. Nothing is recorded. With `checksum`, answers 409 checksum_mismatch when what would be tested is no longer what you last read.",
    body: testRuleSchema,
    tableAccess: 'read',
  },
  executeRule: {
    ...onRule,
    operationId: 'executeRule',
    path: '/dev/v1/{entityType}/{entityId}/execute',
    handler: 'execute-rule',
    summary: 'Execute the published rule',
    description:
      "Runs the latest published version of the rule (or, with `version`, that one) on `params` and answers its output, the version that ran and the execution's id. Params are checked against the rule's declared parameters (400 naming each param at fault); a rule that cannot answer (two rows match under the hit policy unique) is 422. When the rule's settings.recordExecutions is true, the execution is recorded, failed ones too, and listed by listExecutions.",
    body: executeRuleSchema,
    // It records executions.
    tableAccess: 'readWrite',
  },
  listExecutions: {
    ...onRule,
    method: 'GET',
    operationId: 'listExecutions',
    path: '/dev/v1/{entityType}/{entityId}/executions',
    handler: 'list-executions',
    summary: "List a rule's recorded executions",
    description: `One page of the recorded executions of the rule, newest first: input, output or error, version, outcome, trigger, duration and times. Executions are kept ${executionRetentionDays} days; API executions are recorded when the rule sets settings.recordExecutions.`,
    query: pageQuerySchema,
    tableAccess: 'read',
  },
} satisfies Record<string, Route>;
