/**
 * What API Gateway answers itself, mimicked by the local server: unknown
 * routes, wrong methods and oversize bodies, all in the envelope; and the
 * OpenAPI document.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { maxRequestBytes } from '../../lib/http/gateway-responses.ts';
import { openApiPath, renderOpenApi } from '../../lib/openapi/write.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

/** A request through node:http, which (unlike fetch) can send a body with GET and stream one in chunks. */
function rawRequest(options: {
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  body?: Buffer;
  chunks?: { size: number; count: number };
}) {
  const url = new URL(t.runtime.url);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, unknown> }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: options.path, method: options.method, headers: options.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(parts).toString('utf8')) }));
    });
    req.on('error', reject);
    if (options.chunks) {
      const chunk = Buffer.alloc(options.chunks.size, 'x');
      let sent = 0;
      const write = () => {
        while (sent < options.chunks!.count) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', write);
        }
        req.end();
      };
      write();
    } else req.end(options.body);
  });
}

describe('unknown routes', () => {
  it.each([
    '/',
    '/dev',
    '/dev/v1',
    '/dev/rule/shipping-cost/extra',
    '/dev/v1/rule/x/y',
    '/v1/rule',
    '/api/dev/rule',
    '/dev/rule/x/schedule/now',
    '/openapi.yaml',
  ])('answers %s with 404 route_not_found in the envelope', async (path) => {
    const response = await t.api(path);
    expectFailure(response, 404, 'route_not_found', {});
  });

  it('answers before authentication, so without a key too', async () => {
    expectFailure(await t.api('/nowhere', { key: null }), 404, 'route_not_found', {});
  });

  it('routes an unknown first segment under /dev as an entity type, as API Gateway would', async () => {
    // /dev/v2/rule fits /dev/{entityType}/{entityId}: the function, not the gateway, answers it.
    expectFailure(await t.api('/dev/v2/rule'), 404, 'entity_type_not_found', {});
  });

  it('answers a path that is not valid percent-encoding with 404', async () => {
    expectFailure(await t.api('/dev/rule/%E0%A4%A'), 404, 'route_not_found', {});
  });
});

describe('wrong methods', () => {
  it.each([
    ['POST', '/dev/rule'],
    ['PUT', '/dev/rule/shipping-cost'],
    ['DELETE', '/dev/rule/shipping-cost'],
    ['PUT', '/dev/v1/workflow', 'GET, POST'],
    ['PUT', '/dev/v1/rule/shipping-cost', 'GET, PATCH, DELETE'],
    ['GET', '/dev/v1/rule/shipping-cost/execute', 'POST'],
  ])('answers %s %s with 405 method_not_allowed and an Allow header', async (method, path, allow = 'GET') => {
    const response = await t.api(path, { method });
    expectFailure(response, 405, 'method_not_allowed', {});
    expect(response.headers.get('allow')).toBe(allow);
  });

  it('answers before authentication', async () => {
    const response = await t.api('/dev/rule', { method: 'DELETE', key: null });
    expectFailure(response, 405, 'method_not_allowed', {});
  });
});

describe('request size', () => {
  const envelopeOf = (response: { status: number; headers: Record<string, unknown>; body: Record<string, unknown> }) => ({
    status: response.status,
    contentType: response.headers['content-type'],
    requestId: typeof response.headers['x-request-id'],
    body: response.body,
  });
  const tooLarge = {
    status: 413,
    contentType: 'application/json',
    requestId: 'string',
    body: { code: 'payload_too_large', data: {}, message: expect.stringContaining('10 MB'), pageNo: 0, pageSize: 0, totalCount: 0, totalPages: 0 },
  };

  it('answers a body over 10 MB with 413 payload_too_large', async () => {
    const response = await fetch(`${t.runtime.url}/dev/rule`, { method: 'POST', body: Buffer.alloc(maxRequestBytes + 1, 'x') });
    expect({ status: response.status, body: await response.json() }).toEqual({ status: 413, body: tooLarge.body });
  });

  it('answers a declared length over 10 MB at once, without reading the body', async () => {
    // The header alone decides: only a few bytes follow it.
    const response = await rawRequest({ method: 'GET', path: '/dev/rule', headers: { 'content-length': maxRequestBytes + 1 }, body: Buffer.from('x') });
    expect(envelopeOf(response)).toEqual(tooLarge);
  });

  it('answers a chunked body once it passes 10 MB', async () => {
    const response = await rawRequest({
      method: 'GET',
      path: '/dev/rule',
      headers: { 'transfer-encoding': 'chunked' },
      chunks: { size: 1024 * 1024, count: 11 },
    });
    expect(envelopeOf(response)).toEqual(tooLarge);
  });

  it('answers headers over 16 KiB, which Node refuses before any route, with 431 in the envelope', async () => {
    const response = await rawRequest({ method: 'GET', path: '/dev/rule', headers: { 'x-big': 'x'.repeat(17_000) } });
    expect(envelopeOf(response)).toEqual({
      status: 431,
      contentType: 'application/json',
      requestId: 'string',
      body: { code: 'request_headers_too_large', data: {}, message: expect.stringContaining('16 KiB'), pageNo: 0, pageSize: 0, totalCount: 0, totalPages: 0 },
    });
  });

  it.each([
    ['an absolute target that does not parse', 'GET http://[::1/dev/v1/rule HTTP/1.1', 400, 'bad_request'],
    ['CONNECT, which Node hands over as a bare socket', 'CONNECT 127.0.0.1:9 HTTP/1.1', 405, 'method_not_allowed'],
  ])('answers %s with the envelope', async (_what, line, status, code) => {
    const url = new URL(t.runtime.url);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.end(`${line}\r\nHost: ${url.host}\r\n\r\n`));
      const parts: Buffer[] = [];
      socket.on('data', (part: Buffer) => parts.push(part));
      socket.on('close', () => resolve(Buffer.concat(parts).toString('utf8')));
      socket.on('error', reject);
      socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
    });
    expect(text.split('\r\n', 1)[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ code, data: {}, pageNo: 0 });
  });

  it('lets a body of exactly 10 MB through to the operation', async () => {
    const response = await rawRequest({
      method: 'GET',
      path: '/dev/rule',
      headers: { 'service-api-key': t.runtime.apiKey, 'content-length': maxRequestBytes },
      body: Buffer.alloc(maxRequestBytes, 'x'),
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: '', totalCount: 15 });
  });
});

describe('the envelope on every answer', () => {
  it('carries a fresh request id on each response', async () => {
    const responses = await Promise.all([t.api('/dev/rule'), t.api('/dev/rule'), t.api('/nowhere'), t.api('/dev/rule', { key: null })]);
    const requestIds = responses.map((r) => r.headers.get('x-request-id'));
    expect(new Set(requestIds).size).toBe(responses.length);
    expectSuccess(responses[0]!, { pageNo: 1, pageSize: 10, totalCount: 15 });
  });
});

describe('GET /openapi.json', () => {
  // Writing the document follows every function's code, the rules engine's included: seconds, not milliseconds.
  it('matches the committed lib/openapi/openapi.json (run `npm run openapi` after changing routes or schemas)', () => {
    expect(readFileSync(openApiPath, 'utf8')).toBe(renderOpenApi());
  }, 30_000);
});
