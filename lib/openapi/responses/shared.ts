/**
 * What the areas' answers share, kept once so that they describe it alike:
 * times, counts, a task's state and what a request that queues a task
 * answers, a rule's findings by path, and the shape of an operation's entry
 * in the map of answers (./index.ts).
 */
import { z } from 'zod';

export const timestamp = z.string().datetime();

export const count = z.number().int();

export const taskStateSchema = z.enum(['pending', 'in-progress', 'completed', 'failed']);

/** What a request that queues a task answers, to follow at GET /dev/v1/tasks/{taskId}. */
export const queuedTaskSchema = z.object({ taskId: z.string(), taskState: taskStateSchema });

/** A warning or problem of a rule, by its path in the definition. */
export const findingSchema = z.object({ path: z.string().describe('where in the record: definition.rules[2].when[0]'), message: z.string() });

/**
 * What `data` holds in an operation's success envelope, or the `body` it
 * answers instead of an envelope, or the file it answers. `created`: a new
 * resource answers 201, a retried create 200. `accepted`: what a request
 * queued instead of done answers, with 202; an entry with `accepted` alone is
 * an operation that always queues.
 */
export type ResponseEntry =
  | { data: z.ZodType; created?: boolean; accepted?: z.ZodType }
  | { accepted: z.ZodType }
  | { body: z.ZodType }
  | {
      file: {
        contentType: string | readonly string[];
        description: string;
        schema: z.ZodType;
        headers: Record<string, { description: string; schema: { type: string } }>;
      };
    };

/** An entry for each of the routes, and for nothing else. */
export type ResponsesOf<Routes> = Record<keyof Routes, ResponseEntry>;
