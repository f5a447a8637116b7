/**
 * `npm start`: embedded DynamoDB, the table, the demo workspace, and the API
 * on http://127.0.0.1:$PORT, all in one process.
 */
import { startLocalRuntime } from './runtime.ts';

// Node 20 is fine for local use (Lambda runs Node 22); the SDK's notice about its future Node 22 minimum is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const runtime = await startLocalRuntime({
  port: Number(process.env.PORT ?? 3000),
  dynamoPort: Number(process.env.DYNAMODB_PORT ?? 8000),
  gitPort: Number(process.env.GIT_PORT ?? 3001),
  dataDir: process.env.DATA_DIR || undefined,
  apiKey: process.env.SERVICE_API_KEY || undefined,
});

console.log(`
Rules service (local) listening on ${runtime.url}
  embedded DynamoDB: ${runtime.dynamoEndpoint} (table ${runtime.tableName}${process.env.DATA_DIR ? `, kept in ${process.env.DATA_DIR}` : ', in memory'})
  demo workspace:    demo (branches main, staging), pulling from ${runtime.gitUrl}/demo.git
  API key:           ${runtime.apiKey}
  OpenAPI:           ${runtime.url}/openapi.json

Try:
  curl -s -H 'Service-API-Key: ${runtime.apiKey}' '${runtime.url}/dev/v1/rule?pageSize=5'
  curl -s -X POST -H 'Service-API-Key: ${runtime.apiKey}' -H 'Service-Branch: main' '${runtime.url}/dev/remote/pull'
`);

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void runtime.close().then(() => process.exit(0));
  });
