/**
 * Request bodies of the authoring operations (zod/mini, as in every API
 * function). They fix the fields a request may have (an unknown one is a 400
 * naming it), their JSON types and the size of a definition; the record's
 * own rules (lib/entities/schema.ts) and the rule checks are applied to the
 * whole record a save would store, in lib/authoring/save.ts, so that every problem
 * is listed at once.
 */
import * as z from 'zod/mini';
import { boundedJsonObject } from '../vocabulary/json-bounds.ts';
import { strictBody } from '../http/queries.ts';
import { ruleKinds, workflowKind } from '../vocabulary/kinds.ts';

/** A definition must fit in one DynamoDB item (400 KB) with the rest of its record and its warnings. */
export const definitionBounds = { maxBytes: 300 * 1024, maxDepth: 32 } as const;

const kinds = [...ruleKinds, workflowKind] as const;

const fields = {
  name: z.string().register(z.globalRegistry, { description: 'what people call it: 1 to 200 characters, no surrounding whitespace' }),
  description: z.string().register(z.globalRegistry, { description: 'at most 2000 characters' }),
  tags: z.array(z.string()).register(z.globalRegistry, { description: 'at most 50, each at most 64 characters' }),
  type: z
    .enum(kinds, { error: `must be one of ${kinds.join(', ')}` })
    .register(z.globalRegistry, { description: 'the kind: decisionTable, ruleSet or simpleRule for a rule, workflow for a workflow' }),
  definition: boundedJsonObject(definitionBounds, 'the definition of its kind, as the get returns it'),
};

const checksum = (description: string) =>
  z
    .string()
    .check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(64, { error: 'must be a checksum as the get returns it' }))
    .register(z.globalRegistry, { description });

export const createEntitySchema = strictBody({
  id: z.string().register(z.globalRegistry, {
    description: "its id in the branch: letters, digits, '.', '_' or '-', starting with a letter or digit, at most 128 characters",
  }),
  name: fields.name,
  description: z.optional(fields.description),
  tags: z.optional(fields.tags),
  type: fields.type,
  definition: fields.definition,
});
export type CreateEntity = z.output<typeof createEntitySchema>;

export const updateEntitySchema = strictBody({
  checksum: checksum('the checksum of the draft as you last read it: the edit is refused (409) when the draft has changed since'),
  name: z.optional(fields.name),
  description: z.optional(fields.description),
  tags: z.optional(fields.tags),
  type: z.optional(fields.type),
  definition: z.optional(fields.definition),
});
export type UpdateEntity = z.output<typeof updateEntitySchema>;

/** An id as change requests have them: `cr_` and 20 hex digits. */
export const changeRequestIdSchema = z.string().check(z.regex(/^cr_[0-9a-f]{20}$/, 'must be a change request id (cr_ and 20 hex digits)'));

export const publishEntitySchema = z.optional(
  strictBody({
    checksum: z.optional(checksum('the checksum of the draft you mean to publish: refused (409) when the draft has changed since')),
    changeRequestId: z.optional(
      changeRequestIdSchema.register(z.globalRegistry, {
        description: 'the approved change request to carry out: required on a protected branch (else 409 branch_protected)',
      }),
    ),
    candidate: z.optional(z.boolean({ error: 'must be true or false' })).register(z.globalRegistry, {
      description:
        "rules only: publish the draft as the rule's candidate, which executions get only by naming its version (or through a rollout) until it is promoted; the version they get by default stays as it is",
    }),
    acknowledgeReplay: z.optional(
      z
        .string()
        .check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a task id as a replay answers it'))
        .register(z.globalRegistry, {
          description:
            'for a rule with settings.replayGate: the completed replay of this draft against the latest published version (the task a 409 replay_gate named) whose changes you accept; the publish then runs no replay',
        }),
    ),
  }),
);

export const proposeChangeSchema = strictBody({
  checksum: checksum('the checksum of the draft you propose: refused (409) when the draft has changed since'),
  description: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(2000, 'must be at most 2000 characters')),
});

export const reviewChangeSchema = z.optional(strictBody({ comment: z._default(z.string().check(z.maxLength(2000, 'must be at most 2000 characters')), '') }));

export const protectionSchema = strictBody({
  requiredApprovals: z
    .number({ error: 'must be a whole number from 1 to 5' })
    .check(z.int({ error: 'must be a whole number from 1 to 5' }), z.minimum(1, 'must be at least 1'), z.maximum(5, 'must be at most 5')),
});
