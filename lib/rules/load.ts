/**
 * How a stored rule becomes runnable: the one place that loads rules and
 * compiles them, for test, execute and publish alike. A published version is
 * compiled from the prepared form kept with it (`lib/vocabulary/prepared-form.ts`), so
 * executing needs no FEEL parser; a draft is prepared from its text by
 * `./draft.ts`, which is the only module of this folder that imports the
 * parser.
 *
 * A rule set's references are loaded here too: each other rule of the branch
 * at its pinned version, or its latest published one, depth first, refusing a
 * rule that refers back to one on the way to it (at any version), then
 * compiled bottom-up and handed to the engine as a resolver.
 */
import { compileRule, EngineError, type CompiledRule, type PreparedRule } from '../engine/index.ts';
import { errors } from '../vocabulary/errors.ts';
import type { EntityRecord } from '../entities/schema.ts';
import type { EntityRef, EntityStore, StoredEntity, StoredVersion } from '../store/types.ts';

/** What `getEntityHead` reads: the latest published version's label, when the entity was created, and a rule's rollout. */
export type EntityHead = Pick<StoredEntity, 'version' | 'createdAt' | 'rollout'>;
import { unpackPrepared } from '../vocabulary/prepared-form.ts';

/** How far references may go: rules in a chain, and rules loaded for one rule in all. */
export const referenceLimits = { maxDepth: 8, maxRules: 50 } as const;

/** A rule as stored, draft or published version: what compiling reads. */
export type RuleSource = Pick<EntityRecord, 'id' | 'type' | 'definition' | 'checksum'> & Pick<StoredVersion, 'prepared'> & { version?: string };

export interface RunnableRule {
  rule: CompiledRule;
  id: string;
  /** The version label, or '' for the draft. */
  version: string;
  checksum: string;
  /** Whether API executions of it are recorded (its `settings.recordExecutions`). */
  recordExecutions: boolean;
  /** How many other rules it was compiled with: its compiled form changes when an unpinned one publishes. */
  references: number;
  /** The size of the definitions compiled (JSON characters): what a cache of compiled rules weighs. */
  weight: number;
}

/** Prepares the rule a compilation starts from; the rules it refers to are always published versions. */
export type Prepare = (source: RuleSource) => PreparedRule;

/** A published version's kept prepared form; a version published without one (before versions kept it) must be published anew. */
export function preparedVersion(source: RuleSource): PreparedRule {
  if (!source.prepared) throw errors.ruleNotPrepared(source.id, source.version ?? '');
  return unpackPrepared<PreparedRule>(source.prepared);
}

const referenceKey = (ruleId: string, version: string | undefined) => `${ruleId}@${version ?? ''}`;

/** One compilation: the rules it loaded so far (each once), and the bounds. */
class Compilation {
  private readonly loaded = new Map<string, CompiledRule>();
  weight = 0;

  constructor(
    private readonly store: EntityStore,
    private readonly scope: Omit<EntityRef, 'id' | 'entityType'>,
  ) {}

  get references() {
    return this.loaded.size;
  }

  /** Compiles `source` (prepared by `prepare`) with its references, `chain` being the rule ids that led to it. */
  async compile(source: RuleSource, chain: readonly string[], prepare: Prepare = preparedVersion): Promise<CompiledRule> {
    const prepared = prepare(source);
    this.weight += JSON.stringify(source.definition).length;
    const path = [...chain, source.id];
    if (prepared.kind === 'ruleSet')
      // One at a time, depth first: a rule met again on the way down is a cycle, and no two loads wait on each other.
      for (const entry of prepared.entries) if ('ruleId' in entry) await this.reference(entry.id, entry.ruleId, entry.version, path);
    return compileRule(prepared, (ruleId, version) => this.loaded.get(referenceKey(ruleId, version))!);
  }

  private async reference(entryId: string, ruleId: string, version: string | undefined, path: string[]) {
    if (path.includes(ruleId))
      throw new EngineError(
        'rule_reference_cycle',
        `The rule "${path.at(-1)}" refers to "${ruleId}" (entry "${entryId}"), which leads back to it: ${[...path, ruleId].join(' → ')}.`,
      );
    const key = referenceKey(ruleId, version);
    if (this.loaded.has(key)) return;
    if (path.length >= referenceLimits.maxDepth)
      throw errors.ruleReferencesTooMany(
        `The references from "${path[0]}" go deeper than ${referenceLimits.maxDepth} rules: ${[...path, ruleId].join(' → ')}.`,
      );
    if (this.loaded.size >= referenceLimits.maxRules)
      throw errors.ruleReferencesTooMany(`The rule "${path[0]}" refers, directly or not, to more than ${referenceLimits.maxRules} rules.`);
    const ref: EntityRef = { ...this.scope, entityType: 'rule', id: ruleId };
    const missing = (why: string) =>
      new EngineError(
        'rule_reference_not_found',
        `The entry "${entryId}" of "${path.at(-1)}" refers to the rule "${ruleId}"${version ? ` at ${version}` : ''}, ${why}.`,
      );
    const label = version ?? (await this.store.getEntity(ref))?.version;
    if (label === undefined) throw missing('which the branch does not have');
    if (!label) throw missing('which has no published version');
    const record = await this.store.getVersion(ref, label);
    if (!record) throw missing('which has no such version');
    this.loaded.set(key, await this.compile(record, path));
  }
}

/** Compiles a rule (prepared by `prepare`) with the rules it refers to. */
export async function runnable(store: EntityStore, ref: EntityRef, source: RuleSource, version: string, prepare: Prepare): Promise<RunnableRule> {
  const compilation = new Compilation(store, ref);
  const rule = await compilation.compile(source, [], prepare);
  const settings = (source.definition as { settings?: { recordExecutions?: boolean } }).settings;
  return {
    rule,
    id: source.id,
    version,
    checksum: source.checksum,
    recordExecutions: settings?.recordExecutions === true,
    references: compilation.references,
    weight: compilation.weight,
  };
}

/**
 * The version of a rule (or workflow) that `version` names, or its latest published one:
 * its label, and when the rule was created (a rule deleted and made again
 * starts its versions over, so a label alone does not name one version).
 * `head` is the entity's head when the caller read it already (with others, in one request).
 */
export async function resolveVersion(store: EntityStore, ref: EntityRef, version?: string, head?: EntityHead) {
  const entity = head ?? (await store.getEntityHead(ref));
  if (!entity) throw errors.entityNotFound(ref.entityType, ref.id);
  const label = version ?? entity.version;
  if (!label) throw ref.entityType === 'rule' ? errors.ruleNotPublished(ref.id) : errors.workflowNotPublished(ref.id);
  return { label, createdAt: entity.createdAt };
}

/** Loads a published version of a rule and compiles it, with the rules it refers to. */
export async function compileVersion(store: EntityStore, ref: EntityRef, version: string): Promise<RunnableRule> {
  const record = await store.getVersion(ref, version);
  if (!record) throw errors.versionNotFound(ref.entityType, ref.id, version);
  return runnable(store, ref, record, version, preparedVersion);
}
