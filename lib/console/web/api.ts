/**
 * The console's client of the public API: openapi-fetch typed by `schema.ts`
 * (generated from the OpenAPI document), on the page's own origin, with the
 * signed-in key and branch added to every request, or, for a person, sent by
 * the token worker, which adds their token (./people/token-client.ts). The
 * console holds no privilege of its own: it can do what its key or person
 * can, as curl could.
 *
 * Bodies are written by openapi-fetch's own serializer, JSON.stringify: a
 * `Decimal` in one (a typed number a double would round, read by
 * `ui/json.ts`) writes its digits there through its toJSON, so they reach the
 * API as typed. Answers are read by response.json(), their numbers as doubles.
 */
import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';
import type { Session } from './session.ts';
import { callAsPerson } from './people/token-client.ts';

/** A failed call, from its error envelope: the code, the message for people and, when the API names them, the fields at fault. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
  }

  /** The problems by where they are: `definition.rules[2].when[0]` → message (invalid_request's fields and a record's problems). */
  get fieldProblems(): Map<string, string> {
    const problems = new Map<string, string>();
    const data = (this.data ?? {}) as { errors?: { field?: string; message?: string }[]; problems?: { path?: string; message?: string }[] };
    for (const issue of data.errors ?? []) if (issue.field) problems.set(issue.field, issue.message ?? '');
    for (const problem of data.problems ?? []) if (problem.path) problems.set(problem.path, problem.message ?? '');
    return problems;
  }
}

/** What the page says for a failure with no message to show (the network, or an answer that is not the API's). */
function unreadable(response: Response | undefined, cause: unknown): ApiFailure {
  if (!response)
    return new ApiFailure(
      0,
      'network_error',
      `The API could not be reached (${cause instanceof Error ? cause.message : String(cause)}). Check your connection and try again.`,
      {},
    );
  return new ApiFailure(
    response.status,
    'unexpected_response',
    `The API answered ${response.status} ${response.statusText} without an explanation. Try again; if it persists, the request id is ${response.headers.get('x-request-id') ?? 'not given'}.`,
    {},
  );
}

export function createApi(session: () => Session | undefined, onUnauthorized: (failure: ApiFailure) => void) {
  const client = createClient<paths>({
    baseUrl: location.origin,
    // A call naming its own key (the sign-in's check of a pasted key) goes as it is; a person's, through the token worker.
    fetch: (request) => (session()?.person && !request.headers.has('Service-API-Key') ? callAsPerson(request) : fetch(request)),
  });
  client.use({
    onRequest({ request }) {
      const current = session();
      if (current) {
        if (current.apiKey) request.headers.set('Service-API-Key', current.apiKey);
        if (current.branch) request.headers.set('Service-Branch', current.branch);
      }
      return request;
    },
  });

  /**
   * The data of a call's success envelope, or an ApiFailure from its error
   * envelope. A 401 also signs the page out: the key was revoked or is wrong.
   */
  async function data<T>(call: Promise<{ data?: { data: T }; error?: unknown; response: Response }>): Promise<T> {
    let result: Awaited<typeof call>;
    try {
      result = await call;
    } catch (cause) {
      throw unreadable(undefined, cause);
    }
    if (result.data) return result.data.data;
    const envelope = result.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (!envelope || typeof envelope.code !== 'string' || typeof envelope.message !== 'string') throw unreadable(result.response, undefined);
    const failure = new ApiFailure(result.response.status, envelope.code, envelope.message, envelope.data);
    if (failure.status === 401) onUnauthorized(failure);
    throw failure;
  }

  /** Like `data`, with the paging of a list's envelope. */
  async function page<T>(
    call: Promise<{ data?: { data: T[]; pageNo: number; pageSize: number; totalCount: number; totalPages: number }; error?: unknown; response: Response }>,
  ) {
    const result = await call.catch((cause: unknown) => {
      throw unreadable(undefined, cause);
    });
    if (result.data) return result.data;
    return data(Promise.resolve(result as { error?: unknown; response: Response })) as never;
  }

  /** The body of an answer outside the envelope (the OpenAPI document itself, an exported file), or an ApiFailure from the error envelope. */
  async function body<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const result = await call.catch((cause: unknown) => {
      throw unreadable(undefined, cause);
    });
    if (result.data) return result.data;
    return data(Promise.resolve(result as { error?: unknown; response: Response })) as never;
  }

  return { client, data, page, body };
}

export type Api = ReturnType<typeof createApi>;
