/** Assertions on the response envelope that every test of the HTTP surface shares. */
import { expect } from 'vitest';
import type { ApiResponse } from './api.ts';

export const envelopeFields = ['code', 'data', 'message', 'pageNo', 'pageSize', 'totalCount', 'totalPages'];

/** The shape every answer has, success or failure: JSON, a request id, exactly the seven fields. */
export function expectEnvelope(response: ApiResponse) {
  expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(response.headers.get('x-request-id')).toMatch(/^\S{8,}$/);
  expect(Object.keys(response.body).sort()).toEqual([...envelopeFields].sort());
  for (const field of ['pageNo', 'pageSize', 'totalCount', 'totalPages'] as const) expect(Number.isInteger(response.body[field])).toBe(true);
}

/** A 200 with empty code and message; paging fields all 0 unless `paging` is given. */
export function expectSuccess(response: ApiResponse, paging?: { pageNo: number; pageSize: number; totalCount: number }) {
  expectEnvelope(response);
  expect({ status: response.status, code: response.body.code, message: response.body.message }).toEqual({ status: 200, code: '', message: '' });
  const { pageNo, pageSize, totalCount, totalPages } = response.body;
  expect({ pageNo, pageSize, totalCount, totalPages }).toEqual(
    paging ? { ...paging, totalPages: Math.ceil(paging.totalCount / paging.pageSize) } : { pageNo: 0, pageSize: 0, totalCount: 0, totalPages: 0 },
  );
}

/** A 2xx with this status, empty code and message and no paging (a create's 201 or 200, a read, a queued task's 202): its data. */
export function expectUnpaged<D>(response: ApiResponse<D>, status: 200 | 201 | 202 = 200): D {
  expectEnvelope(response);
  expect({ status: response.status, code: response.body.code, message: response.body.message }).toEqual({ status, code: '', message: '' });
  expect(response.body.totalCount).toBe(0);
  return response.body.data;
}

/** A failure: status and code as given, a message, paging fields 0, and `data` when given. */
export function expectFailure(response: ApiResponse, status: number, code: string, data?: unknown) {
  expectEnvelope(response);
  expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
  expect(response.body.message).toMatch(/\S/);
  const { pageNo, pageSize, totalCount, totalPages } = response.body;
  expect({ pageNo, pageSize, totalCount, totalPages }).toEqual({ pageNo: 0, pageSize: 0, totalCount: 0, totalPages: 0 });
  if (data !== undefined) expect(response.body.data).toEqual(data);
}
