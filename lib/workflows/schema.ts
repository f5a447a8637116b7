/** Request bodies of the workflow-only operations (zod/mini, as in every API function); the run bodies are shared with rules (lib/rules/schema.ts). */
import { boundedJsonObject } from '../vocabulary/json-bounds.ts';
import { strictBody } from '../http/queries.ts';
import { paramsBounds, version } from '../rules/schema.ts';

export const testStepSchema = strictBody({
  context: boundedJsonObject(paramsBounds, "the workflow's inputs and earlier steps' results by name, as a run holds them when it reaches the step"),
  version: version('a published version (such as v1) whose step to run instead of the draft'),
});
export type TestStepRequest = import('zod/mini').output<typeof testStepSchema>;
