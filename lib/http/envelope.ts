import type { APIGatewayProxyResult } from 'aws-lambda';

/** The response body of every operation (code, data, message and the four paging fields, 0 when unpaged). */
export interface Envelope {
  code: string;
  data: unknown;
  message: string;
  pageNo: number;
  pageSize: number;
  totalCount: number;
  totalPages: number;
}

export interface Paging {
  pageNo: number;
  pageSize: number;
  totalCount: number;
}

const unpaged = { pageNo: 0, pageSize: 0, totalCount: 0, totalPages: 0 };

export const successEnvelope = (data: unknown, paging?: Paging): Envelope => ({
  code: '',
  data,
  message: '',
  ...(paging ? { ...paging, totalPages: Math.ceil(paging.totalCount / paging.pageSize) } : unpaged),
});

export const failureEnvelope = (code: string, message: string, data: unknown): Envelope => ({ code, data, message, ...unpaged });

export const requestIdHeader = 'x-request-id';

export const jsonResponse = (statusCode: number, body: Envelope, requestId: string, headers: Record<string, string> = {}): APIGatewayProxyResult => ({
  statusCode,
  headers: { 'content-type': 'application/json', [requestIdHeader]: requestId, ...headers },
  body: JSON.stringify(body),
});
