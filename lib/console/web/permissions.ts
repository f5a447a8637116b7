/**
 * What the signed-in key may do, decided in one place for every page: the
 * key's role, permissions and branches (GET /dev/v1/me) against what each
 * operation needs (its `x-permission` in the API's own OpenAPI document, and
 * whether it acts on a branch). A page asks `can(operationId)` for the
 * operation a control calls and never names a permission itself, so a
 * route whose permission changes changes the console with it. The API still
 * decides every call; this keeps a person from pressing what it would
 * refuse, and says why beforehand.
 */
import { anyKey } from '../../vocabulary/permissions.ts';
import type { Api } from './api.ts';
import type { operations } from './schema.ts';

export type Caller = operations['getCaller']['responses'][200]['content']['application/json']['data'];
export type OperationId = keyof operations;

/** What an operation needs of a key: a permission (none: any key, or none at all) and, when it acts on a branch, that branch. */
export interface Requirement {
  permission?: string;
  onBranch: boolean;
  /** What it does, as a person would say it: "publish the draft as the next version". */
  action: string;
}

export type Verdict = { allowed: true } | { allowed: false; reason: string };

/** The part of the OpenAPI document read here. */
interface Document {
  paths: Record<string, unknown>;
}

interface Operation {
  operationId?: string;
  summary?: string;
  'x-permission'?: string;
  parameters?: { name?: string; in?: string }[];
}

/**
 * An operation's summary as something a key does: "Publish the draft as the
 * next version" reads "publish the draft as the next version"; what follows a
 * colon or sits in parentheses at the end explains and is left out; a read
 * summarised by what it reads ("The workspace's API keys") reads "read the
 * workspace's API keys".
 */
export function actionOf(summary: string): string {
  const phrase = summary
    .split(':')[0]!
    .replace(/\s*\([^)]*\)$/, '')
    .trim();
  const lowered = phrase.charAt(0).toLowerCase() + phrase.slice(1);
  return /^(the|this|one|a|an)\s/i.test(phrase) ? `read ${lowered}` : lowered;
}

/** Every operation of the document by its operationId, with what it needs. */
export function requirementsOf(document: Document): Map<string, Requirement> {
  const requirements = new Map<string, Requirement>();
  for (const methods of Object.values(document.paths))
    for (const operation of Object.values((methods ?? {}) as Record<string, Operation>)) {
      if (typeof operation !== 'object' || !operation?.operationId) continue;
      const permission = operation['x-permission'];
      requirements.set(operation.operationId, {
        ...(permission && permission !== anyKey && { permission }),
        onBranch: (operation.parameters ?? []).some((parameter) => parameter.in === 'header' && parameter.name?.toLowerCase() === 'service-branch'),
        action: actionOf(operation.summary ?? operation.operationId),
      });
    }
  return requirements;
}

const allowed: Verdict = { allowed: true };

/**
 * `can(operationId)` for `caller` on `branch` (empty: the workspace's default
 * branch, as the API takes it).
 *
 * @example
 * const can = permissionsFor(reader, requirementsOf(document), 'main');
 * can('publishEntity'); // { allowed: false, reason: 'Your key (role reader) cannot publish the draft as the next version: that needs the permission publish.' }
 */
export function permissionsFor(caller: Caller, requirements: ReadonlyMap<string, Requirement>, branch: string) {
  const held = new Set<string>(caller.permissions);
  const on = branch || caller.workspace.defaultBranch;
  return (operationId: OperationId): Verdict => {
    const needs = requirements.get(operationId);
    // An operation the document does not name (an API older than the console) is left to the API to decide.
    if (!needs) return allowed;
    const you = caller.person ? 'You' : 'Your key';
    if (needs.permission && !held.has(needs.permission))
      return { allowed: false, reason: `${you} (role ${caller.role}) cannot ${needs.action}: that needs the permission ${needs.permission}.` };
    if (needs.onBranch && caller.branches && !caller.branches.includes(on))
      return {
        allowed: false,
        reason: `${caller.person ? 'You are' : 'Your key is'} limited to the branches ${caller.branches.map((b) => `"${b}"`).join(', ')}: ${caller.person ? 'you' : 'it'} cannot ${needs.action} on "${on}".`,
      };
    if (needs.permission === 'approve' && !caller.approves)
      return { allowed: false, reason: `Keys do not approve in this workspace: sign in with your company account to ${needs.action}.` };
    return allowed;
  };
}

export type Can = ReturnType<typeof permissionsFor>;

/** What each operation needs, from the document the API serves about itself (public: read before or without a key). */
export async function readRequirements(api: Api): Promise<Map<string, Requirement>> {
  return requirementsOf(await api.body(api.client.GET('/openapi.json')));
}
