/**
 * Counts the requests the embedded DynamoDB serves, with their bodies and
 * response sizes. It watches the server side through Node's built-in HTTP
 * diagnostics channels, so nothing sits between the function and DynamoDB
 * and nothing is spent while the meter is off.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MeteredRequest {
  /** The DynamoDB operation, from the X-Amz-Target header (e.g. Query). */
  operation: string;
  /** The request as sent, in DynamoDB's JSON wire format. */
  body: string;
  /** Response body bytes (DynamoDB's Content-Length). */
  responseBytes: number;
  /** From the request's arrival to the last byte of the response handed to the socket. */
  ms: number;
}

interface ServerMessage {
  request: IncomingMessage;
  response: ServerResponse;
  server: Server;
}

const requestStart = 'http.server.request.start';
const responseFinish = 'http.server.response.finish';

export function meterRequests(endpoint: string) {
  const port = Number(new URL(endpoint).port);
  const pending = new WeakMap<ServerResponse, { operation: string; chunks: Buffer[]; started: number }>();
  let seen: MeteredRequest[] = [];
  const ours = (server: Server) => (server.address() as AddressInfo | null)?.port === port;

  const onStart = (message: unknown) => {
    const { request, response, server } = message as ServerMessage;
    if (!ours(server)) return;
    const entry = { operation: String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '', chunks: [] as Buffer[], started: performance.now() };
    // Each chunk as the server's own reading gets it: a 'data' listener of ours would set the stream flowing before the server reads.
    const emit = request.emit.bind(request);
    request.emit = (event: string | symbol, ...args: unknown[]) => {
      if (event === 'data') entry.chunks.push(args[0] as Buffer);
      return emit(event, ...args);
    };
    pending.set(response, entry);
  };
  const onFinish = (message: unknown) => {
    const { response } = message as ServerMessage;
    const entry = pending.get(response);
    if (!entry) return;
    seen.push({
      operation: entry.operation,
      body: Buffer.concat(entry.chunks).toString('utf8'),
      responseBytes: Number(response.getHeader('content-length') ?? 0),
      ms: performance.now() - entry.started,
    });
  };

  return {
    /** Counts what the server serves until `stop`. */
    start() {
      seen = [];
      subscribe(requestStart, onStart);
      subscribe(responseFinish, onFinish);
    },
    stop(): MeteredRequest[] {
      unsubscribe(requestStart, onStart);
      unsubscribe(responseFinish, onFinish);
      return seen;
    },
  };
}
