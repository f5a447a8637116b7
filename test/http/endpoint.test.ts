/**
 * The middleware stack every function shares, driven with hand-made API
 * Gateway events against an embedded DynamoDB: authentication, branch
 * resolution, query parsing, the envelope, and the 500 for anything unexpected.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

vi.hoisted(() => {
  // Before the logger module is loaded: the 500 tests log on purpose.
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
});

import { EngineError } from '../../lib/engine/errors.ts';
import { endpoint } from '../../lib/http/endpoint.ts';
import { errors } from '../../lib/vocabulary/errors.ts';
import { logger } from '../../lib/logging/logger.ts';
import { routes } from '../../lib/api/routes.ts';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../lib/local/embedded-dynamo.ts';
import { lambdaContext } from '../../lib/local/proxy-event.ts';
import { ensureTable } from '../../lib/store/dynamo/create-table.ts';
import { createStore } from '../../lib/store/index.ts';
import { addBranch, createApiKey, createWorkspace } from '../../lib/workspaces/admin.ts';

let dynamo: EmbeddedDynamo;
let apiKey: string;

beforeAll(async () => {
  dynamo = await startEmbeddedDynamo({ port: 0 });
  const config = { tableName: 'endpoint-test', endpoint: dynamo.endpoint };
  // The functions' store is made from these on first use, which comes after this.
  Object.assign(process.env, { TABLE_NAME: config.tableName, DYNAMODB_ENDPOINT: config.endpoint });
  await ensureTable(config);
  const store = createStore(config);
  await createWorkspace(store, { id: 'ws', defaultBranch: 'trunk' });
  await addBranch(store, 'ws', 'feature/x');
  ({ key: apiKey } = await createApiKey(store, 'ws'));
}, 30_000);
afterAll(() => dynamo?.close());

interface EventOptions {
  headers?: Record<string, string> | null;
  query?: Record<string, string>;
  path?: Record<string, string>;
}

let requests = 0;
function event({ headers, query, path }: EventOptions = {}): APIGatewayProxyEvent {
  return {
    resource: '/test',
    path: '/test',
    httpMethod: 'GET',
    // API Gateway sends null when a request has no headers at all.
    headers: (headers === undefined ? { 'Service-API-Key': apiKey } : headers) as APIGatewayProxyEvent['headers'],
    multiValueHeaders: {},
    queryStringParameters: query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: path ?? null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: `request-${++requests}` } as APIGatewayProxyEvent['requestContext'],
  };
}

async function invoke(handler: ReturnType<typeof endpoint>, options?: EventOptions) {
  const input = event(options);
  const result = (await handler(input, lambdaContext(routes.listEntities))) as APIGatewayProxyResult;
  return { result, body: JSON.parse(result.body), requestId: input.requestContext.requestId };
}

const noQuery = z.object({});
const echo = endpoint(
  { query: z.object({ n: z.coerce.number().int().default(1) }), branch: 'optional', permission: 'read', operationId: 'probe' },
  async (call) => ({
    data: { workspace: call.principal.workspace.id, branch: call.branch, query: call.query, path: call.path },
  }),
);

describe('endpoint', () => {
  it('wraps what the function returns in a success envelope with the request id', async () => {
    const { result, body, requestId } = await invoke(echo, { query: { n: '5' }, path: { entityId: 'x' } });
    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({ 'content-type': 'application/json', 'x-request-id': requestId });
    expect(body).toEqual({
      code: '',
      data: { workspace: 'ws', branch: 'trunk', query: { n: 5 }, path: { entityId: 'x' } },
      message: '',
      pageNo: 0,
      pageSize: 0,
      totalCount: 0,
      totalPages: 0,
    });
  });

  it('fills the paging fields from what the function returns', async () => {
    const paged = endpoint({ query: noQuery, branch: 'none', permission: 'read', operationId: 'probe' }, async () => ({
      data: [1, 2],
      paging: { pageNo: 2, pageSize: 2, totalCount: 5 },
    }));
    expect((await invoke(paged)).body).toEqual({ code: '', data: [1, 2], message: '', pageNo: 2, pageSize: 2, totalCount: 5, totalPages: 3 });
  });

  it('reads the headers whatever their case', async () => {
    const { body } = await invoke(echo, { headers: { 'SERVICE-API-KEY': apiKey, 'service-BRANCH': 'feature/x' } });
    expect(body.data).toMatchObject({ branch: 'feature/x' });
  });

  it('answers 401 with null data before the function runs when the key is missing', async () => {
    const run = vi.fn(async () => ({ data: 'ran' }));
    const guarded = endpoint({ query: noQuery, branch: 'none', permission: 'read', operationId: 'probe' }, run);
    for (const headers of [{}, null, { 'Service-API-Key': '' }] as (Record<string, string> | null)[]) {
      const { result, body } = await invoke(guarded, { headers });
      expect(result.statusCode).toBe(401);
      expect(body).toMatchObject({ code: 'service_api_key_empty', data: null });
    }
    expect((await invoke(guarded, { headers: { 'Service-API-Key': 'rsk_not-a-key' } })).body).toMatchObject({ code: 'service_api_key_invalid', data: null });
    expect(run).not.toHaveBeenCalled();
  });

  it('resolves the branch: default when absent or empty, 400 when invalid or unknown, required when the route says so', async () => {
    const branchOf = async (branch?: string) => {
      const headers: Record<string, string> = { 'Service-API-Key': apiKey };
      if (branch !== undefined) headers['Service-Branch'] = branch;
      return (await invoke(echo, { headers })).body;
    };
    expect((await branchOf()).data.branch).toBe('trunk');
    expect((await branchOf('')).data.branch).toBe('trunk');
    expect(await branchOf('a..b')).toMatchObject({ code: 'invalid_branch', data: {} });
    expect(await branchOf('main')).toMatchObject({ code: 'branch_not_found', data: {} });
    const required = endpoint({ query: noQuery, branch: 'required', permission: 'read', operationId: 'probe' }, async (call) => ({ data: call.branch }));
    const { result, body } = await invoke(required);
    expect(result.statusCode).toBe(400);
    expect(body).toMatchObject({ code: 'branch_required', data: {} });
    expect((await invoke(required, { headers: { 'Service-API-Key': apiKey, 'Service-Branch': 'feature/x' } })).body.data).toBe('feature/x');
  });

  it('turns a query that does not parse into 400 invalid_request with field details', async () => {
    const { result, body } = await invoke(echo, { query: { n: '1.5' } });
    expect(result.statusCode).toBe(400);
    expect(body.code).toBe('invalid_request');
    expect(body.data).toEqual({ errors: [{ in: 'query', field: 'n', message: expect.any(String) }] });
  });

  it('passes an ApiError the function throws through as it is', async () => {
    const missing = endpoint({ query: noQuery, branch: 'none', permission: 'read', operationId: 'probe' }, async () => {
      throw errors.entityNotFound('rule', 'x');
    });
    const { result, body } = await invoke(missing);
    expect(result.statusCode).toBe(404);
    expect(body).toEqual({ code: 'entity_not_found', data: {}, message: 'No rule "x" on this branch.', pageNo: 0, pageSize: 0, totalCount: 0, totalPages: 0 });
  });

  it.each([
    [
      new EngineError('invalid_params', 'The params do not fit.', [{ field: 'params.order', message: 'expected an object, got a list' }]),
      400,
      'invalid_request',
      { errors: [{ in: 'body', field: 'params.order', message: 'expected an object, got a list' }] },
    ],
    [
      new EngineError('invalid_params', 'The params must be a JSON object.'),
      400,
      'invalid_request',
      { errors: [{ in: 'body', field: 'params', message: 'The params must be a JSON object.' }] },
    ],
    [new EngineError('evaluation_failed', 'row 1 and row 2 all match.'), 422, 'evaluation_failed', {}],
    [new EngineError('rule_reference_not_found', 'No rule "x".'), 409, 'rule_reference_not_found', {}],
    [new EngineError('rule_reference_cycle', 'a → b → a.'), 409, 'rule_reference_cycle', {}],
  ])('answers an engine failure as its code says: %s', async (error, status, code, data) => {
    const failing = endpoint({ query: noQuery, branch: 'none', permission: 'read', operationId: 'probe' }, async () => {
      throw error;
    });
    const { result, body } = await invoke(failing);
    expect(result.statusCode).toBe(status);
    expect(body).toMatchObject({ code, data });
    if (code !== 'invalid_request') expect(body.message).toBe(error.message);
  });

  describe('an unexpected failure', () => {
    const secret = 'connection string postgres://admin:hunter2@db';
    const crashing = endpoint({ query: noQuery, branch: 'none', permission: 'read', operationId: 'probe' }, async () => {
      throw new TypeError(secret);
    });

    it('answers 500 internal_error with empty data, a retry-with-backoff message, and nothing of the error', async () => {
      const { result, body, requestId } = await invoke(crashing);
      expect(result.statusCode).toBe(500);
      expect(result.headers).toMatchObject({ 'content-type': 'application/json', 'x-request-id': requestId });
      expect(body).toEqual({
        code: 'internal_error',
        data: {},
        message: errors.internal().message,
        pageNo: 0,
        pageSize: 0,
        totalCount: 0,
        totalPages: 0,
      });
      expect(body.message).toMatch(/retry/i);
      expect(result.body).not.toContain('hunter2');
      expect(result.body).not.toContain('TypeError');
      expect(result.body).not.toMatch(/\bat .*\.ts:\d+/); // no stack frames
    });

    it('logs the error for the operators', async () => {
      const logged = vi.spyOn(logger, 'error');
      await invoke(crashing);
      expect(logged).toHaveBeenCalledWith('unexpected failure', expect.objectContaining({ message: secret }));
      logged.mockRestore();
    });

    it('includes a failure of the database', async () => {
      // A table that does not exist: DynamoDB answers ResourceNotFoundException, which nothing expects.
      const missingTable = createStore({ tableName: 'no-such-table', endpoint: dynamo.endpoint });
      const failing = endpoint({ query: noQuery, branch: 'optional', permission: 'read', operationId: 'probe' }, async (call) => ({
        data: await missingTable.getEntity({ workspaceId: call.principal.workspace.id, branch: call.branch, entityType: 'rule', id: 'x' }),
      }));
      const logged = vi.spyOn(logger, 'error');
      const { result, body } = await invoke(failing);
      expect(logged).toHaveBeenCalledWith('unexpected failure', expect.objectContaining({ name: 'ResourceNotFoundException' }));
      logged.mockRestore();
      expect(result.statusCode).toBe(500);
      expect(body).toMatchObject({ code: 'internal_error', data: {} });
      expect(result.body).not.toMatch(/ResourceNotFound|no-such-table/);
    });
  });

  it('serves a real function module the same way', async () => {
    const { handler } = await import('../../functions/get-entity-legacy.ts');
    const { result, body } = await invoke(handler as ReturnType<typeof endpoint>, { path: { entityType: 'rule', entityId: 'nothing-here' } });
    expect(result.statusCode).toBe(404);
    expect(body).toMatchObject({ code: 'entity_not_found', data: {} });
    const { body: wrongType } = await invoke(handler as ReturnType<typeof endpoint>, { path: { entityType: 'rules', entityId: 'x' } });
    expect(wrongType).toMatchObject({ code: 'entity_type_not_found', data: {} });
  });
});
