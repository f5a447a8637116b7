/** The answers of the Git remote's operations (lib/remote): a pull or push queued, and the remote's configuration. */
import { z } from 'zod';
import type { remoteConfigRoutes, remoteSyncRoutes } from '../../remote/routes.ts';
import { remoteFormats } from '../../store/types.ts';
import { queuedTaskSchema, timestamp, type ResponsesOf } from './shared.ts';

const remoteSchema = z.object({
  url: z.string(),
  credentialId: z.string().optional(),
  format: z.enum(remoteFormats).describe('how a push writes decision tables; every other rule and workflow is JSON'),
  updatedAt: timestamp,
});

export const remoteResponses = {
  pullRemote: { data: queuedTaskSchema },
  pullRemoteV1: { data: queuedTaskSchema },
  pushRemote: { accepted: queuedTaskSchema.describe('the push task: follow it at GET /dev/v1/tasks/{taskId}') },
  getRemote: { data: remoteSchema },
  putRemote: { data: remoteSchema },
} satisfies ResponsesOf<typeof remoteSyncRoutes & typeof remoteConfigRoutes>;
