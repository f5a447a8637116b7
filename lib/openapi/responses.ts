import { z } from 'zod';
import { entityDetailSchema, entityRecordSchema, entitySummarySchema } from '../vocabulary/records.ts';
import type { routes } from '../api/routes.ts';
import { integrationLimits } from '../integrations/schema.ts';
import { formatFiles } from '../interchange/format-contract.ts';
import { scheduleUnits } from '../vocabulary/schedule.ts';
import { credentialPlacements, remoteFormats, rolloutEndings, rolloutModes, stepStatuses } from '../store/types.ts';
import { rolloutCounts, type RolloutView } from '../rollout/service.ts';
import { permissions, roleNames, type Role } from '../vocabulary/permissions.ts';
import type { KeyView } from '../workspaces/keys.ts';

/** An API key as the key operations show it: never its secret. */
const keySchema = z.object({
  keyId: z.string(),
  label: z.string(),
  owner: z.string().describe('the person or system it belongs to'),
  role: z.enum(roleNames as [Role, ...Role[]]),
  branches: z.array(z.string()).optional().describe('the branches it is limited to; absent, every branch'),
  createdAt: z.string(),
  expiresAt: z.string().optional(),
  revokedAt: z.string().optional(),
  state: z.enum(['active', 'expired', 'revoked']),
}) satisfies z.ZodType<KeyView>;

const timestamp = z.string().datetime();

const credentialSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.literal('apiKey'),
  key: z.string().describe('the header or query parameter name, exactly as the provider names it'),
  placement: z.enum(credentialPlacements),
  description: z.string(),
  allowedHosts: z
    .array(z.string())
    .describe(
      'the hosts it may be sent to (api.example.com, *.example.com, with an optional :port). A credential made before hosts were required shows those of the integrations and remote that use it, which its first use binds it to; empty when nothing uses it, which sends it nowhere until they are set',
    ),
  valueHint: z.string().describe('the last characters of the value at most; the value itself is never returned'),
  status: z.enum(['active', 'revoked']),
  createdAt: timestamp,
  updatedAt: timestamp,
  rotatedAt: timestamp.optional(),
  revokedAt: timestamp.optional(),
});

const testResultSchema = z.object({
  status: z.number().int().describe("the provider's HTTP status; 0 when no answer came"),
  ok: z.boolean(),
  durationMs: z.number(),
  message: z.string().describe('what the answer means for the key: 401 wrong or revoked, 403 valid but lacking the permission'),
  failure: z.enum(['dns', 'refused', 'timeout', 'tls', 'too_large', 'too_many_redirects', 'network']).optional(),
});

const integrationSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.literal('restApi'),
  baseUrl: z.string().describe('what step paths are joined to'),
  headers: z.record(z.string(), z.string()).describe("sent on every call, under the step's own headers"),
  credentialId: z.string().optional().describe('the credential placed on every call, when there is one'),
  timeoutMs: z.number().int(),
  description: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  revision: z.number().int().describe('1 when created, one more with each change'),
});

const integrationTestResultSchema = z.object({
  status: z.number().int().describe("the provider's HTTP status; 0 when no usable answer came"),
  ok: z.boolean(),
  durationMs: z.number(),
  message: z.string().describe('what the answer means (401: the key is wrong or revoked, 403: valid but lacking the permission), or why no usable answer came'),
  failure: z
    .enum(['dns', 'refused', 'timeout', 'tls', 'too_large', 'too_many_redirects', 'network', 'not_json'])
    .optional()
    .describe('why no usable answer came: not_json, a successful answer whose body is not JSON'),
  body: z.unknown().optional().describe("the provider's JSON answer, when it gave one (absent when empty or not JSON)"),
  bodyOmitted: z.literal(true).optional().describe(`set instead of body when the answer is larger than ${integrationLimits.testAnswerBytes} bytes as JSON`),
});

const changeCounts = z.object({ added: z.number().int(), updated: z.number().int(), deleted: z.number().int(), unchanged: z.number().int() });

const taskStateSchema = z.enum(['pending', 'in-progress', 'completed', 'failed']);

const stepRecordSchema = z.object({
  id: z.string(),
  type: z.enum(['rule', 'apiRequest', 'branch', 'transform', 'end']),
  status: z.enum(stepStatuses),
  durationMs: z.number(),
  output: z
    .unknown()
    .optional()
    .describe("what the step gave: a rule's answer, an API request's {status, headers, body}, a transform's values, the end's output"),
  error: z.string().optional().describe('why the step failed'),
});

const workflowRunSchema = z.object({
  status: z.enum(['succeeded', 'failed']),
  output: z.unknown().optional().describe("the end step's output, when the run succeeded"),
  error: z.object({ stepId: z.string(), message: z.string() }).optional().describe('which step failed, and why'),
  steps: z.array(stepRecordSchema).describe('the steps run, in order, then those skipped'),
  executionId: z.string().describe('listed by listExecutions when the workflow records executions'),
  version: z.string().describe('the version that ran; empty for the draft'),
  durationMs: z.number().describe('milliseconds the whole run took'),
});

const workflowRunTaskSchema = z.object({
  workflowId: z.string(),
  version: z.string(),
  executionId: z.string(),
  result: workflowRunSchema
    .extend({ outputOmitted: z.literal(true).optional() })
    .optional()
    .describe('the run, once the task ended'),
});

const count = z.number().int();
const replaySideSchema = z.object({
  label: z.string().describe('"draft", or a version label'),
  checksum: z.string().describe('what it held when the replay was asked'),
});
const caseSideSchema = z.object({
  output: z.unknown().optional(),
  error: z.object({ code: z.string(), message: z.string().optional() }).optional().describe('why it failed, when it did'),
  hits: z.array(z.string()).describe('the rows, entries or branches that gave the answer, by name (the first 10)'),
  moreHits: count.optional(),
});
const unitHitsSchema = z.object({ name: z.string().describe('row 3, entry risk, then, otherwise'), id: z.string().optional(), hits: count });

/** A replay's report (lib/replay/report.ts). */
export const replayReportSchema = z.object({
  counts: z.object({
    inputs: count,
    same: count,
    changed: count.describe('both answered, differently'),
    newlyFailing: count.describe('the baseline answered, the candidate failed'),
    newlySucceeding: count.describe('the baseline failed, the candidate answered'),
    bothFailing: count,
  }),
  hits: z
    .object({
      baseline: z.array(unitHitsSchema),
      candidate: z.array(unitHitsSchema),
      notListed: z.object({ baseline: count, candidate: count }).optional().describe('units past the listed JSON (50 KB a side), counted'),
    })
    .describe('per row, entry or branch of each side, in order: how often it gave the answer'),
  fields: z
    .array(
      z.object({
        field: z.string().describe('a top-level output field, [i] for an item of a list answer, (answer) for another answer'),
        changed: count,
        delta: z
          .object({ count, mean: z.number(), min: z.number(), max: z.number() })
          .optional()
          .describe('candidate − baseline, exact, over the changes where both were numbers'),
        overflow: z.literal(true).optional().describe('a delta beyond decimal128: no statistics'),
      }),
    )
    .describe('the fields of changed outputs that changed, most often first (the first 100)'),
  moreFields: count.optional(),
  fieldsNotTracked: z.literal(true).optional().describe('outputs had more than 300 fields: those after it in text order were not tallied'),
  sample: z
    .array(
      z.object({
        inputIndex: count.describe('its place among the inputs: executions oldest first, or the list'),
        executionId: z.string().optional(),
        input: z.unknown().optional(),
        baseline: caseSideSchema,
        candidate: caseSideSchema,
        omitted: z.literal(true).optional().describe('larger than 6 KB: input, outputs and error messages left out'),
      }),
    )
    .describe('the first 20 changed outcomes, in input order'),
});

const replayTaskSchema = z.object({
  ruleId: z.string(),
  candidate: replaySideSchema,
  baseline: replaySideSchema,
  source: z
    .union([z.object({ executions: z.object({ from: timestamp, to: timestamp, limit: count }) }), z.object({ paramsList: z.object({ count }) })])
    .describe('the window of recorded executions, as replayed, or how many params were given'),
  gate: z
    .object({ maxChangedRatio: z.number(), window: z.string(), passed: z.boolean() })
    .optional()
    .describe("set when a publish ran it for the rule's replayGate"),
  report: replayReportSchema.optional().describe('once completed'),
});

const taskSchema = z.object({
  taskId: z.string(),
  taskState: taskStateSchema,
  branch: z.string(),
  createdAt: timestamp,
  startedAt: timestamp.optional(),
  finishedAt: timestamp.optional(),
  commit: z.string().optional().describe("once completed, the commit pulled, or the one a push left the remote's branch at"),
  summary: z
    .object({
      rule: changeCounts,
      workflow: changeCounts,
      ignoredFolders: z.array(z.string()),
      notCarried: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .optional()
        .describe('what DMN, XLSX, CSV or JDM files hold that no rule keeps, by file and element, and why (the first 100)'),
    })
    .optional()
    .describe("what a pull changed on the branch, or a push in the remote's branch (its files)"),
  error: z.string().optional().describe('what failed, in words a user can act on'),
  workflowRun: workflowRunTaskSchema.optional().describe('set for an asynchronous workflow run (execute with async: true) instead of the pull fields'),
  push: z
    .object({
      pushed: z.boolean().optional().describe('once completed: false when the remote already held what the branch holds, and no commit was made'),
      message: z.string().optional().describe("the pushed commit's message"),
    })
    .optional()
    .describe('set for a push'),
  replay: replayTaskSchema.optional().describe('set for a replay of a rule'),
  shards: z.object({ count, done: count }).optional().describe('a task split into shards, each a message of the queue: how many, and how many are done'),
});

const remoteSchema = z.object({
  url: z.string(),
  credentialId: z.string().optional(),
  format: z.enum(remoteFormats).describe('how a push writes decision tables; every other rule and workflow is JSON'),
  updatedAt: timestamp,
});

/** A warning or problem of a rule, by its path in the definition. */
const findingSchema = z.object({ path: z.string().describe('where in the record: definition.rules[2].when[0]'), message: z.string() });

const savedSchema = z.object({
  id: z.string(),
  checksum: z.string().describe('what the draft holds now: send it with the next edit or publish'),
  warnings: z.array(findingSchema).describe('what the save found without refusing it: rows that can never be the answer, gaps'),
});

// Traces are loose objects: the engine may explain more in later versions.
const rowTraceSchema = z.looseObject({
  row: z.number().int().describe('1-based'),
  id: z.string().optional(),
  matched: z.boolean(),
  failed: z
    .looseObject({ input: z.string(), cell: z.string(), value: z.unknown(), reason: z.string().optional() })
    .optional()
    .describe('for a row that did not match: the first cell that failed, the value it was given, and why when a type error made it fail'),
});
const ruleTraceSchema = z
  .union([
    z.looseObject({
      kind: z.literal('decisionTable'),
      inputs: z.array(z.looseObject({ label: z.string(), value: z.unknown() })),
      rows: z.array(rowTraceSchema),
    }),
    z.looseObject({ kind: z.literal('simpleRule'), condition: z.string(), result: z.boolean().nullable(), reason: z.string().optional() }),
    z.looseObject({
      kind: z.literal('ruleSet'),
      entries: z.array(
        z.looseObject({
          id: z.string(),
          matched: z.boolean(),
          ruleId: z.string().optional(),
          condition: z.string().optional(),
          reason: z.string().optional(),
          trace: z.looseObject({ kind: z.string() }).optional().describe("the referenced rule's own trace, of the shape above"),
        }),
      ),
    }),
  ])
  .describe('why the rule answered as it did');

const durationMs = z.number().describe('milliseconds the evaluation took (loading and compiling not included)');

/** A batch's answer to one input that gave none. */
const slotErrorSchema = z
  .object({
    code: z.string().describe('what a call with this input alone answers: invalid_request (params that do not fit the inputs), evaluation_failed, ...'),
    message: z.string(),
    fields: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe('the params at fault, by name (params.<input>)'),
  })
  .describe('why this input has no output');

/** A batch's answer (`paramsList`): a slot an input, in order, `answered` for an input that answered, and `each` for every input. */
const batchAnswer = (slots: { answered: z.ZodRawShape; each: z.ZodRawShape }, extra: z.ZodRawShape, description: string) =>
  z
    .object({
      outputs: z
        .array(z.union([z.object({ ...slots.answered, ...slots.each }), z.object({ error: slotErrorSchema, ...slots.each })]))
        .describe('one an input of paramsList, in its order'),
      ...extra,
      durationMs: z.number().describe('milliseconds the evaluations of every input took (loading and compiling, once, not included)'),
    })
    .describe(description);

const executionSchema = z.object({
  executionId: z.string(),
  ruleId: z.string().optional().describe("a rule's execution: the rule"),
  workflowId: z.string().optional().describe("a workflow's execution: the workflow"),
  steps: z.array(stepRecordSchema).optional().describe("a workflow's execution: its steps (without their outputs when together they were too large to keep)"),
  version: z.string().describe('the version that ran; empty when none could (a scheduled run of a rule deleted or not published)'),
  trigger: z.enum(['api', 'schedule']),
  scheduledTime: timestamp.optional().describe("a scheduled run: when it was due (its params are the schedule's inputParam, its clock this time)"),
  outcome: z.enum(['succeeded', 'failed']),
  input: z.unknown().describe('the params as given'),
  output: z.unknown().optional().describe("the rule's answer; absent when it failed or was too large to keep"),
  outputOmitted: z.boolean().optional().describe('true when the answer was larger than an execution keeps'),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  durationMs,
  startedAt: timestamp,
  finishedAt: timestamp,
  expiresAt: timestamp.describe('when the record is deleted'),
});

const storedScheduleSchema = z
  .object({
    unit: z.enum(scheduleUnits),
    isEnabled: z.boolean(),
    startAt: z.string().optional().describe('as sent'),
    endAt: z.string().optional().describe('as sent'),
    timezone: z.string().describe('the IANA time zone the spec is read in'),
    spec: z
      .object({ minute: z.string(), hour: z.string(), dayOfMonth: z.string(), month: z.string(), dayOfWeek: z.string() })
      .describe('the cron fields, defaults of the unit applied'),
    inputParam: z.record(z.string(), z.unknown()).describe("the rule's params for every run"),
  })
  .describe('the schedule as stored: the body with every default applied');
const scheduleExpressionSchema = z.string().describe('the cron expression as EventBridge Scheduler is sent it, read in the timezone: cron(0 9 ? * MON-FRI *)');
const scheduleViewSchema = z.object({
  schedule: storedScheduleSchema,
  expression: scheduleExpressionSchema,
  nextRuns: z
    .array(z.object({ local: z.string().datetime({ offset: true }).describe("in the schedule's time zone, with its offset then"), utc: timestamp }))
    .describe('the next three runs; none while the schedule is disabled'),
});
/** What a save with isDelete answers. */
const scheduleDeletedSchema = z.union([
  z.object({ deleted: z.literal(true), schedule: storedScheduleSchema, expression: scheduleExpressionSchema }).describe('the schedule deleted'),
  z.object({ deleted: z.literal(false) }).describe('there was no schedule to delete'),
]);

const openApiSchema = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    servers: z.array(z.looseObject({ url: z.string() })).describe('one: the URL this document was fetched from'),
    paths: z.record(z.string(), z.unknown()),
  })
  .describe('this document (OpenAPI 3.1)');

/**
 * What `data` holds in each operation's success envelope, or the `body` an
 * operation answers instead of an envelope; every route must have an entry.
 * `created`: a new resource answers 201, a retried create 200. `accepted`:
 * what a request queued instead of done answers, with 202; an entry with
 * `accepted` alone is an operation that always queues.
 */
const auditRecordSchema = z.object({
  workspaceId: z.string(),
  seq: z.number().int().describe('1, 2, 3, ... without gaps'),
  at: timestamp.describe('when it was recorded; never before the record before it'),
  actor: z.object({ keyId: z.string(), owner: z.string(), role: z.string() }).describe('the key, its owner and its role then'),
  operation: z.string().describe("the operation's id (createEntity, publishEntity, ...), as in this document"),
  target: z.object({ type: z.string(), id: z.optional(z.string()), branch: z.optional(z.string()) }),
  requestId: z.string(),
  outcome: z.enum(['ok', 'forbidden']),
  checksumBefore: z.optional(z.string()),
  checksumAfter: z.optional(z.string()),
  detail: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).describe('facts of the operation: never a secret')),
  prevHash: z.string().describe('the hash of the record before (64 zeros for the first)'),
  prevAt: z.optional(timestamp.describe('when the record before was recorded')),
  hash: z.string().describe('SHA-256 (hex) of the canonical JSON of every other field (keys sorted, no spaces)'),
});

const approvalSchema = z.object({ owner: z.string(), keyId: z.string(), comment: z.string(), at: timestamp });
const changeRequestSchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  branch: z.string(),
  entityType: z.enum(['rule', 'workflow']),
  entityId: z.string(),
  checksum: z.string().describe('the draft proposed'),
  description: z.string(),
  baseVersion: z.string().describe("the version it changes ('' when never published)"),
  baseChecksum: z.string(),
  author: z.object({ owner: z.string(), keyId: z.string() }),
  createdAt: timestamp,
  state: z.enum(['open', 'rejected', 'published']),
  approvals: z.array(approvalSchema).describe('one per owner, oldest first'),
  rejection: z.optional(approvalSchema),
  publishedVersion: z.optional(z.string()),
  closedAt: z.optional(timestamp),
  diff: z
    .array(z.object({ path: z.string(), before: z.optional(z.unknown()), after: z.optional(z.unknown()) }))
    .describe('what changed since the base version'),
  diffTruncated: z.boolean(),
  tests: z.object({ total: z.number().int(), failed: z.number().int(), failures: z.array(z.object({ name: z.string(), message: z.string() })) }),
  replayTaskId: z.string().optional().describe('for a rule with settings.replayGate: the replay of the draft run when it was proposed'),
  replay: replayTaskSchema
    .extend({ taskId: z.string() })
    .partial()
    .optional()
    .describe('getChangeRequest: that replay, with its report, as GET /dev/v1/tasks/{taskId} shows it (only its taskId once the task expired, 30 days on)'),
  stale: z.boolean().describe('the draft was edited after it was proposed'),
  requiredApprovals: z.number().int().describe('what the branch requires now (0: not protected)'),
  publishable: z.boolean(),
});
const protectionAnswer = z.object({
  branch: z.string(),
  protection: z.object({ requiredApprovals: z.number().int(), updatedAt: timestamp }).nullable(),
});

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
const candidateSchema = z
  .object({ version: z.string(), checksum: z.string() })
  .describe('the candidate version: published with {"candidate": true}, run only when named or by a rollout until promoted');
const versionOutcomeSchema = z.object({
  version: z.string(),
  output: z.unknown().optional().describe('what the version answered'),
  outputOmitted: z.literal(true).optional().describe('set instead of output when the answer was larger than an execution keeps'),
  error: z.object({ code: z.string(), message: z.string() }).optional().describe('why the version gave no answer'),
});
const rolloutViewSchema = z.object({
  version: z.string().describe('the version executions get by default; empty when none'),
  candidate: candidateSchema.nullable(),
  rollout: z
    .object({
      id: z.string().describe('names its counts and sample: a new rollout starts them afresh'),
      candidate: z.string(),
      mode: z.enum(rolloutModes),
      percent: z.number().int().optional().describe("a canary's share of executions the candidate answers"),
      stickyBy: z.string().optional().describe('the param whose value picks the version'),
      state: z.enum(['running', ...rolloutEndings]).describe('running, or how it stopped: ended, promoted, or superseded by a publish'),
      startedAt: timestamp,
      startedBy: z.string(),
      updatedAt: timestamp.optional().describe('the last change of percent or stickyBy'),
      updatedBy: z.string().optional(),
      endedAt: timestamp.optional(),
      endedBy: z.string().optional(),
      ending: z.enum(rolloutEndings).optional(),
    })
    .nullable()
    .describe('the running rollout, or the last one; null before the first'),
  counts: z
    .object(Object.fromEntries(rolloutCounts.map((name) => [name, z.number().int()])) as Record<(typeof rolloutCounts)[number], z.ZodNumber>)
    .nullable()
    .describe('executions compared and how (see the operation), counted by the functions every 10 s at most'),
  agreementRate: z.number().nullable().describe('agree ÷ compared, to 4 decimals; null before any execution was compared'),
  disagreements: z
    .array(
      z.object({
        executionId: z.string(),
        at: timestamp.describe('when the execution ran: both versions ran as of this time'),
        servedBy: z.enum(['baseline', 'candidate']).describe('which version answered the caller'),
        input: z.unknown().describe('the params as given'),
        baseline: versionOutcomeSchema.describe('the served version'),
        candidate: versionOutcomeSchema,
      }),
    )
    .describe('the newest sampled disagreements, newest first'),
}) satisfies z.ZodType<RolloutView>;

export const responses = {
  listEntities: { data: z.array(entitySummarySchema) },
  listEntitiesLegacy: { data: z.array(entitySummarySchema) },
  getEntity: {
    data: entityDetailSchema.extend({
      warnings: z.array(findingSchema).describe('the analysis the last save stored (empty when the writer did not analyse it: import, pull)'),
      schedule: z
        .object({ schedule: storedScheduleSchema, expression: scheduleExpressionSchema })
        .optional()
        .describe("a rule's schedule, when it has one (its next runs: getSchedule)"),
      candidate: candidateSchema.optional().describe("a rule's candidate version, when it has one (its rollout: getRollout)"),
    }),
  },
  createEntity: { data: savedSchema, created: true },
  updateEntity: { data: savedSchema },
  publishEntity: {
    data: z.object({
      id: z.string(),
      version: z.string(),
      checksum: z.string(),
      candidate: z.literal(true).optional().describe("set when the version is the rule's candidate, which executions get by default only once promoted"),
      replayTaskId: z
        .string()
        .optional()
        .describe('for a rule with settings.replayGate: the replay the publish ran (or was acknowledged with), at GET /dev/v1/tasks/{taskId}'),
    }),
    created: true,
  },
  importRules: {
    data: z.object({
      dryRun: z.boolean(),
      records: z.array(
        z.object({
          entityType: z.enum(['rule', 'workflow']),
          id: z.string(),
          type: z.string().describe('the kind: decisionTable, simpleRule, ruleSet (or workflow, from a JDM graph)'),
          name: z.string(),
          action: z.enum(['create', 'replace', 'unchanged']).describe('what the import does (or, in a dry run, would do) with the draft of this id'),
          checksum: z.string().describe('the checksum the draft has once imported'),
          previousChecksum: z.string().optional().describe('the checksum of the draft it replaces'),
          checksumRequired: z.boolean().optional().describe("a dry run's replacement the request gave no checksum for: the import itself would answer 409"),
          warnings: z.array(z.object({ path: z.string(), message: z.string() })),
          record: z.unknown().optional().describe('in a dry run: the record as it would be saved, to compare with the draft'),
        }),
      ),
      problems: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .describe('in a dry run, what would refuse the import, by file and element (a real import with problems is refused: 400 import_refused)'),
      notCarried: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .describe('what the file holds that no record keeps, by element, and why (boxed contexts, BKMs, unknown types, extra sheets, ...)'),
    }),
    created: true,
  },
  exportRule: {
    file: {
      contentType: Object.values(formatFiles).map((format) => format.contentType),
      description: 'the file: DMN 1.5 XML, an XLSX workbook, CSV, or GoRules JDM JSON, as the format asked',
      schema: z.unknown(),
      headers: { 'Content-Disposition': { description: "attachment, with the file name: the rule id and the format's extension", schema: { type: 'string' } } },
    },
  },
  deleteEntity: { data: z.object({ id: z.string(), deleted: z.boolean().describe('false when there was nothing to delete') }) },
  testEntity: {
    data: z.union([
      z.object({ output: z.unknown(), trace: ruleTraceSchema, durationMs }).describe('a rule'),
      batchAnswer(
        {
          answered: {
            output: z.unknown(),
            trace: ruleTraceSchema.optional(),
            traceOmitted: z.literal(true).optional().describe('no trace: the answer had no room left for it (test this input alone to see it)'),
          },
          each: {},
        },
        { version: z.string().optional().describe('the published version tested, when one was named') },
        'a rule, given paramsList',
      ),
      workflowRunSchema.describe('a workflow'),
    ]),
  },
  executeEntity: {
    data: z.union([
      z
        .object({
          output: z.unknown(),
          version: z.string(),
          executionId: z.string().describe('listed by listExecutions when the rule records executions'),
          durationMs,
        })
        .describe('a rule'),
      batchAnswer(
        {
          answered: { output: z.unknown() },
          each: { executionId: z.string().optional().describe("the input's recorded execution, when the rule records executions") },
        },
        { version: z.string() },
        'a rule, given paramsList',
      ),
      workflowRunSchema.describe('a workflow'),
    ]),
    accepted: z
      .object({ taskId: z.string(), taskState: taskStateSchema, executionId: z.string(), version: z.string() })
      .describe('a workflow run with async: true: follow it at GET /dev/v1/tasks/{taskId}'),
  },
  testWorkflowStep: { data: stepRecordSchema.extend({ next: z.string().optional().describe('the step a run would go to next') }) },
  listExecutions: { data: z.array(executionSchema) },
  getEntityLegacy: { data: entityRecordSchema },
  saveSchedule: { data: z.union([scheduleViewSchema, scheduleDeletedSchema]) },
  saveScheduleLegacy: { data: z.union([scheduleViewSchema, scheduleDeletedSchema]) },
  getSchedule: { data: scheduleViewSchema },
  getCoverage: { data: coverageSchema },
  getRollout: { data: rolloutViewSchema },
  startRollout: { data: rolloutViewSchema },
  promoteCandidate: { data: rolloutViewSchema },
  endRollout: { data: rolloutViewSchema },
  createCredential: { data: credentialSchema, created: true },
  listCredentials: { data: z.array(credentialSchema) },
  listBranches: {
    data: z.array(
      z.object({
        name: z.string(),
        default: z.boolean().describe('the branch used when a request names none'),
        createdAt: timestamp,
        requiredApprovals: z.number().int().describe('approvals a change request needs before it is published here; 0: not protected'),
      }),
    ),
  },
  getCredential: { data: credentialSchema },
  updateCredential: { data: credentialSchema },
  revokeCredential: { data: credentialSchema },
  testCredential: { data: testResultSchema },
  createIntegration: { data: integrationSchema, created: true },
  listIntegrations: { data: z.array(integrationSchema) },
  getIntegration: { data: integrationSchema },
  updateIntegration: { data: integrationSchema },
  deleteIntegration: { data: integrationSchema.describe('the integration as it was') },
  testIntegration: { data: integrationTestResultSchema },
  pullRemote: { data: z.object({ taskId: z.string(), taskState: taskStateSchema }) },
  pullRemoteV1: { data: z.object({ taskId: z.string(), taskState: taskStateSchema }) },
  replayRule: {
    accepted: z
      .object({ taskId: z.string(), taskState: taskStateSchema })
      .describe('the replay task: follow it at GET /dev/v1/tasks/{taskId}, which holds the report'),
  },
  pushRemote: { accepted: z.object({ taskId: z.string(), taskState: taskStateSchema }).describe('the push task: follow it at GET /dev/v1/tasks/{taskId}') },
  getPullTask: { data: taskSchema },
  getTask: { data: taskSchema },
  getRemote: { data: remoteSchema },
  putRemote: { data: remoteSchema },
  getOpenApi: { body: openApiSchema },
  createKey: { data: keySchema.extend({ key: z.string().describe('the key itself: shown this once, only its hash is kept') }), created: true },
  listKeys: { data: z.array(keySchema) },
  getCaller: {
    data: z.object({
      keyId: z.string(),
      owner: z.string(),
      role: z.enum(roleNames as [Role, ...Role[]]),
      permissions: z.array(z.enum(permissions)).describe('what the role grants'),
      branches: z.array(z.string()).nullable().describe('the branches the key is limited to; null: every branch'),
      workspace: z.object({ id: z.string(), name: z.string(), defaultBranch: z.string() }),
    }),
  },
  getKey: { data: keySchema },
  updateKey: { data: keySchema },
  revokeKey: { data: keySchema.describe('the key, revoked') },
  protectBranch: { data: protectionAnswer },
  unprotectBranch: { data: protectionAnswer },
  proposeChange: { data: changeRequestSchema, created: true },
  listChangeRequests: { data: z.array(changeRequestSchema) },
  getChangeRequest: { data: changeRequestSchema },
  approveChange: { data: changeRequestSchema },
  rejectChange: { data: changeRequestSchema },
  listAudit: {
    data: z.object({
      records: z.array(auditRecordSchema),
      next: z.number().int().nullable().describe('the `before` of the next page; null at the end'),
    }),
  },
  verifyAudit: {
    data: z.object({
      intact: z.boolean(),
      checked: z.number().int().describe('records checked'),
      first: z.number().int().nullable().describe('the oldest kept record'),
      last: z.number().int().nullable().describe('the newest record checked'),
      head: z.object({ seq: z.number().int(), hash: z.string() }).nullable().describe('the head of the chain'),
      break: z.optional(z.object({ seq: z.number().int(), reason: z.string() }).describe('the first record that does not fit, and why')),
    }),
  },
  exportAudit: {
    file: {
      contentType: 'application/x-ndjson',
      description: 'the records, oldest first, one JSON object per line (each line holds one record, of this schema)',
      schema: auditRecordSchema,
      headers: { 'Audit-Next-After': { description: 'when more records follow: the `after` of the next part', schema: { type: 'integer' } } },
    },
  },
} satisfies Record<
  keyof typeof routes,
  | { data: z.ZodType; created?: boolean; accepted?: z.ZodType }
  | { accepted: z.ZodType }
  | { body: z.ZodType }
  | {
      file: {
        contentType: string | readonly string[];
        description: string;
        schema: z.ZodType;
        headers: Record<string, { description: string; schema: { type: string } }>;
      };
    }
>;
