/**
 * A task as following it answers (lib/tasks), whatever its kind: a pull or
 * push, an asynchronous workflow run, a replay. The pull's legacy path answers
 * the same task.
 */
import { z } from 'zod';
import type { taskRoutes } from '../../tasks/routes.ts';
import { replayTaskSchema } from './replay.ts';
import { count, taskStateSchema, timestamp, type ResponsesOf } from './shared.ts';
import { workflowRunTaskSchema } from './workflows.ts';

const changeCounts = z.object({ added: z.number().int(), updated: z.number().int(), deleted: z.number().int(), unchanged: z.number().int() });

export const taskSchema = z.object({
  taskId: z.string(),
  taskState: taskStateSchema,
  branch: z.string(),
  createdAt: timestamp,
  startedAt: timestamp.optional(),
  finishedAt: timestamp.optional(),
  commit: z.string().optional().describe("once completed, the commit pulled, or the one a push left the remote's branch at"),
  summary: z
    .object({
      rule: changeCounts,
      workflow: changeCounts,
      ignoredFolders: z.array(z.string()),
      notCarried: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .optional()
        .describe('what DMN, XLSX, CSV or JDM files hold that no rule keeps, by file and element, and why (the first 100)'),
    })
    .optional()
    .describe("what a pull changed on the branch, or a push in the remote's branch (its files)"),
  error: z.string().optional().describe('what failed, in words a user can act on'),
  workflowRun: workflowRunTaskSchema.optional().describe('set for an asynchronous workflow run (execute with async: true) instead of the pull fields'),
  push: z
    .object({
      pushed: z.boolean().optional().describe('once completed: false when the remote already held what the branch holds, and no commit was made'),
      message: z.string().optional().describe("the pushed commit's message"),
    })
    .optional()
    .describe('set for a push'),
  replay: replayTaskSchema.optional().describe('set for a replay of a rule'),
  shards: z.object({ count, done: count }).optional().describe('a task split into shards, each a message of the queue: how many, and how many are done'),
});

export const taskResponses = {
  getPullTask: { data: taskSchema },
  getTask: { data: taskSchema },
} satisfies ResponsesOf<typeof taskRoutes>;
