/**
 * Invokes the execute function in this process, the way Lambda would: the API
 * Gateway proxy event the local runtime builds for POST
 * /dev/v1/{entityType}/{entityId}/execute, and a fresh Lambda context per
 * call, straight into the handler (as list-call.ts does for the list function).
 * It calls with the benchmark's key, or as a person with their ID token.
 */
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Envelope } from '../../lib/http/envelope.ts';
import { lambdaContext, toProxyEvent } from '../../lib/local/proxy-event.ts';
import { runRoutes } from '../../lib/rules/routes.ts';

const route = runRoutes.executeEntity;

/** What the execute operation answers in `data`. */
export interface ExecuteAnswer {
  output: unknown;
  version: string;
  executionId: string;
  durationMs: number;
}

/** Who calls: a key (`Service-API-Key`), or a person with their ID token in a workspace (`Authorization: Bearer`, `Service-Workspace`). */
export type Caller = string | { token: string; workspace: string };

const callerHeaders = (caller: Caller) =>
  typeof caller === 'string' ? ['Service-API-Key', caller] : ['Authorization', `Bearer ${caller.token}`, 'Service-Workspace', caller.workspace];

/** The event for POST /dev/v1/{entityType}/{id}/execute by `caller` (the benchmark's key) on the branch, with a JSON body, as a client sends it. */
export function executeEvent(caller: Caller, branch: string, ruleId: string, body: unknown, entityType: 'rule' | 'workflow' = 'rule'): APIGatewayProxyEvent {
  const url = new URL(`http://bench.local/dev/v1/${entityType}/${ruleId}/execute`);
  const payload = Buffer.from(JSON.stringify(body));
  const request = {
    rawHeaders: [
      'Host',
      'bench.local',
      'Content-Type',
      'application/json',
      'Content-Length',
      String(payload.length),
      ...callerHeaders(caller),
      'Service-Branch',
      branch,
    ],
    httpVersion: '1.1',
    socket: { remoteAddress: '127.0.0.1' },
  } as unknown as IncomingMessage;
  return toProxyEvent(request, url, route, { entityType, entityId: ruleId }, payload);
}

export interface ExecuteFunction {
  /** Builds the inputs of one call, outside any timing, and returns the call itself (a workflow's answers its run instead). */
  prepare(branch: string, id: string, params: Record<string, unknown>, entityType?: 'rule' | 'workflow'): () => Promise<ExecuteAnswer>;
}

/**
 * Loads the execute function, called by `caller`; `as` calls the same
 * function (the same warm module) as another. Import it only after the
 * table's environment is set (see startBenchTable) and the log level chosen,
 * as for the list function.
 */
export async function loadExecuteFunction(caller: Caller): Promise<ExecuteFunction & { as(caller: Caller): ExecuteFunction }> {
  const { handler } = await import('../../functions/execute-entity.ts');
  const invoke = handler as unknown as (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; body: string }>;
  const as = (who: Caller): ExecuteFunction => ({
    prepare(branch, id, params, entityType = 'rule') {
      const event = executeEvent(who, branch, id, { params }, entityType);
      return async () => {
        // A context per call, as Lambda gives one per invocation: its remaining time starts afresh.
        const response = await invoke(event, lambdaContext(route));
        if (response.statusCode !== 200) throw new Error(`execute answered ${response.statusCode}: ${response.body}`);
        return (JSON.parse(response.body) as Envelope).data as ExecuteAnswer;
      };
    },
  });
  return { ...as(caller), as };
}
