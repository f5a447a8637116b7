/**
 * Providers on loopback whose answers a test sets per route, for the tests of
 * integrations and API-request steps: JSON with a status, text that is not
 * JSON, an oversize body, a hang, a dropped connection, a delay, 429/503
 * with Retry-After, or a sequence of these, one per call. Every request is recorded (method, path,
 * query, headers, body), so that a test can check where a key went. Built on
 * the outbound client's test servers (../outbound/servers.ts): 127.0.0.1
 * only, every connection closed with the provider.
 */
import type http from 'node:http';
import { closedPort, startProvider, type Provider, type SeenRequest } from '../outbound/servers.ts';

export type Answer =
  | { kind: 'body'; status: number; body: string | Buffer; headers: Record<string, string | string[]> }
  | { kind: 'hang' }
  | { kind: 'drop' }
  | { kind: 'delay'; ms: number; then: Answer }
  | { kind: 'sequence'; answers: Answer[] };

const json = (body: unknown, status = 200, headers: Record<string, string | string[]> = {}): Answer => ({
  kind: 'body',
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

export const answers = {
  json,
  /** A body that is not JSON. */
  text: (body: string, status = 200, contentType = 'text/html; charset=utf-8'): Answer => ({
    kind: 'body',
    status,
    body,
    headers: { 'content-type': contentType },
  }),
  empty: (status = 204): Answer => ({ kind: 'body', status, body: '', headers: {} }),
  /** A JSON-looking body of `bytes` bytes (more than the outbound client reads by default). */
  oversize: (bytes = 1024 * 1024 + 1): Answer => ({
    kind: 'body',
    status: 200,
    body: Buffer.alloc(bytes, ' '),
    headers: { 'content-type': 'application/json' },
  }),
  /** Never answers: the caller's timeout ends the call, and closing the provider the connection. */
  hang: (): Answer => ({ kind: 'hang' }),
  /** Closes the connection without answering. */
  drop: (): Answer => ({ kind: 'drop' }),
  delay: (ms: number, then: Answer = json({ ok: true })): Answer => ({ kind: 'delay', ms, then }),
  /** 429 or 503 with a Retry-After of `seconds`. */
  retryAfter: (status: 429 | 503, seconds: number, body: unknown = { error: 'try again later' }): Answer =>
    json(body, status, { 'retry-after': String(seconds) }),
  /** The i-th call gets the i-th answer; calls after the last get the last. */
  sequence: (...sequence: Answer[]): Answer => ({ kind: 'sequence', answers: sequence }),
};

export interface RecordedRequest {
  method: string;
  path: string;
  /** Each query parameter's last value, decoded. */
  query: Record<string, string>;
  /** The request target as it came on the request line. */
  target: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export interface TestProvider {
  origin: string;
  port: number;
  /** Sets what a path answers (to any method unless one is given); any other path answers 404 JSON. */
  route(path: string, answer: Answer, method?: string): void;
  /** Requests received, in order, for one path or all. */
  requests(path?: string): RecordedRequest[];
  /** How many requests came, for one path or all. */
  calls(path?: string): number;
  /** TCP connections accepted, whether or not a request followed. */
  connections(): number;
  /** Forgets the routes, and what was received and accepted. */
  reset(): void;
  close(): Promise<void>;
}

/** The longest a hang or a delay holds a connection, should a test forget to close its provider. */
const holdAtMostMs = 60_000;

const recorded = (seen: SeenRequest): RecordedRequest => {
  const url = new URL(seen.target, 'http://x');
  const headers: Record<string, string> = {};
  for (let i = 0; i < seen.rawHeaders.length; i += 2) {
    const name = seen.rawHeaders[i]!.toLowerCase();
    headers[name] = headers[name] === undefined ? seen.rawHeaders[i + 1]! : `${headers[name]}, ${seen.rawHeaders[i + 1]}`;
  }
  return { method: seen.method, path: url.pathname, query: Object.fromEntries(url.searchParams), target: seen.target, headers, body: seen.body };
};

export async function startTestProvider(): Promise<TestProvider> {
  const routes = new Map<string, Answer>();
  const callsTo = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        run();
      },
      Math.min(ms, holdAtMostMs),
    );
    timer.unref();
    timers.add(timer);
  };

  const respond = (answer: Answer, call: number, response: http.ServerResponse): void => {
    switch (answer.kind) {
      case 'body':
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
        return;
      case 'hang':
        later(holdAtMostMs, () => response.destroy());
        return;
      case 'drop':
        response.socket?.destroy();
        return;
      case 'delay':
        later(answer.ms, () => respond(answer.then, call, response));
        return;
      case 'sequence':
        respond(answer.answers[Math.min(call, answer.answers.length - 1)]!, call, response);
    }
  };

  const provider: Provider = await startProvider((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const answer = routes.get(`${request.method} ${path}`) ?? routes.get(path);
    const call = callsTo.get(path) ?? 0;
    callsTo.set(path, call + 1);
    respond(answer ?? json({ error: 'not_found', message: `no route ${path}` }, 404), call, response);
  });
  const requests = (path?: string) => provider.requests.map(recorded).filter((r) => path === undefined || r.path === path);

  return {
    origin: provider.origin,
    port: provider.port,
    route: (path, answer, method) => void routes.set(method ? `${method} ${path}` : path, answer),
    requests,
    calls: (path) => requests(path).length,
    connections: () => provider.connections,
    reset() {
      routes.clear();
      callsTo.clear();
      provider.requests.length = 0;
      provider.connections = 0;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      await provider.close();
    },
  };
}

/** A port on 127.0.0.1 that was bound and then closed: a connection to it is refused. */
export const refusedPort = closedPort;
