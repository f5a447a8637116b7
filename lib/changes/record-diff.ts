/**
 * What a change request changes, field by field: the paths where the
 * proposed record differs from the published one, with both values. Lists
 * are compared by position, as the definitions keep rows and entries in
 * order. Pure; bounded by `limit`, so a rewritten table answers a cut list.
 */
import type { FieldChange } from '../store/types.ts';

export const recordDiffLimit = 200;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function recordDiff(before: unknown, after: unknown, limit = recordDiffLimit): { changes: FieldChange[]; truncated: boolean } {
  const changes: FieldChange[] = [];
  let truncated = false;
  const walk = (path: string, a: unknown, b: unknown) => {
    if (truncated) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(`${path}[${i}]`, a[i], b[i]);
      return;
    }
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) walk(path ? `${path}.${key}` : key, a[key], b[key]);
      return;
    }
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    if (changes.length === limit) {
      truncated = true;
      return;
    }
    changes.push({ path: path || '(record)', ...(a !== undefined && { before: a }), ...(b !== undefined && { after: b }) });
  };
  walk('', before, after);
  return { changes, truncated };
}
