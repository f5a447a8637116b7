import { describe, expect, it } from 'vitest';
import { failureEnvelope, jsonResponse, requestIdHeader, successEnvelope } from '../../lib/http/envelope.ts';
import { ApiError, errors } from '../../lib/vocabulary/errors.ts';

describe('successEnvelope', () => {
  it('has empty code and message and zero paging fields when not paged', () => {
    expect(successEnvelope({ a: 1 })).toEqual({ code: '', data: { a: 1 }, message: '', pageNo: 0, pageSize: 0, totalCount: 0, totalPages: 0 });
  });

  it('keeps data that is an array, null or falsy as it is', () => {
    expect(successEnvelope([]).data).toEqual([]);
    expect(successEnvelope(null).data).toBeNull();
    expect(successEnvelope(0).data).toBe(0);
  });

  it.each([
    [0, 10, 0],
    [1, 10, 1],
    [10, 10, 1],
    [11, 10, 2],
    [13, 5, 3],
    [100, 100, 1],
    [101, 100, 2],
    [7, 1, 7],
  ])('counts %i items in pages of %i as %i pages', (totalCount, pageSize, totalPages) => {
    expect(successEnvelope([], { pageNo: 3, pageSize, totalCount })).toEqual({
      code: '',
      data: [],
      message: '',
      pageNo: 3,
      pageSize,
      totalCount,
      totalPages,
    });
  });
});

describe('failureEnvelope', () => {
  it('carries code, message and data with zero paging fields', () => {
    expect(failureEnvelope('x_failed', 'It failed.', { errors: [] })).toEqual({
      code: 'x_failed',
      data: { errors: [] },
      message: 'It failed.',
      pageNo: 0,
      pageSize: 0,
      totalCount: 0,
      totalPages: 0,
    });
  });
});

describe('jsonResponse', () => {
  it('serialises the envelope with content type and request id, letting extra headers add to them', () => {
    const response = jsonResponse(404, failureEnvelope('nope', 'No.', {}), 'req-1', { allow: 'GET' });
    expect(response.statusCode).toBe(404);
    expect(response.headers).toEqual({ 'content-type': 'application/json', [requestIdHeader]: 'req-1', allow: 'GET' });
    expect(JSON.parse(response.body)).toEqual(failureEnvelope('nope', 'No.', {}));
  });
});

describe('errors', () => {
  it('gives every 401 null data, and the empty-key one a message saying the key must be supplied', () => {
    for (const error of [errors.apiKeyEmpty(), errors.apiKeyInvalid(), errors.apiKeyExpired()]) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(401);
      expect(error.data).toBeNull();
    }
    expect(errors.apiKeyEmpty().code).toBe('service_api_key_empty');
    expect(errors.apiKeyEmpty().message).toMatch(/empty/i);
    expect(errors.apiKeyEmpty().message).toMatch(/supply/i);
    expect(errors.apiKeyInvalid().code).toBe('service_api_key_invalid');
    expect(errors.apiKeyExpired().code).toBe('service_api_key_expired');
  });

  it('gives the other failures an empty object as data, and the 500 a retry-with-backoff message', () => {
    expect(errors.invalidBranch('a b')).toMatchObject({ status: 400, code: 'invalid_branch', data: {} });
    expect(errors.branchNotFound('x')).toMatchObject({ status: 400, code: 'branch_not_found', data: {} });
    expect(errors.entityTypeNotFound('rules')).toMatchObject({ status: 404, code: 'entity_type_not_found', data: {} });
    expect(errors.entityNotFound('rule', 'a')).toMatchObject({ status: 404, code: 'entity_not_found', data: {} });
    expect(errors.versionNotFound('rule', 'a', 'v9')).toMatchObject({ status: 404, code: 'version_not_found', data: {} });
    const internal = errors.internal();
    expect(internal).toMatchObject({ status: 500, code: 'internal_error', data: {} });
    expect(internal.message).toMatch(/retry/i);
    expect(internal.message).toMatch(/back(ing)?[ -]?off/i);
  });

  it('lists every field issue of an invalid request in data and in the message', () => {
    const error = errors.invalidRequest([
      { in: 'query', field: 'pageNo', message: 'must be an integer from 1 to 1000000' },
      { in: 'query', field: 'pageSize', message: 'must be an integer from 1 to 100' },
    ]);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(error.data).toEqual({
      errors: [
        { in: 'query', field: 'pageNo', message: 'must be an integer from 1 to 1000000' },
        { in: 'query', field: 'pageSize', message: 'must be an integer from 1 to 100' },
      ],
    });
    expect(error.message).toContain('pageNo: must be an integer from 1 to 1000000');
    expect(error.message).toContain('pageSize: must be an integer from 1 to 100');
  });
});
