/**
 * An HTTP client for the local runtime that returns the status, headers and
 * parsed envelope of each answer, and holds every answer to the contract: the
 * committed lib/openapi/openapi.json. The operation is found by method and
 * path as API Gateway finds it (lib/local/router.ts); its answer must have a
 * documented status, content type and body. An answer to a path or method
 * with no operation must be one of the gateway's own documented answers.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parseJson } from '../../lib/decimal/json.ts';
import type { Envelope } from '../../lib/http/envelope.ts';
import { routeList } from '../../lib/api/routes.ts';
import { createRouter } from '../../lib/local/router.ts';
import committed from '../../lib/openapi/openapi.json' with { type: 'json' };

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
  /** A JSON text, or a file's bytes (an import). */
  body?: string | Uint8Array;
  query?: Record<string, string | number | undefined>;
}

export type Api = <D = unknown>(path: string, options?: RequestOptions) => Promise<ApiResponse<D>>;

interface DocumentedResponse {
  content: Record<string, { schema: unknown }>;
  $ref?: string;
}

/** As much of the document's shape as is read here. */
const document = committed as unknown as {
  paths: Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>;
  components: { responses: Record<string, DocumentedResponse> };
};
const documentId = 'openapi.json';
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addSchema(document, documentId);
const match = createRouter(routeList);
const validators = new Map<string, ValidateFunction>();

/** JSON Pointer of a member of the document. */
const pointer = (...keys: string[]) => keys.map((key) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** A documented response and where it is in the document, following a `$ref` to the components. */
function located(response: DocumentedResponse | undefined, at: string[]): { response: DocumentedResponse; at: string[] } | undefined {
  if (!response?.$ref) return response && { response, at };
  const name = response.$ref.slice('#/components/responses/'.length);
  return located(document.components.responses[name], ['components', 'responses', name]);
}

const ndjson = 'application/x-ndjson';

/** Why the answer breaks the contract, or undefined when it keeps it. */
function contractViolation(method: string, url: URL, status: number, contentType: string | null, body: unknown): string | undefined {
  const found = match(method, url.pathname);
  let documented: ReturnType<typeof located>;
  let what: string;
  if (found && 'route' in found) {
    const operation = document.paths[found.route.path]?.[method.toLowerCase()];
    if (!operation) return `${method} ${found.route.path} is a route but not in lib/openapi/openapi.json: run \`npm run openapi\``;
    what = found.route.operationId;
    documented = located(operation.responses[status], ['paths', found.route.path, method.toLowerCase(), 'responses', String(status)]);
  } else {
    // The gateway's own answers are documented once, by status.
    what = 'the gateway (no operation at this path and method)';
    const name = `Gateway${status}`;
    documented = located(document.components.responses[name], ['components', 'responses', name]);
  }
  if (!documented) return `status ${status} is not documented for ${what}`;
  const mediaType = contentType?.split(';')[0]!.trim() ?? '';
  if (!(mediaType in documented.response.content))
    return `content type ${contentType} is not documented for ${status} of ${what} (${Object.keys(documented.response.content).join(', ')})`;
  const schemaAt = `${documentId}#${pointer(...documented.at, 'content', mediaType, 'schema')}`;
  let validate = validators.get(schemaAt);
  if (!validate) validators.set(schemaAt, (validate = ajv.compile({ $ref: schemaAt })));
  // NDJSON (an export): the schema is each line's.
  const values = mediaType === ndjson ? (body as unknown[]) : [body];
  for (const [i, value] of values.entries())
    if (!validate(value))
      return `the ${mediaType === ndjson ? `line ${i + 1}` : 'body'} does not match the ${status} schema of ${what}: ${ajv.errorsText(validate.errors, { separator: '; ', dataVar: 'body' })}`;
  return undefined;
}

export function api(target: { url: string; apiKey: string }): Api {
  return async <D>(path: string, options: RequestOptions = {}) => {
    const url = new URL(path, target.url);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? target.apiKey : options.key;
    if (key !== null) headers['Service-API-Key'] = key;
    if (options.branch !== undefined) headers['Service-Branch'] = options.branch;
    const method = options.method ?? 'GET';
    const response = await fetch(url, { method, headers, body: options.body as BodyInit | undefined });
    const mediaType = response.headers.get('content-type')?.split(';')[0]!.trim() ?? '';
    const attachment = response.headers.get('content-disposition')?.startsWith('attachment');
    if (response.ok && (attachment || (mediaType !== 'application/json' && mediaType !== ndjson))) {
      // A file (an export, JSON ones too): its bytes, once its status and content type are documented.
      const bytes = Buffer.from(await response.arrayBuffer());
      const violation = contractViolation(method, url, response.status, mediaType, bytes.toString('latin1'));
      if (violation) throw new Error(`${method} ${path} answered ${response.status} ${mediaType}, against the contract: ${violation}`);
      return { status: response.status, headers: response.headers, body: bytes as unknown as ApiResponse<D>['body'] };
    }
    const text = await response.text();
    let body: ApiResponse<D>['body'];
    if (response.headers.get('content-type') === ndjson) {
      const lines = text.split('\n').filter(Boolean);
      const violation = contractViolation(
        method,
        url,
        response.status,
        ndjson,
        lines.map((line) => JSON.parse(line)),
      );
      if (violation) throw new Error(`${method} ${path} answered ${response.status} ${text.slice(0, 300)}, against the contract: ${violation}`);
      return { status: response.status, headers: response.headers, body: lines.map((line) => parseJson(line)) as unknown as ApiResponse<D>['body'] };
    }
    try {
      // Exact, as a client that keeps the digits reads it (numbers past a double are Decimals); the contract is checked on plain JSON.
      body = parseJson(text) as ApiResponse<D>['body'];
    } catch {
      throw new Error(`${method} ${path}: ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    const violation = contractViolation(method, url, response.status, response.headers.get('content-type'), JSON.parse(text));
    if (violation) throw new Error(`${method} ${path} answered ${response.status} ${text.slice(0, 300)}, against the contract: ${violation}`);
    return { status: response.status, headers: response.headers, body };
  };
}
