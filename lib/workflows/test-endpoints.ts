/**
 * What the test functions do for a workflow, given the API call: a draft
 * (prepared from its text, so with the FEEL parser) or a published version,
 * run with rule drafts unless a step pins a version. Imported lazily by the
 * function that tests rules too.
 */
import { entityIdPattern } from '../vocabulary/kinds.ts';
import type { Call } from '../http/endpoint.ts';
import { errors } from '../vocabulary/errors.ts';
import { compileDraft } from '../rules/draft.ts';
import { singleParams } from '../rules/schema.ts';
import type { TestRequest } from '../rules/test-schema.ts';
import type { EntityRef, Store } from '../store/types.ts';
import { compileWorkflowDraft } from './draft.ts';
import { runDeps, workflowBatchRefusal } from './endpoints.ts';
import { publishedRules, testStep, testWorkflow, type LoadRule } from './run.ts';
import type { TestStepRequest } from './schema.ts';

/** Rules as a test of the draft sees them: their drafts, unless a step pins a version. */
const draftRules =
  (store: Store, ref: EntityRef): LoadRule =>
  async (ruleId, version) => {
    if (version) return publishedRules(store, ref)(ruleId, version);
    const rule = { ...ref, entityType: 'rule' as const, id: ruleId };
    const draft = await store.getEntity(rule);
    if (!draft) throw errors.entityNotFound('rule', ruleId);
    return compileDraft(store, rule, draft);
  };

/** A test of the draft runs rule drafts; a test of a published version runs as its execution would. */
const drafts = (store: Store, ref: EntityRef, version: string | undefined) => ({
  compileDraft: compileWorkflowDraft,
  loadRule: version ? publishedRules(store, ref) : draftRules(store, ref),
});

export function testWorkflowCall(call: Call<unknown, TestRequest>, ref: EntityRef) {
  // A workflow's draft is tested as saved: its steps' providers see what a save checked against the workspace.
  if (call.body.definition)
    throw errors.invalidRequest([{ in: 'body', field: 'definition', message: 'a workflow is tested as saved: save the draft, then test it' }]);
  return testWorkflow(
    runDeps(call.store, ref.workspaceId),
    ref,
    { ...call.body, params: singleParams(call.body, workflowBatchRefusal('test')) },
    drafts(call.store, ref, call.body.version),
  );
}

export function testStepCall(call: Call<unknown, TestStepRequest>, ref: EntityRef) {
  const stepId = call.path.stepId ?? '';
  // An id no step can have is not found without a read.
  if (!entityIdPattern.test(stepId)) throw errors.stepNotFound(ref.id, stepId);
  return testStep(runDeps(call.store, ref.workspaceId), ref, stepId, call.body, drafts(call.store, ref, call.body.version));
}
