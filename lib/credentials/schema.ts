/**
 * Request bodies of the credential operations (zod/mini, as in every API
 * function). A value is checked for what would corrupt a request, and no
 * message ever repeats it.
 */
import * as z from 'zod/mini';
import { strictBody } from '../http/queries.ts';
import { controlCharacters as cc, httpUrlPattern, noControlCharacters } from '../vocabulary/patterns.ts';
import { credentialPlacements } from '../store/types.ts';
import { headerNamePattern } from './placement.ts';
import { hostPattern, hostPatternLimits } from '../outbound/hosts.ts';

/** No surrounding whitespace, no control characters. */
const trimmedTextPattern = new RegExp(`^[^\\s${cc}]([^${cc}]*[^\\s${cc}])?$`);
/** No surrounding whitespace, no control characters or line breaks (U+2028 and U+2029, which \s holds at the ends). */
const cleanValuePattern = new RegExp(`^[^\\s${cc}]([^${cc}\\u2028\\u2029]*[^\\s${cc}])?$`);

export const text = (max: number) =>
  z
    .string()
    .check(z.maxLength(max, { error: `must be at most ${max} characters` }), z.regex(noControlCharacters, { error: 'must not contain control characters' }));

/** The name of a credential or an integration: unique in the workspace, shown in lists. */
export const itemName = z
  .string()
  .check(
    z.minLength(1, { error: 'must not be empty' }),
    z.maxLength(100, { error: 'must be at most 100 characters' }),
    z.regex(trimmedTextPattern, { error: 'must not start or end with whitespace or contain control characters' }),
  );
const key = z
  .string()
  .check(
    z.minLength(1, { error: 'must not be empty' }),
    z.maxLength(256, { error: 'must be at most 256 characters' }),
    z.regex(noControlCharacters, { error: 'must not contain control characters' }),
  );
const value = z
  .string()
  .check(
    z.minLength(1, { error: 'must not be empty' }),
    z.maxLength(4096, { error: 'must be at most 4096 characters' }),
    z.regex(cleanValuePattern, { error: 'must hold no surrounding whitespace, control characters or line breaks' }),
  );
const placement = z.enum(credentialPlacements, { error: 'must be header or query' });

const hostPatternForm = 'a host name (api.example.com), *. and a domain (*.example.com), or a bracketed IPv6 address, with an optional :port';

/** The hosts a credential may be sent to: `api.example.com`, `*.example.com`, with an optional port (`127.0.0.1:3002`); read in lower case. */
const allowedHosts = z
  .array(
    z.string({ error: `must be ${hostPatternForm}` }).check(
      z.maxLength(hostPatternLimits.maxLength, { error: `must be at most ${hostPatternLimits.maxLength} characters` }),
      z.refine((pattern) => hostPattern.test(pattern.toLowerCase()), { error: `must be ${hostPatternForm}` }),
    ),
    {
      error: (issue) =>
        issue.input === undefined
          ? `is required: the hosts the key may be sent to, each ${hostPatternForm}`
          : `must be a list of hosts, each ${hostPatternForm}`,
    },
  )
  .check(
    z.minLength(1, { error: 'must name at least one host' }),
    z.maxLength(hostPatternLimits.maxPatterns, { error: `must name at most ${hostPatternLimits.maxPatterns} hosts` }),
  );

export const createCredentialSchema = strictBody({
  name: itemName,
  type: z.literal('apiKey', { error: 'must be apiKey' }),
  key,
  value,
  placement: z._default(placement, 'header'),
  description: z._default(text(500), ''),
  /** Where the key may go: a call to any other host is refused before a byte is sent. Required: a credential is never made unbound. */
  allowedHosts,
});
export type CreateCredential = z.output<typeof createCredentialSchema>;

export const updateCredentialSchema = strictBody({
  name: z.optional(itemName),
  key: z.optional(key),
  value: z.optional(value),
  placement: z.optional(placement),
  description: z.optional(text(500)),
  allowedHosts: z.optional(allowedHosts),
});
export type UpdateCredential = z.output<typeof updateCredentialSchema>;

const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

export const testCredentialSchema = strictBody({
  url: z
    .string()
    .check(
      z.minLength(1, { error: 'must not be empty' }),
      z.maxLength(4096, { error: 'must be at most 4096 characters' }),
      z.regex(httpUrlPattern, { error: 'must be an http:// or https:// URL without a user name or password' }),
    )
    .register(z.globalRegistry, { format: 'uri' }),
  method: z._default(z.enum(httpMethods, { error: `must be one of ${httpMethods.join(', ')}` }), 'GET'),
  headers: z.optional(z.record(z.string().check(z.regex(headerNamePattern, { error: 'must be a valid header name' })), text(8192))),
  body: z.optional(z.unknown()),
});
export type TestCredential = z.output<typeof testCredentialSchema>;
