/**
 * Rules from their text: a draft prepared with the engine's checks (which
 * need the FEEL parser), compiled for a test or a publish, and the prepared
 * form a new version keeps. Only the authoring and test functions import
 * this; executing a version does not (`./load.ts`).
 */
import { checkRule } from '../engine/authoring.ts';
import type { RuleDefinition } from '../engine/index.ts';
import { isRuleKind } from '../vocabulary/kinds.ts';
import type { VersionExtras } from '../entities/service.ts';
import { errors } from '../vocabulary/errors.ts';
import type { EntityRef, EntityStore } from '../store/types.ts';
import { runnable, type RuleSource, type RunnableRule } from './load.ts';
import { packPrepared } from '../vocabulary/prepared-form.ts';

const check = (source: Pick<RuleSource, 'type' | 'definition'>) => checkRule({ kind: source.type, definition: source.definition } as unknown as RuleDefinition);

/** The parsed and checked form of a rule's text; a rule saved through the API has no problems, an imported or pulled one may. */
export function prepareDraft(source: RuleSource) {
  const { prepared, problems } = check(source);
  if (problems.length) throw errors.ruleInvalid(source.id, problems);
  return prepared;
}

/** Compiles a rule's working copy (the draft), with the published rules it refers to. */
export const compileDraft = (store: EntityStore, ref: EntityRef, draft: RuleSource): Promise<RunnableRule> => runnable(store, ref, draft, '', prepareDraft);

/** What a new version of `draft` keeps besides its record: a rule's prepared form, when its text has no problems. */
export function versionExtras(draft: Pick<RuleSource, 'type' | 'definition'>): VersionExtras {
  if (!isRuleKind(draft.type)) return {};
  const { prepared, problems } = check(draft);
  return problems.length ? {} : { prepared: packPrepared(prepared) };
}
