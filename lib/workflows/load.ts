/**
 * How a stored workflow becomes runnable, as `lib/rules/load.ts` does for
 * rules: a published version is compiled from the parsed FEEL kept with it
 * (so the execute function needs no parser) and kept by the warm function; a
 * draft is prepared from its text by `./draft.ts`. A version never changes,
 * and the rules its steps run are loaded when they run, so a compiled
 * version is kept until the cache lets it go.
 */
import type { Expr } from '../engine/feel/ast.ts';
import { packPrepared, unpackPrepared } from '../vocabulary/prepared-form.ts';
import { errors } from '../vocabulary/errors.ts';
import { CompiledCache } from '../rules/cache.ts';
import { resolveVersion, type EntityHead } from '../rules/load.ts';
import type { EntityRef, EntityStore, StoredEntity } from '../store/types.ts';
import type { WorkflowDefinition } from '../entities/workflow-definition.ts';
import { compileWorkflow, type CompiledWorkflow } from './runner.ts';
import type { PreparedWorkflow } from './validate.ts';

export interface RunnableWorkflow {
  workflow: CompiledWorkflow;
  id: string;
  /** The version label, or '' for the draft. */
  version: string;
  checksum: string;
  /** Whether API runs of it are recorded (its `settings.recordExecutions`). */
  recordExecutions: boolean;
  /** Definition JSON characters: what the cache weighs. */
  weight: number;
  references: 0;
}

/** What a published version keeps besides its record: the parsed FEEL by path. */
export const packWorkflow = (prepared: PreparedWorkflow): string => packPrepared([...prepared.expressions]);

/** Compiles a prepared workflow, as the draft or the version `version`. */
export function runnableWorkflow(source: Pick<StoredEntity, 'id' | 'checksum'>, version: string, prepared: PreparedWorkflow): RunnableWorkflow {
  return {
    workflow: compileWorkflow(prepared),
    id: source.id,
    version,
    checksum: source.checksum,
    recordExecutions: prepared.definition.settings?.recordExecutions === true,
    weight: JSON.stringify(prepared.definition).length,
    references: 0,
  };
}

const compiled = new CompiledCache<RunnableWorkflow>();

/** The latest published version of a workflow, or the named one, compiled once per warm function. */
export async function publishedWorkflow(store: EntityStore, ref: EntityRef, version?: string, head?: EntityHead): Promise<RunnableWorkflow> {
  const { label, createdAt } = await resolveVersion(store, ref, version, head);
  const key = [ref.workspaceId, ref.branch, ref.id, label, createdAt].join('\u0000');
  return compiled.get(key, async () => {
    const record = await store.getVersion(ref, label);
    if (!record) throw errors.versionNotFound(ref.entityType, ref.id, label);
    if (!record.prepared) throw errors.workflowNotPrepared(ref.id, label);
    // Saved through the schema, so the stored definition has its defaults filled in.
    const definition = record.definition as unknown as WorkflowDefinition;
    return runnableWorkflow(record, label, { definition, expressions: new Map(unpackPrepared<[string, Expr][]>(record.prepared)) });
  });
}
