/**
 * GET /openapi.json, a route like any other: the committed document with its
 * servers set to the URL it was fetched from, without a key, not in the
 * envelope; a wrong method still gets the gateway's 405 envelope.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/get-openapi.ts';
import committed from '../../lib/openapi/openapi.json' with { type: 'json' };
import { expectFailure } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime({ seed: false });

describe('GET /openapi.json', () => {
  it('serves the committed document, without a key, with the local runtime as its one server', async () => {
    const response = await t.api<unknown>('/openapi.json', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ ...committed, servers: [{ url: t.runtime.url, description: 'The API this document was fetched from' }] });
  });

  it('answers another method with the 405 envelope', async () => {
    const response = await t.api('/openapi.json', { method: 'POST', key: null });
    expectFailure(response, 405, 'method_not_allowed', {});
    expect(response.headers.get('allow')).toBe('GET');
  });

  it('names the deployed stage URL it was called on, from the Host header and the stage', async () => {
    const event = {
      headers: { Host: 'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com' },
      requestContext: { stage: 'api', requestId: 'req-1' },
    } as unknown as APIGatewayProxyEvent;
    const result = await handler(event);
    expect(result.headers).toEqual({ 'content-type': 'application/json', 'x-request-id': 'req-1' });
    expect(JSON.parse(result.body).servers).toEqual([
      { url: 'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/api', description: 'The API this document was fetched from' },
    ]);
  });
});
