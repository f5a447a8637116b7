import { endpoint } from '../lib/http/endpoint.ts';
import { actorOf, entityScope } from '../lib/http/params.ts';
import { formatOfUpload, importFiles, parseChecksums } from '../lib/interchange/transfer.ts';
import { interchangeRoutes } from '../lib/interchange/routes.ts';

const route = interchangeRoutes.importRules;

export const handler = endpoint(route, async (call) => {
  const { workspaceId, branch } = entityScope(call, route.entityTypes);
  const { query, upload } = call;
  const format = formatOfUpload(upload!.contentType, query.format);
  const file = { name: query.fileName ?? `upload${format.extensions[0]}`, bytes: upload!.bytes, format };
  const request = { files: [file], dryRun: query.dryRun === 'true', checksums: parseChecksums(query.checksum) };
  const answer = await importFiles(call.store, { workspaceId, branch }, request, actorOf(call), call.auditor);
  return { data: answer, status: !answer.dryRun && answer.records.some((r) => r.action === 'create') ? 201 : 200 };
});
