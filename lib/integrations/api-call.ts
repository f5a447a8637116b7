/**
 * The contract between the workflow runner and whoever makes its HTTP calls:
 * the runner builds an `ApiRequest` from a step's FEEL and decides on retries
 * and on what a status means for the run; the caller (lib/integrations/call.ts
 * in the service, a fake in unit tests) resolves the integration or the
 * credential, sends the request and parses the answer. Kept apart from the
 * runner so that the caller depends on these types only.
 */
import type { OutboundMethod } from '../outbound/index.ts';

/** What an API-request step asks to send; the caller resolves the integration or credential and makes the call. */
export interface ApiRequest {
  stepId: string;
  method: Exclude<OutboundMethod, 'HEAD'>;
  /** An integration of the workspace and a path under its base URL… */
  integrationId?: string;
  path?: string;
  /** …or a full URL, with its own credential when it names one. */
  url?: string;
  credentialId?: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Sent as JSON when present. */
  body?: unknown;
  /** This try's timeout: the step's, or less when the run's deadline is nearer. */
  timeoutMs: number;
}

/** Any answer the provider gave, whatever its status: the runner decides what the status means. */
export interface ApiResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The parsed JSON body; null when the body is empty. */
  body: unknown;
}

/**
 * A call that got no usable answer: the provider could not be reached, took
 * too long, answered too much or not JSON, or the step's integration or
 * credential cannot be used. The message is for the user and never holds a
 * secret; `retryable` says whether trying again may help (a timeout or a
 * refused connection may; a revoked credential will not).
 */
export class ApiCallFailure extends Error {
  override readonly name = 'ApiCallFailure';

  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export type CallApi = (request: ApiRequest) => Promise<ApiResponse>;
