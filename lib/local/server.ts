/**
 * The local API: a real HTTP server that turns each request into the proxy
 * event API Gateway would send and calls the function the stack deploys for
 * that route. It answers unknown routes, wrong methods and oversize bodies as
 * the gateway does, and what Node's parser refuses in the same envelope.
 */
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyResult, Handler } from 'aws-lambda';
import { failureEnvelope, requestIdHeader } from '../http/envelope.ts';
import { gatewayResponses, maxRequestBytes, methodNotAllowed, payloadTooLarge, routeNotFound, type GatewayAnswer } from '../http/gateway-responses.ts';
import { routeList } from '../api/routes.ts';
import type { Route } from '../http/route.ts';
import type { ConsoleHost } from './console-host.ts';
import { lambdaContext, toProxyEvent } from './proxy-event.ts';
import { createRouter } from './router.ts';

export interface LocalApi {
  url: string;
  close(): Promise<void>;
}

const handlers = new Map<string, Promise<Handler>>();

/** A function's handler (by its file in functions/), imported on first use as Lambda loads it on a cold start. */
export function handlerOf(fn: Pick<Route, 'handler'>): Promise<Handler> {
  let handler = handlers.get(fn.handler);
  if (!handler) {
    handler = import(`../../functions/${fn.handler}.ts`).then((module: { handler: Handler }) => module.handler);
    handlers.set(fn.handler, handler);
  }
  return handler;
}

/** What Node's HTTP parser refuses before any route is matched: headers past its limit (16 KiB), and requests it cannot read. */
const headersTooLarge: GatewayAnswer = { status: 431, code: 'request_headers_too_large', message: 'The request headers are larger than 16 KiB.' };
const malformedRequest: GatewayAnswer = { status: 400, code: 'bad_request', message: 'The request is not valid HTTP.' };

function send(response: ServerResponse, status: number, headers: Record<string, string | number | boolean>, body: string | Buffer) {
  response.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function sendGatewayAnswer(response: ServerResponse, answer: GatewayAnswer, headers: Record<string, string> = {}) {
  const body = JSON.stringify(failureEnvelope(answer.code, answer.message, {}));
  send(response, answer.status, { 'content-type': 'application/json', [requestIdHeader]: randomUUID(), ...headers }, body);
}

/** Reads the body, or returns undefined once it passes API Gateway's limit. */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  if (Number(request.headers['content-length'] ?? 0) > maxRequestBytes) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxRequestBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** `console`: serves the console under /console beside the API, as the deployed distribution does. */
export async function startLocalApi(options: { port?: number; host?: string; console?: ConsoleHost } = {}): Promise<LocalApi> {
  const match = createRouter(routeList);
  const server = createServer(async (request, response) => {
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://localhost');
    } catch {
      // An absolute target that does not parse (`http://[::1/...`): the request, not the service, is at fault.
      return sendGatewayAnswer(response, malformedRequest, { connection: 'close' });
    }
    try {
      if (options.console && (await options.console.handle(request, response, url))) return;
      const body = await readBody(request);
      if (!body) {
        sendGatewayAnswer(response, payloadTooLarge, { connection: 'close' });
        return;
      }
      const found = match(request.method ?? 'GET', url.pathname);
      if (!found) return sendGatewayAnswer(response, routeNotFound);
      if ('allowed' in found) return sendGatewayAnswer(response, methodNotAllowed, { allow: found.allowed.join(', ') });
      const handler = await handlerOf(found.route);
      const event = toProxyEvent(request, url, found.route, found.pathParameters, body);
      const result = (await handler(event, lambdaContext(found.route), () => undefined)) as APIGatewayProxyResult;
      // A binary answer (an export) comes base64-encoded; API Gateway sends its bytes.
      send(response, result.statusCode, { ...result.headers }, result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
    } catch (error) {
      // The functions answer their own failures; this is the gateway's 502 for a function that crashed.
      console.error('local gateway: function failed', error);
      sendGatewayAnswer(response, gatewayResponses.INTEGRATION_FAILURE!);
    }
  });
  // What never reaches the handler (a request Node's parser refuses; CONNECT, which Node hands over as a bare socket) is answered here, in envelope form too.
  const answerOnSocket = (socket: Duplex, answer: GatewayAnswer) => {
    if (!socket.writable) return socket.destroy();
    const body = JSON.stringify(failureEnvelope(answer.code, answer.message, {}));
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\ncontent-type: application/json\r\n${requestIdHeader}: ${randomUUID()}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  };
  server.on('clientError', (error: NodeJS.ErrnoException, socket) =>
    answerOnSocket(socket, error.code === 'HPE_HEADER_OVERFLOW' ? headersTooLarge : malformedRequest),
  );
  server.on('connect', (_request, socket) => answerOnSocket(socket, methodNotAllowed));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
