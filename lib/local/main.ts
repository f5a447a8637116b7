/**
 * `npm start`: embedded DynamoDB, the table, the demo workspace, the API on
 * http://127.0.0.1:$PORT, and the queue and scheduler behind it, all in one
 * process.
 */
import { defaultLocalEndpoint } from '../deployment/names.ts';
import { demoProviderKey } from './demo-provider.ts';
import { demoApiKey } from './seed.ts';
import { demoAccess } from './demo-people.ts';
import { PortSettingError, portFromEnv } from './ports.ts';
import { startLocalRuntime } from './runtime.ts';

let runtime: Awaited<ReturnType<typeof startLocalRuntime>>;
try {
  runtime = await startLocalRuntime({
    port: portFromEnv('PORT', 3000, false),
    dynamoPort: portFromEnv('DYNAMODB_PORT', 8000, true),
    gitPort: portFromEnv('GIT_PORT', 3001, true),
    providerPort: portFromEnv('DEMO_PROVIDER_PORT', 3002, true),
    openIdProvider: { port: portFromEnv('OIDC_PORT', 3003, true) },
    dataDir: process.env.DATA_DIR || undefined,
    apiKey: process.env.SERVICE_API_KEY || demoApiKey,
  });
} catch (error) {
  if (!(error instanceof PortSettingError)) throw error;
  console.error(`rules: ${error.message}`);
  process.exit(1);
}

// The CLI finds the local table at its default endpoint; a runtime that had to move elsewhere says how to reach it.
const cliTarget = runtime.dynamoEndpoint === defaultLocalEndpoint ? '' : `\n  CLI:               npm run cli -- --endpoint ${runtime.dynamoEndpoint} <command>`;

/** The demo people, their passwords and the role the demo workspace gives their group: who to sign in as. */
function peopleLines() {
  const { openId } = runtime;
  if (!openId) return '';
  const roleOf = (groups: string[]) => demoAccess.groups.find((entry) => groups.includes(entry.group))?.role ?? 'no role';
  const people = openId.people.map((p) => `\n                     ${p.username} / ${p.password}  (${p.name}, ${p.email}: ${roleOf(p.groups)})`);
  return `\n  sign-in:           OpenID provider ${openId.issuer} (client ${openId.clientId}); demo people, username / password:${people.join('')}`;
}

console.log(`
Rules service (local) listening on ${runtime.url}
  embedded DynamoDB: ${runtime.dynamoEndpoint} (table ${runtime.tableName}${process.env.DATA_DIR ? `, kept in ${process.env.DATA_DIR}` : ', in memory'})${cliTarget}
  demo workspace:    demo (branches main, staging), pulling from ${runtime.gitUrl}/demo.git
  API key:           ${runtime.apiKey}
  demo provider:     ${runtime.providerUrl} (its key: ${demoProviderKey}; integrations intg_demo_risk, intg_demo_fx)
  OpenAPI:           ${runtime.url}/openapi.json
  console:           ${runtime.url}/console/ (sign in as a demo person, workspace demo)
                     or ${runtime.consoleSignInLink()}
                     (signs one browser in with the API key, once)${peopleLines()}
  rule schedules:    run in this process (EventBridge Scheduler's API on ${runtime.scheduler.endpoint.endpoint})

Try:
  curl -s -H 'Service-API-Key: ${runtime.apiKey}' '${runtime.url}/dev/v1/rule?pageSize=5'
  curl -s -X POST -H 'Service-API-Key: ${runtime.apiKey}' -H 'Service-Branch: main' '${runtime.url}/dev/remote/pull'
`);

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void runtime.close().then(() => process.exit(0));
  });
