/**
 * Authoring operations on /dev/v1: create, edit, publish and delete rules
 * and workflows. Apart from the read routes (./routes.ts), so that the read
 * functions bundle none of these bodies.
 */
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';
import { createEntitySchema, publishEntitySchema, updateEntitySchema } from '../entities/authoring-schema.ts';
import { gateBounds } from '../replay/bounds.ts';

const onEntity = { path: '/dev/v1/{entityType}/{entityId}', branch: 'optional', query: emptyQuery, tableAccess: 'readWrite' } as const;

const validated =
  'The whole record is validated first, every problem listed by its path in data.errors (the first 100; the message names 10 and counts the rest): the record schema and, for a rule, FEEL syntax (with line and column), names that are not declared inputs, type mismatches and hit policies whose outputs do not fit. Warnings (rows that can never be the answer, gaps) come back with the save and with the get.';

export const authoringRoutes = {
  createEntity: {
    ...onEntity,
    operationId: 'createEntity',
    permission: 'write',
    method: 'POST',
    path: '/dev/v1/{entityType}',
    handler: 'create-entity',
    summary: 'Create a rule or workflow (a draft)',
    description: `Creates the draft of a new rule or workflow on the branch (201 with its id, checksum and warnings). The same request again answers 200 with the same result; the same id with other content is 409 entity_exists. ${validated}`,
    body: createEntitySchema,
  },
  updateEntity: {
    ...onEntity,
    operationId: 'updateEntity',
    permission: 'write',
    method: 'PATCH',
    handler: 'update-entity',
    summary: 'Edit the draft of a rule or workflow',
    description: `Replaces the fields given (name, description, tags, type, definition) in the draft, if the draft still has the \`checksum\` you last read; otherwise 409 checksum_mismatch, so that two editors never overwrite each other. Answers the new checksum and the warnings. ${validated}`,
    body: updateEntitySchema,
  },
  publishEntity: {
    ...onEntity,
    operationId: 'publishEntity',
    permission: 'publish',
    method: 'POST',
    path: '/dev/v1/{entityType}/{entityId}/publish',
    handler: 'publish-entity',
    summary: 'Publish the draft as the next version',
    description: `Freezes the draft as the next version vN (201), immutable from then on; publishing content that already is the latest version answers that version (200). A rule is checked first: 409 publish_refused lists its problems and the rows that overlap under the hit policy unique, 409 tests_failed lists each saved test case that fails with what it expected and what came, and a rule set whose references do not resolve is refused too. A published rule whose settings.replayGate is {maxChangedRatio, window} is then replayed, the draft against the latest published version, over the newest ${gateBounds.executions} executions recorded in the window: when more than maxChangedRatio of them change outcome (another output, or a failure where there was an answer or the other way round), 409 replay_gate with the report and the replay's taskId; publishing again with acknowledgeReplay naming that task goes ahead. With \`checksum\`, refused (409) when the draft has changed since.`,
    body: publishEntitySchema,
  },
  deleteEntity: {
    ...onEntity,
    operationId: 'deleteEntity',
    permission: 'write',
    method: 'DELETE',
    handler: 'delete-entity',
    summary: 'Delete a rule or workflow, with its versions',
    description:
      "Deletes the draft and every published version, and a rule's schedule first; `deleted` says whether there was anything to delete, so deleting again answers 200 too. A rule's recorded executions stay until they expire.",
    // It deletes the rule's schedule.
    schedulerAccess: true,
  },
} satisfies Record<string, Route>;
