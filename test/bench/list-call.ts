/**
 * Invokes the list function in this process, the way Lambda would: an API
 * Gateway proxy event and a Lambda context, straight into the handler.
 */
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Envelope } from '../../lib/http/envelope.ts';
import { routes } from '../../lib/api/routes.ts';
import { lambdaContext, toProxyEvent } from '../../lib/local/proxy-event.ts';

const route = routes.listEntities;

/** Every measured list call asks for pages of this size. */
export const pageSize = 10;

export type ListQueryString = Record<string, string>;

/**
 * The event for GET /dev/v1/rule with the benchmark's key and branch, built by
 * the local runtime's converter so that it is the event the local API sends.
 * The converter reads only these members of the incoming request.
 */
export function listEvent(apiKey: string, branch: string, query: ListQueryString): APIGatewayProxyEvent {
  const url = new URL('http://bench.local/dev/v1/rule');
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const request = {
    rawHeaders: ['Host', 'bench.local', 'Service-API-Key', apiKey, 'Service-Branch', branch],
    httpVersion: '1.1',
    socket: { remoteAddress: '127.0.0.1' },
  } as unknown as IncomingMessage;
  return toProxyEvent(request, url, route, { entityType: 'rule' }, Buffer.alloc(0));
}

export interface ListFunction {
  /** Builds the inputs of one call, outside any timing, and returns the call itself. */
  prepare(branch: string, query: ListQueryString): () => Promise<Envelope>;
}

/**
 * Loads the list function. Import it only after the table's environment is
 * set (see startBenchTable) and the log level chosen: the logger reads its
 * level when the module loads.
 */
export async function loadListFunction(apiKey: string): Promise<ListFunction> {
  const { handler } = await import('../../functions/list-entities.ts');
  const invoke = handler as unknown as (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; body: string }>;
  return {
    prepare(branch, query) {
      const event = listEvent(apiKey, branch, query);
      const context = lambdaContext(route);
      return async () => {
        const response = await invoke(event, context);
        if (response.statusCode !== 200) throw new Error(`list answered ${response.statusCode}: ${response.body}`);
        return JSON.parse(response.body) as Envelope;
      };
    },
  };
}
