/**
 * Answers that API Gateway gives itself, before any function runs. The stack
 * turns each into a gateway response (or, for 405, a mock method) in envelope
 * form, the local runtime gives the same answers, so clients see one shape,
 * and the OpenAPI document lists them for every operation.
 */
export interface GatewayAnswer {
  status: number;
  code: string;
  message: string;
}

export const routeNotFound: GatewayAnswer = { status: 404, code: 'route_not_found', message: 'No operation exists at this path.' };
export const methodNotAllowed: GatewayAnswer = { status: 405, code: 'method_not_allowed', message: 'This path does not support the method.' };
export const payloadTooLarge: GatewayAnswer = { status: 413, code: 'payload_too_large', message: 'The request is larger than 10 MB.' };

/** API Gateway's own size limit for a request. */
export const maxRequestBytes = 10 * 1024 * 1024;

/** Keyed by API Gateway's gateway response type. */
export const gatewayResponses: Record<string, GatewayAnswer> = {
  // API Gateway answers an unknown path with 403 "Missing Authentication Token"; to a client that is a 404.
  MISSING_AUTHENTICATION_TOKEN: routeNotFound,
  RESOURCE_NOT_FOUND: routeNotFound,
  REQUEST_TOO_LARGE: payloadTooLarge,
  THROTTLED: { status: 429, code: 'too_many_requests', message: 'Too many requests. Retry after a delay, backing off exponentially.' },
  QUOTA_EXCEEDED: { status: 429, code: 'quota_exceeded', message: 'The request quota is used up. Retry later.' },
  INTEGRATION_TIMEOUT: { status: 504, code: 'timeout', message: 'The operation timed out. Retry after a delay, backing off exponentially.' },
  INTEGRATION_FAILURE: { status: 502, code: 'internal_error', message: 'The service failed unexpectedly. Retry after a delay, backing off exponentially.' },
  DEFAULT_4XX: { status: 400, code: 'bad_request', message: 'The request was rejected by the gateway.' },
  DEFAULT_5XX: { status: 500, code: 'internal_error', message: 'The service failed unexpectedly. Retry after a delay, backing off exponentially.' },
};
