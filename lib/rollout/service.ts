/**
 * A rule's rollout through the API: start (or change) it, read what it
 * learnt, promote its candidate, end it. The candidate and the rollout live
 * on the rule's working copy, so that execute reads them in the read it
 * makes anyway; each change is a conditional write of it (retried on a
 * concurrent one) with its audit record. Only rules: workflows are refused
 * before this is reached (lib/http/params.ts, rolloutRef).
 *
 * Starting again with the same candidate and mode keeps the rollout, its
 * counts and sample (a canary's percent and stickyBy may change, as when a
 * canary widens); another candidate or mode starts a new one.
 */
import { randomBytes } from 'node:crypto';
import { auditEvent, entityTarget, type Auditor } from '../auth/auditor.ts';
import type { EntityKind } from '../vocabulary/kinds.ts';
import { errors, type FieldIssue } from '../vocabulary/errors.ts';
import { retryOnRevisionConflict } from '../store/revision-retry.ts';
import {
  isRunning,
  ruleScopeOf,
  type DirectoryStore,
  type EntityRef,
  type EntityStore,
  type Rollout,
  type RolloutSample,
  type RolloutStore,
  type StoredEntity,
  type TallyStore,
} from '../store/types.ts';
import { agreements } from '../rules/rollout-compare.ts';
import { promoted, stopped } from '../publishing/candidate-record.ts';
import { rolloutGate } from '../publishing/gate.ts';
import type { PromoteBody, RolloutBody } from './schema.ts';
import { rolloutTallyName } from '../rules/rollout-watch.ts';

type Store = EntityStore & TallyStore & RolloutStore & Pick<DirectoryStore, 'getBranch'>;

/** How many sampled disagreements a read shows, newest first. */
export const shownSamples = 20;

/** The counts a rollout keeps: executions compared, how they compared, which version answered a canary's, and a canary's picked at random for want of the stickyBy value. */
export const rolloutCounts = ['compared', ...agreements, 'servedByCandidate', 'servedByBaseline', 'notSticky'] as const;
export type RolloutCounts = Record<(typeof rolloutCounts)[number], number>;

export interface RolloutView {
  /** The version executions get by default. */
  version: string;
  candidate: StoredEntity['candidate'] | null;
  rollout: (Rollout & { state: 'running' | NonNullable<Rollout['ending']> }) | null;
  counts: RolloutCounts | null;
  /** Agreements over executions compared; null before any. */
  agreementRate: number | null;
  disagreements: RolloutSample[];
}

const newRolloutId = () => `ro_${randomBytes(8).toString('hex')}`;

async function ruleRecord(store: EntityStore, ref: EntityRef): Promise<StoredEntity> {
  const entity = await store.getEntity(ref);
  if (!entity) throw errors.entityNotFound(ref.entityType, ref.id);
  return entity;
}

/** Writes `next` over `entity` if it is still at the revision read, with its audit record. */
const rewrite = (store: EntityStore, ref: EntityRef, entity: StoredEntity, next: StoredEntity, audit: ReturnType<typeof auditEvent>) =>
  store.putEntity(ref, { ...next, revision: entity.revision + 1 }, entity.revision, entity.type as EntityKind, audit);

/** The rule's candidate and rollout, with the rollout's counts (added by the functions at most every 10 s each) and newest disagreements. */
async function viewOf(store: Store, ref: EntityRef, entity: StoredEntity, now: string): Promise<RolloutView> {
  const { rollout } = entity;
  const base = { version: entity.version, candidate: entity.candidate ?? null };
  if (!rollout) return { ...base, rollout: null, counts: null, agreementRate: null, disagreements: [] };
  const scope = ruleScopeOf(ref);
  const [tallies, disagreements] = await Promise.all([
    store.getTallies({ ...scope, name: rolloutTallyName(rollout.id) }),
    store.listRolloutSamples(scope, rollout.id, shownSamples, now),
  ]);
  const counts = Object.fromEntries(rolloutCounts.map((name) => [name, tallies?.counts[name] ?? 0])) as RolloutCounts;
  return {
    ...base,
    rollout: { ...rollout, state: rollout.ending ?? 'running' },
    counts,
    agreementRate: counts.compared ? Math.round((counts.agree / counts.compared) * 10_000) / 10_000 : null,
    disagreements,
  };
}

export async function getRollout(store: Store, ref: EntityRef, now = new Date().toISOString()) {
  return viewOf(store, ref, await ruleRecord(store, ref), now);
}

/** What the body says that one field cannot: a canary needs its percent, a shadow answers nothing else and so takes neither. */
function settingsProblems(body: RolloutBody): FieldIssue[] {
  const issue = (field: string, message: string): FieldIssue => ({ in: 'body', field, message });
  if (body.mode === 'canary')
    return body.percent === undefined ? [issue('percent', 'is required for a canary: the share of executions the candidate answers')] : [];
  return [
    ...(body.percent === undefined ? [] : [issue('percent', 'is for a canary only: under a shadow the served version answers every execution')]),
    ...(body.stickyBy === undefined ? [] : [issue('stickyBy', 'is for a canary only: a shadow runs the candidate on every execution')]),
  ];
}

/** Starts a rollout of the rule's candidate, or changes the running one's percent and stickyBy; the same again changes nothing. */
export async function startRollout(store: Store, ref: EntityRef, body: RolloutBody, actor: string, auditor?: Auditor, now = () => new Date().toISOString()) {
  const problems = settingsProblems(body);
  if (problems.length) throw errors.invalidRequest(problems);
  const settings = {
    candidate: body.candidate,
    mode: body.mode,
    ...(body.percent !== undefined && { percent: body.percent }),
    ...(body.stickyBy && { stickyBy: body.stickyBy }),
  };
  const entity = await retryOnRevisionConflict(async () => {
    const entity = await ruleRecord(store, ref);
    if (!entity.candidate) throw errors.rolloutRefused(ref.id, 'it has no candidate version: publish the draft with {"candidate": true} first.');
    if (entity.candidate.version !== body.candidate)
      throw errors.rolloutRefused(ref.id, `${body.candidate} is not its candidate; ${entity.candidate.version} is.`);
    if (!entity.version) throw errors.rolloutRefused(ref.id, 'it has no served version to compare the candidate with: promote the candidate instead.');
    await rolloutGate(store, ref, entity.candidate);
    const running = isRunning(entity.rollout) ? entity.rollout : undefined;
    const same = running?.candidate === body.candidate && running.mode === body.mode;
    if (same && running.percent === settings.percent && running.stickyBy === settings.stickyBy) return entity;
    const at = now();
    const rollout: Rollout = same
      ? { ...withoutSettings(running), ...settings, updatedAt: at, updatedBy: actor }
      : { id: newRolloutId(), ...settings, startedAt: at, startedBy: actor };
    const next = { ...entity, rollout };
    await rewrite(store, ref, entity, next, auditEvent(auditor, entityTarget(ref), { detail: auditDetail(rollout) }));
    return next;
  });
  return viewOf(store, ref, entity, now());
}

/** A running rollout without its canary settings, which the new ones replace (one left out stays out). */
const withoutSettings = ({ percent: _percent, stickyBy: _stickyBy, ...rest }: Rollout) => rest;

const auditDetail = (rollout: Rollout): Record<string, string> => ({
  candidate: rollout.candidate,
  mode: rollout.mode,
  ...(rollout.percent !== undefined && { percent: String(rollout.percent) }),
  ...(rollout.stickyBy && { stickyBy: rollout.stickyBy }),
});

/**
 * Makes the candidate the version executions get by default, and ends its
 * rollout. A candidate already served (this promotion again, or a publish of
 * its content) is answered as done.
 */
export async function promoteCandidate(
  store: Store,
  ref: EntityRef,
  body: PromoteBody,
  actor: string,
  auditor?: Auditor,
  now = () => new Date().toISOString(),
) {
  const entity = await retryOnRevisionConflict(async () => {
    const entity = await ruleRecord(store, ref);
    if (entity.version === body.candidate) return entity;
    if (!entity.candidate) throw errors.promoteRefused(ref.id, `it has no candidate version, and ${body.candidate} is not the one served.`);
    if (entity.candidate.version !== body.candidate)
      throw errors.promoteRefused(ref.id, `${body.candidate} is not its candidate; ${entity.candidate.version} is.`);
    await rolloutGate(store, ref, entity.candidate);
    const next = promoted({ ...entity, candidate: entity.candidate }, actor, now());
    const audit = auditEvent(auditor, entityTarget(ref), {
      checksumBefore: entity.publishedChecksum,
      checksumAfter: entity.candidate.checksum,
      detail: { version: entity.candidate.version, ...(entity.version && { replaced: entity.version }) },
    });
    await rewrite(store, ref, entity, next, audit);
    return next;
  });
  return viewOf(store, ref, entity, now());
}

/** Stops the running rollout, keeping what it learnt to read; with none running, changes nothing. */
export async function endRollout(store: Store, ref: EntityRef, actor: string, auditor?: Auditor, now = () => new Date().toISOString()) {
  const entity = await retryOnRevisionConflict(async () => {
    const entity = await ruleRecord(store, ref);
    if (!isRunning(entity.rollout)) return entity;
    const next = { ...entity, rollout: stopped(entity.rollout, 'ended', actor, now()) };
    await rewrite(store, ref, entity, next, auditEvent(auditor, entityTarget(ref), { detail: auditDetail(entity.rollout) }));
    return next;
  });
  return viewOf(store, ref, entity, now());
}
