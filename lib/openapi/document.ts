/** The OpenAPI 3.1 document, written from the route table and the zod schemas that validate requests. */
import { z } from 'zod';
import { safeParse } from 'zod/v4/core';
import { entityIdSchema, entityTypes } from '../entities/schema.ts';
import { routeList, type Route } from '../http/routes.ts';
import { responses } from './responses.ts';
import { gatewayResponses, methodNotAllowed } from '../http/gateway-responses.ts';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const envelope = (data: z.ZodType) =>
  z.object({
    code: z.string().describe('empty on success; an error code on failure'),
    data,
    message: z.string().describe('empty on success; what went wrong on failure'),
    pageNo: z.number().int().describe('current page; 0 when not paginated'),
    pageSize: z.number().int().describe('items per page; 0 when not paginated'),
    totalCount: z.number().int().describe('matching items; 0 when not paginated'),
    totalPages: z.number().int().describe('pages; 0 when not paginated'),
  });

const failure = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
});

const pathParameterSchemas: Record<string, z.ZodType> = { entityType: z.enum(entityTypes), entityId: entityIdSchema, credentialId: z.string(), taskId: z.string() };

const headerParameter = (name: string, required: boolean, description: string) => ({
  name,
  in: 'header',
  required,
  description,
  schema: { type: 'string' },
});

function operation(route: Route) {
  const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: jsonSchema(pathParameterSchemas[name!] ?? z.string(), 'input'),
  }));
  const queryParameters = Object.entries(route.query.shape).map(([name, schema]) => {
    const { description, ...rest } = jsonSchema(schema as z.ZodType, 'input');
    return { name, in: 'query', required: !safeParse(schema, undefined).success, description, schema: rest };
  });
  const response: { data: z.ZodType; created?: boolean } = responses[route.operationId as keyof typeof responses];
  const success = {
    description: 'success',
    headers: { 'x-request-id': { schema: { type: 'string' } } },
    content: { 'application/json': { schema: jsonSchema(envelope(response.data), 'output') } },
  };
  const branch =
    route.branch === 'none'
      ? []
      : [headerParameter('Service-Branch', route.branch === 'required', route.branch === 'required' ? 'branch name' : "branch name; the workspace's default branch when absent")];
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.deprecated && { deprecated: true }),
    parameters: [...pathParameters, ...branch, ...queryParameters],
    ...(route.body && {
      requestBody: {
        required: !safeParse(route.body, undefined).success,
        content: { 'application/json': { schema: jsonSchema(route.body as unknown as z.ZodType, 'input') } },
      },
    }),
    responses: {
      200: success,
      ...(response.created && { 201: { ...success, description: 'created' } }),
      400: failure('invalid_request, invalid_branch, branch_not_found, branch_required or remote_not_configured; data holds field details for invalid_request (the pull: data {})'),
      401: failure('service_api_key_empty, service_api_key_invalid or service_api_key_expired; data is null'),
      404: failure('not found: route_not_found, entity_type_not_found, entity_not_found, version_not_found, credential_not_found, task_not_found or remote_not_configured'),
      405: failure(methodNotAllowed.message),
      409: failure('conflict: credential_name_taken or credential_revoked'),
      429: failure(gatewayResponses.THROTTLED!.message),
      500: failure('internal_error: retry after a delay, backing off exponentially'),
    },
  };
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routeList) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rule and workflow management API',
      version: '1.0.0',
      description: 'Rules and workflows of workspace branches. Every response is the envelope; the /dev paths are kept for compatibility, /dev/v1 replaces them.',
    },
    security: [{ serviceApiKey: [] }],
    paths,
    components: {
      securitySchemes: { serviceApiKey: { type: 'apiKey', in: 'header', name: 'Service-API-Key' } },
      schemas: { ErrorEnvelope: jsonSchema(envelope(z.unknown()), 'output') },
    },
  };
}
