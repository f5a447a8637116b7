/**
 * Every bound of a workflow definition and its runs, in one place, so that
 * the schema, the runner, the routes' descriptions and the docs quote the
 * same figures; apart from the schema so that quoting them loads no schema.
 */
export const workflowLimits = {
  steps: 500,
  inputs: 100,
  /** Entries of one name → FEEL map (rule inputs, query, headers, set, output). */
  mapEntries: 100,
  cases: 50,
  pathLength: 2000,
  urlLength: 2000,
  /** One API call, per try. */
  maxRequestTimeoutMs: 30_000,
  defaultRequestTimeoutMs: 10_000,
  maxRetries: 5,
  defaultRetries: 2,
  acceptStatuses: 20,
  /** A synchronous run (test, execute) answers within API Gateway's 29 s: its deadline is at most this, whatever the definition says. */
  maxSyncTimeoutMs: 25_000,
  /** The whole run (a Lambda function lives 15 minutes at most). */
  maxTimeoutMs: 900_000,
  defaultTimeoutMs: 60_000,
} as const;
