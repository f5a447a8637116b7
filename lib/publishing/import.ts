import type { EntityStore } from '../store/types.ts';
import { entityInputSchema, entityTypeOf, workflowKind, type EntityInput } from '../entities/schema.ts';
import { versionExtras } from '../rules/draft.ts';
import { workflowVersionExtras } from '../workflows/draft.ts';
import { saveEntity, type WriteResult } from '../entities/service.ts';
import { publishEntity } from './publish.ts';

export interface ImportSource {
  /** Where the record came from, for error messages: a file name. */
  origin: string;
  content: unknown;
}

export interface ImportOutcome {
  origin: string;
  entityType: 'rule' | 'workflow';
  id: string;
  outcome: WriteResult['outcome'];
  version?: string;
}

export class ImportRejected extends Error {
  constructor(readonly problems: { origin: string; field: string; message: string }[]) {
    super(`nothing imported: ${problems.map((p) => `${p.origin}: ${p.field} ${p.message}`).join('; ')}`);
  }
}

/**
 * Validates every record first and writes only when all are valid, so a bad
 * file never leaves a branch half imported. Re-importing is harmless.
 */
export async function importEntities(
  store: EntityStore,
  target: { workspaceId: string; branch: string },
  sources: ImportSource[],
  options: { actor: string; publish?: boolean },
): Promise<ImportOutcome[]> {
  const problems: ImportRejected['problems'] = [];
  const inputs: { origin: string; input: EntityInput }[] = [];
  const seen = new Map<string, string>();
  for (const { origin, content } of sources) {
    const parsed = entityInputSchema.safeParse(content);
    if (!parsed.success) {
      problems.push(...parsed.error.issues.map((i) => ({ origin, field: i.path.join('.') || '(record)', message: i.message })));
      continue;
    }
    const key = `${entityTypeOf(parsed.data.type)}/${parsed.data.id}`;
    const earlier = seen.get(key);
    if (earlier) problems.push({ origin, field: 'id', message: `"${parsed.data.id}" is also in ${earlier}` });
    seen.set(key, origin);
    inputs.push({ origin, input: parsed.data });
  }
  if (problems.length) throw new ImportRejected(problems);

  const outcomes: ImportOutcome[] = [];
  for (const { origin, input } of inputs) {
    const { outcome } = await saveEntity(store, target, input, options.actor);
    const version = options.publish
      ? (
          await publishEntity(store, { ...target, entityType: entityTypeOf(input.type), id: input.id }, options.actor, undefined, async (draft) =>
            draft.type === workflowKind ? workflowVersionExtras(draft) : versionExtras(draft),
          )
        ).version
      : undefined;
    outcomes.push({
      origin,
      entityType: entityTypeOf(input.type),
      id: input.id,
      outcome,
      ...(version && { version }),
    });
  }
  return outcomes;
}
