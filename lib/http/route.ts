/**
 * What an operation is: the shape of an entry of the route table. It stands
 * in its own file so that the area route files, which the table joins, can
 * name it without importing the table itself.
 */
import type * as z from 'zod/mini';
import type { Requirement } from '../vocabulary/permissions.ts';
import type { EntityType } from '../vocabulary/kinds.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  operationId: string;
  method: HttpMethod;
  /** In API Gateway's form: `{name}` is a path parameter. */
  path: string;
  /** The file in `functions/` (without extension) whose `handler` serves the route. */
  handler: string;
  summary: string;
  /** What a user needs to know to call it, in a sentence or two (the OpenAPI document's description). */
  description: string;
  deprecated?: boolean;
  branch: 'none' | 'optional' | 'required';
  /** The one permission a key needs to call it (lib/vocabulary/permissions.ts), 'anyKey' for what every valid key may call, or 'public' for what needs no key (the OpenAPI document). */
  permission: Requirement | 'public';
  /** For paths with `{entityType}`: the types it serves, when not all (`entityRef` in ./params.ts refuses the others). */
  entityTypes?: readonly EntityType[];
  query: z.ZodMiniObject;
  /** The JSON body it takes, if any. */
  body?: z.ZodMiniType;
  /** Or the file it takes as its body, of these content types (`call.upload`), described in the API document. */
  upload?: { contentTypes: readonly string[]; description: string };
  /** What the function may do to the table; the stack grants exactly this (and, for 'none', does not name the table). */
  tableAccess: 'none' | 'read' | 'readWrite';
  /** What it may do with the credentials key: seal values, open them, or both. */
  keyAccess?: 'encrypt' | 'decrypt' | 'encryptDecrypt';
  /**
   * Whether it calls out to providers (through lib/outbound), and for whom:
   * 'trying' for a person trying a draft, step, credential or integration
   * (throttled low: cdk/limits.ts), 'serving' for consumers' executions.
   */
  outbound?: 'trying' | 'serving';
  /** Whether it queues tasks (lib/tasks): a pull, an asynchronous workflow run. */
  queueAccess?: 'send';
  /** Whether it creates, replaces or deletes rule schedules in EventBridge Scheduler (lib/schedules): the stack grants it that on its own schedule groups, and names the schedules' target. */
  schedulerAccess?: boolean;
  /**
   * Changes or sends out what the whole workspace shares (a credential and its
   * hosts, an integration, the Git remote, the audit log's export): a key
   * limited to branches is refused (403), since its limit could not hold there.
   */
  workspaceWide?: true;
  /** Only a person signed in may call it (a personal key is theirs): a key is refused (403 people_only). */
  peopleOnly?: true;
  /** Errors carry `data` {} (null for 401) instead of details: the error shape the pull operations have always had, which their clients read. */
  bareErrors?: boolean;
}
