/** An HTTP client for the local runtime that returns the status, headers and parsed envelope of each answer. */
import type { Envelope } from '../../lib/http/envelope.ts';

export interface ApiResponse<D = unknown> {
  status: number;
  headers: Headers;
  body: Omit<Envelope, 'data'> & { data: D };
}

export interface RequestOptions {
  /** The Service-API-Key header: the runtime's demo key by default, null to leave it out. */
  key?: string | null;
  /** The Service-Branch header, absent by default. */
  branch?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  query?: Record<string, string | number | undefined>;
}

export type Api = <D = unknown>(path: string, options?: RequestOptions) => Promise<ApiResponse<D>>;

export function api(target: { url: string; apiKey: string }): Api {
  return async <D>(path: string, options: RequestOptions = {}) => {
    const url = new URL(path, target.url);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? target.apiKey : options.key;
    if (key !== null) headers['Service-API-Key'] = key;
    if (options.branch !== undefined) headers['Service-Branch'] = options.branch;
    const response = await fetch(url, { method: options.method ?? 'GET', headers, body: options.body });
    const text = await response.text();
    let body: ApiResponse<D>['body'];
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${options.method ?? 'GET'} ${path}: ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    return { status: response.status, headers: response.headers, body };
  };
}
