/**
 * Request bodies of the integration operations (zod/mini, as in every API
 * function). Every bound is stated here and checked before any read, so an
 * integration that is stored can always be sent: its base URL parses, and
 * its headers are ones an HTTP request carries unaltered.
 */
import * as z from 'zod/mini';
import { headerNamePattern, headerValuePattern } from '../credentials/placement.ts';
import { itemName, text } from '../credentials/schema.ts';
import { jsonBoundsProblem } from '../vocabulary/json-bounds.ts';
import { httpBaseUrlPattern, noControlCharacters } from '../vocabulary/patterns.ts';
import { strictBody } from '../http/queries.ts';
import { DROPPED_HEADERS as unsendableHeaders } from '../outbound/headers.ts';

export const integrationLimits = {
  baseUrlLength: 2000,
  /** Per map: an integration's headers, a test's headers or query. */
  entries: 50,
  headerNameLength: 256,
  valueLength: 4096,
  maxTimeoutMs: 30_000,
  defaultTimeoutMs: 10_000,
  descriptionLength: 500,
  pathLength: 2000,
  /** A test's JSON body. */
  testBody: { maxBytes: 64 * 1024, maxDepth: 32 },
  /** The provider's JSON answer a test shows; a larger one is left out (`bodyOmitted`). */
  testAnswerBytes: 64 * 1024,
  /** A test's call, whatever the integration's timeout: its function has 20 s, inside API Gateway's 29 s. */
  testTimeoutMs: 15_000,
} as const;

/** What an API-request step may send (lib/integrations/api-call.ts): every method but HEAD. */
export const callMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Headers that carry a secret: it belongs in a credential, which is sealed and never shown. */
const secretHeaders = new Set(['authorization', 'proxy-authorization', 'cookie']);

const mapTypeError = (issue: { code?: string }) => (issue.code === 'invalid_type' ? 'must be a JSON object of names to strings' : undefined);

/** What a map of names to strings may hold at most. */
const entries = (what: string) =>
  z.superRefine<Record<string, string>>((map, ctx) => {
    if (Object.keys(map).length > integrationLimits.entries)
      ctx.addIssue({ code: 'custom', message: `must hold at most ${integrationLimits.entries} ${what}`, input: map });
  });

const headerName = z.string().check(z.maxLength(integrationLimits.headerNameLength), z.regex(headerNamePattern));
const headerValue = z
  .string({ error: 'must be a string' })
  .check(
    z.maxLength(integrationLimits.valueLength, { error: `must be at most ${integrationLimits.valueLength} characters` }),
    z.regex(headerValuePattern, { error: 'must be visible ASCII or Latin-1 characters, with no surrounding spaces' }),
  );

/** Header name to value; names are case-insensitive, so one may not come twice, and none may be one the HTTP client sets itself. */
const headerMap = (options: { refuseSecrets: boolean; description: string }) =>
  z
    .record(headerName, headerValue, {
      error: (issue) =>
        issue.code === 'invalid_key'
          ? `must be a valid HTTP header name (letters, digits and !#$%&'*+.^_\`|~-, at most ${integrationLimits.headerNameLength})`
          : mapTypeError(issue),
    })
    .check(
      entries('headers'),
      z.superRefine((headers, ctx) => {
        const seen = new Set<string>();
        for (const name of Object.keys(headers)) {
          const lower = name.toLowerCase();
          const problem = unsendableHeaders.has(lower)
            ? `"${name}" is a header the HTTP client sets itself`
            : options.refuseSecrets && secretHeaders.has(lower)
              ? `"${name}" carries a secret: keep it in a credential (credentialId), which is sealed and never shown`
              : seen.has(lower) && 'is given twice (header names are case-insensitive)';
          if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem, input: headers });
          seen.add(lower);
        }
      }),
    )
    .register(z.globalRegistry, { description: `${options.description}; at most ${integrationLimits.entries}` });

const baseUrl = z
  .string()
  .check(
    z.minLength(1, { error: 'must not be empty' }),
    z.maxLength(integrationLimits.baseUrlLength, { error: `must be at most ${integrationLimits.baseUrlLength} characters` }),
    z.regex(httpBaseUrlPattern, { error: 'must be an http:// or https:// URL without a user name, password, query or fragment' }),
    z.refine((url) => !httpBaseUrlPattern.test(url) || URL.canParse(url), { error: 'is not a valid URL' }),
  )
  .register(z.globalRegistry, {
    format: 'uri',
    description: 'what step paths are joined to: `https://api.example.com/v1` and `/rates` call `https://api.example.com/v1/rates`',
  });

const credentialId = z
  .string({ error: 'must be the id of a credential of the workspace' })
  .check(
    z.minLength(1, { error: 'must not be empty' }),
    z.maxLength(128, { error: 'must be at most 128 characters' }),
    z.regex(noControlCharacters, { error: 'must not contain control characters' }),
  );

const timeoutError = `must be an integer from 1 to ${integrationLimits.maxTimeoutMs}`;
const timeoutMs = z
  .int({ error: timeoutError })
  .check(z.minimum(1, { error: timeoutError }), z.maximum(integrationLimits.maxTimeoutMs, { error: timeoutError }))
  .register(z.globalRegistry, { description: "milliseconds one call may take, answer read; a step's own timeout may shorten it" });

const description = text(integrationLimits.descriptionLength);

export const createIntegrationSchema = strictBody({
  name: itemName,
  type: z.literal('restApi', { error: 'must be restApi' }),
  baseUrl,
  headers: z._default(
    headerMap({
      refuseSecrets: true,
      description: "sent on every call, under a step's own headers; not Authorization or Cookie: a secret belongs in the credential",
    }),
    {},
  ),
  credentialId: z.optional(z.nullable(credentialId)),
  timeoutMs: z._default(timeoutMs, integrationLimits.defaultTimeoutMs),
  description: z._default(description, ''),
});
export type CreateIntegration = z.output<typeof createIntegrationSchema>;

export const updateIntegrationSchema = strictBody({
  name: z.optional(itemName),
  baseUrl: z.optional(baseUrl),
  headers: z.optional(
    headerMap({
      refuseSecrets: true,
      description: "sent on every call, under a step's own headers; not Authorization or Cookie: a secret belongs in the credential",
    }),
  ),
  /** null detaches the credential. */
  credentialId: z.optional(z.nullable(credentialId)),
  timeoutMs: z.optional(timeoutMs),
  description: z.optional(description),
});
export type UpdateIntegration = z.output<typeof updateIntegrationSchema>;

const queryMap = z
  .record(
    z.string().check(z.minLength(1), z.maxLength(integrationLimits.headerNameLength), z.regex(noControlCharacters)),
    z
      .string({ error: 'must be a string' })
      .check(
        z.maxLength(integrationLimits.valueLength, { error: `must be at most ${integrationLimits.valueLength} characters` }),
        z.regex(noControlCharacters, { error: 'must not contain control characters' }),
      ),
    {
      error: (issue) =>
        issue.code === 'invalid_key'
          ? `must be a name of 1 to ${integrationLimits.headerNameLength} characters without control characters`
          : mapTypeError(issue),
    },
  )
  .check(entries('parameters'))
  .register(z.globalRegistry, { description: `appended to the URL's query, at most ${integrationLimits.entries}` });

export const testIntegrationSchema = strictBody({
  method: z._default(z.enum(callMethods, { error: `must be one of ${callMethods.join(', ')}` }), 'GET'),
  path: z
    .string()
    .check(
      z.maxLength(integrationLimits.pathLength, { error: `must be at most ${integrationLimits.pathLength} characters` }),
      z.regex(/^\/[^\x00-\x20\x7f]*$/, { error: 'must start with "/" and hold no spaces or control characters' }),
    ),
  query: z._default(queryMap, {}),
  headers: z._default(headerMap({ refuseSecrets: false, description: "sent over the integration's headers of the same name" }), {}),
  body: z.optional(
    z
      .unknown()
      .check(
        z.superRefine((value, ctx) => {
          const problem = jsonBoundsProblem(value, integrationLimits.testBody);
          if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
        }),
      )
      .register(z.globalRegistry, {
        description: `sent as JSON (at most ${integrationLimits.testBody.maxBytes} bytes, nested at most ${integrationLimits.testBody.maxDepth} levels)`,
      }),
  ),
});
export type TestIntegration = z.output<typeof testIntegrationSchema>;
