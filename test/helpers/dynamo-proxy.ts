/**
 * A loopback pass-through in front of a DynamoDB endpoint, for tests that
 * watch or cut what a store sends: each request's operation (from
 * X-Amz-Target: PutItem, BatchWriteItem, ...) and body are shown to `answer`,
 * which may answer it in DynamoDB's place, and to `answered` with the status
 * DynamoDB gave once it was passed on.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request to DynamoDB as the SDK sends it. */
export interface DynamoRequest {
  operation: string;
  body: string;
}

export interface DynamoProxyHooks {
  /** An answer of its own (status and DynamoDB's JSON error body) instead of passing the request on. */
  answer?: (request: DynamoRequest) => { status: number; body: object } | undefined;
  answered?: (request: DynamoRequest, status: number) => void;
}

export async function startDynamoProxy(endpoint: string, hooks: DynamoProxyHooks) {
  const upstream = new URL(endpoint);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const seen = { operation: String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '', body: body.toString('utf8') };
    const own = hooks.answer?.(seen);
    if (own) {
      response.writeHead(own.status, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify(own.body));
      return;
    }
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers, agent },
      (answer) => {
        hooks.answered?.(seen, answer.statusCode ?? 0);
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => response.destroy());
    forward.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
