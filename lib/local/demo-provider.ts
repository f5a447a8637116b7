/**
 * The demo workspace's provider: a small JSON API on loopback that the demo
 * integrations call, answering only with the right API key, as a real
 * provider would. One route takes the key in a header and the other in the
 * query, so that both placements of a credential can be tried:
 *
 *   POST /v1/risk-score           X-Api-Key: <key>   {"amount": 1500, "flags": {"countryMismatch": true}, "ruleScore": 60}
 *   GET  /v1/risk-score?amount=1500                   the same, from the query (X-Api-Key still)
 *   GET  /v1/fx-rate?from=EUR&to=USD&api_key=<key>
 *
 * A missing or wrong key is 401 with a JSON error. Never listens on anything
 * but 127.0.0.1; a request body is read up to 64 KiB.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The demo provider's API key: a demo value, printed at start like the demo API key. */
export const demoProviderKey = 'demo-provider-key';
export const demoProviderKeyHeader = 'X-Api-Key';
export const demoProviderKeyParam = 'api_key';

export interface DemoProvider {
  /** `http://127.0.0.1:<port>`: the demo integrations' base URL. */
  url: string;
  port: number;
  close(): Promise<void>;
}

const maxBodyBytes = 64 * 1024;

/** Units of each currency a euro buys, as of one fixed day: the rate from A to B is rates[B] / rates[A]. */
const eurRates: Record<string, number> = { EUR: 1, USD: 1.08, GBP: 0.86, CHF: 0.95, JPY: 160.2 };
const ratesAsOf = '2024-01-01';

class Refusal {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly message: string,
  ) {}
}

const sameKey = (given: string | undefined, key: string) =>
  given !== undefined && timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(key).digest());

function requireKey(given: string | undefined, key: string, where: string) {
  if (given === undefined || given === '') throw new Refusal(401, 'unauthorized', `send the API key in ${where}`);
  if (!sameKey(given, key)) throw new Refusal(401, 'unauthorized', 'the API key is not valid');
}

/** A risk score from 0 to 100 for a payment: its amount, the signals a screening rule raised, and that rule's own score. */
function riskScore(input: Record<string, unknown>) {
  const amount = Number(input.amount);
  if (input.amount === undefined || input.amount === '' || !Number.isFinite(amount) || amount < 0)
    throw new Refusal(400, 'invalid_request', 'amount must be a number, 0 or more');
  const ruleScore = input.ruleScore === undefined || input.ruleScore === null ? 0 : Number(input.ruleScore);
  if (!Number.isFinite(ruleScore) || ruleScore < 0 || ruleScore > 100) throw new Refusal(400, 'invalid_request', 'ruleScore must be a number from 0 to 100');
  const flags =
    typeof input.flags === 'object' && input.flags !== null
      ? Object.entries(input.flags)
          .filter(([, raised]) => raised === true)
          .map(([flag]) => flag)
      : [];
  const reasons = [
    ...(amount >= 5000 ? ['amount of 5000 or more'] : amount >= 1000 ? ['amount of 1000 or more'] : []),
    ...flags.map((flag) => `signal ${flag}`),
    ...(ruleScore > 0 ? [`screening score ${ruleScore}`] : []),
  ];
  const score = Math.min(100, (amount >= 5000 ? 40 : amount >= 1000 ? 25 : 0) + 20 * flags.length + Math.round(ruleScore / 2));
  const level = score >= 70 ? 'high' : score >= 40 ? 'medium' : 'low';
  return { score, level, decision: level === 'high' ? 'decline' : level === 'medium' ? 'review' : 'approve', reasons };
}

function fxRate(query: URLSearchParams) {
  const [from, to] = [query.get('from')?.toUpperCase() ?? '', query.get('to')?.toUpperCase() ?? ''];
  const known = Object.keys(eurRates).join(', ');
  for (const [name, code] of [
    ['from', from],
    ['to', to],
  ] as const)
    if (!(code in eurRates)) throw new Refusal(400, 'invalid_request', `${name} must be one of ${known}`);
  return { from, to, rate: Math.round((eurRates[to]! / eurRates[from]!) * 1e6) / 1e6, asOf: ratesAsOf };
}

function readJson(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) reject(new Refusal(413, 'payload_too_large', `the body must be at most ${maxBodyBytes} bytes`));
      else chunks.push(chunk);
    });
    request.on('error', reject);
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        const body: unknown = text.trim() ? JSON.parse(text) : {};
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('not an object');
        resolve(body as Record<string, unknown>);
      } catch {
        reject(new Refusal(400, 'invalid_request', 'the body must be a JSON object'));
      }
    });
  });
}

async function answer(request: http.IncomingMessage, key: string): Promise<unknown> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const method = request.method ?? 'GET';
  const allow = (methods: string[]) => {
    if (!methods.includes(method)) throw new Refusal(405, 'method_not_allowed', `${url.pathname} takes ${methods.join(' or ')}`);
  };
  switch (url.pathname) {
    case '/v1/risk-score': {
      allow(['GET', 'POST']);
      requireKey(request.headers[demoProviderKeyHeader.toLowerCase()] as string | undefined, key, `the ${demoProviderKeyHeader} header`);
      const query = Object.fromEntries(url.searchParams);
      return riskScore(method === 'POST' ? await readJson(request) : query);
    }
    case '/v1/fx-rate':
      allow(['GET']);
      requireKey(url.searchParams.get(demoProviderKeyParam) ?? undefined, key, `the ${demoProviderKeyParam} query parameter`);
      return fxRate(url.searchParams);
    default:
      throw new Refusal(404, 'not_found', `no route ${url.pathname}: this provider serves /v1/risk-score and /v1/fx-rate`);
  }
}

export async function startDemoProvider(options: { port?: number; key?: string } = {}): Promise<DemoProvider> {
  const key = options.key ?? demoProviderKey;
  const server = http.createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    answer(request, key).then(
      (body) => send(200, body),
      (error: unknown) => {
        if (!(error instanceof Refusal)) return send(500, { error: 'internal_error', message: 'the demo provider failed' });
        // A body not read to its end would be left on the connection.
        request.resume();
        send(error.status, { error: error.error, message: error.message });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
