import { authoringRoutes } from '../lib/authoring/routes.ts';
import { publishDraft } from '../lib/publishing/publish.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { actorOf, entityRef } from '../lib/http/params.ts';

export const handler = endpoint(authoringRoutes.publishEntity, async (call) => {
  const ref = entityRef(call);
  const { version, checksum, created, candidate, replayTaskId } = await publishDraft(call.store, ref, call.body, actorOf(call), call.auditor);
  return { data: { id: ref.id, version, checksum, ...(candidate && { candidate }), ...(replayTaskId && { replayTaskId }) }, status: created ? 201 : 200 };
});
