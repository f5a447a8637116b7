/**
 * The committed OpenAPI document as other tools read it: valid OpenAPI 3.1,
 * patterns in the portable dialect, every operation described, tagged and
 * answering every status the stack can give, with the error codes its
 * function raises.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { stageName } from '../../lib/deployment/names.ts';
import { httpBaseUrlPattern, httpUrlPattern } from '../../lib/vocabulary/patterns.ts';
import { routeList } from '../../lib/api/routes.ts';
import committed from '../../lib/openapi/openapi.json' with { type: 'json' };
import { remoteUrlPattern } from '../../lib/remote/remote-url.ts';

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security?: unknown[];
  parameters: { name: string; in: string; schema: Record<string, unknown> }[];
  requestBody?: { content: { 'application/json': { schema: { properties: Record<string, Record<string, unknown>> } } } };
  responses: Record<
    string,
    { $ref?: string; content?: { 'application/json': { schema: { allOf: [unknown, { properties: { code: { enum: string[] } } }] } } } }
  >;
}

const document = committed as unknown as {
  servers: { url: string; variables?: Record<string, { default: string }> }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    responses: Record<string, { content: { 'application/json': { schema: { allOf: [unknown, { properties: { code: { enum: string[] } } }] } } } }>;
  };
};
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
);
const operation = (operationId: string) => operations.find((o) => o.operation.operationId === operationId)!.operation;

/** The error codes a status of an operation lists, following a $ref to the gateway's answers. */
function codes(operationId: string, status: number): string[] | undefined {
  const response = operation(operationId).responses[status];
  if (!response) return undefined;
  const resolved = response.$ref ? document.components.responses[response.$ref.split('/').pop()!]! : response;
  return resolved.content!['application/json'].schema.allOf[1].properties.code.enum;
}

describe('the document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(committed));
    expect(result).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
  });

  it('has one operation per route', () => {
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path} ${o.operation.operationId}`).sort()).toEqual(
      routeList.map((r) => `${r.method} ${r.path} ${r.operationId}`).sort(),
    );
  });

  it('names the deployed stage URL and the local runtime as servers', () => {
    expect(document.servers.map((s) => s.url)).toEqual([`https://{apiId}.execute-api.{region}.amazonaws.com/${stageName}`, 'http://127.0.0.1:{port}']);
    expect(document.servers[1]!.variables!.port!.default).toBe('3000');
  });

  it('describes and tags every operation, each tag once at the top', () => {
    const tags = document.tags.map((t) => t.name);
    expect(tags).toEqual([
      'Rules and workflows',
      'Import and export',
      'Workspace',
      'Credentials',
      'Integrations',
      'Remote pull, push and tasks',
      'Change requests',
      'Audit',
      'Contract',
    ]);
    for (const { operation } of operations) {
      expect(operation.summary, operation.operationId).toMatch(/\S/);
      expect(operation.description.length, operation.operationId).toBeGreaterThan(operation.summary.length);
      expect(operation.tags, operation.operationId).toHaveLength(1);
      expect(tags).toContain(operation.tags[0]);
    }
    for (const tag of document.tags) expect(tag.description).toMatch(/\S/);
  });
});

describe('patterns', () => {
  const patterns: { at: string; pattern: string }[] = [];
  const walk = (node: unknown, at: string) => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') patterns.push({ at, pattern: value });
      else walk(value, `${at}/${key}`);
    }
  };
  walk(committed, '#');

  /** The constructs some dialects lack: Unicode property classes, lookarounds, backreferences, named groups, \u{…}. */
  function unportable(pattern: string): string[] {
    const found: string[] = [];
    for (let i = 0; i < pattern.length; i++) {
      const rest = pattern.slice(i);
      if (rest[0] === '\\') {
        const escape = rest.slice(0, 2);
        if (/^\\[pP]$/.test(escape)) found.push(`${escape}{…} class`);
        else if (/^\\[1-9]$/.test(escape)) found.push(`backreference ${escape}`);
        else if (escape === '\\k') found.push('named backreference');
        else if (rest.startsWith('\\u{')) found.push('\\u{…} escape');
        i++; // the escaped character is not syntax
      } else if (/^\(\?(=|!|<=|<!)/.test(rest)) found.push('lookaround');
      else if (/^\(\?<[A-Za-z_$]/.test(rest)) found.push('named group');
    }
    return found;
  }

  it('finds the patterns', () => {
    expect(patterns.length).toBeGreaterThan(10);
  });

  it('compile with and without the u flag and use only portable constructs', () => {
    for (const { at, pattern } of patterns) {
      expect(() => new RegExp(pattern), at).not.toThrow();
      expect(() => new RegExp(pattern, 'u'), at).not.toThrow();
      expect(unportable(pattern), `${at}: ${pattern}`).toEqual([]);
    }
  });

  it('are told apart from unportable ones', () => {
    expect(unportable('^[^\\p{Cc}]*$')).toEqual(['\\p{…} class']);
    expect(unportable('^(?!HEAD$).+(?<=x)$')).toEqual(['lookaround', 'lookaround']);
    expect(unportable('^(a)\\1(?<n>b)\\k<n>$')).toEqual(['backreference \\1', 'named group', 'named backreference']);
    expect(unportable('^\\\\1[\\(?=]\\u{41}$')).toEqual(['\\u{…} escape']);
  });

  it('are the ones the server checks URLs with', () => {
    const body = (operationId: string) => operation(operationId).requestBody!.content['application/json'].schema.properties;
    expect(body('testCredential').url).toMatchObject({ pattern: httpUrlPattern.source, format: 'uri', maxLength: 4096 });
    expect(body('putRemote').url).toMatchObject({ pattern: remoteUrlPattern.source, format: 'uri', maxLength: 2048 });
    expect(body('createIntegration').baseUrl).toMatchObject({ pattern: httpBaseUrlPattern.source, format: 'uri', maxLength: 2000 });
  });
});

describe('responses', () => {
  const gatewayStatuses = [405, 413, 429, 502, 504];

  it('list every status the stack can answer, for every operation', () => {
    for (const { path, operation } of operations) {
      const statuses = Object.keys(operation.responses).map(Number);
      // 200, or 202 alone for an operation that always queues (pushRemote).
      for (const status of [statuses.includes(202) && !statuses.includes(200) ? 202 : 200, 400, 500, ...gatewayStatuses])
        expect(statuses, `${operation.operationId} ${status}`).toContain(status);
      expect(statuses.includes(401), operation.operationId).toBe(operation.security === undefined);
      if (path.includes('{')) expect(statuses, operation.operationId).toContain(404);
    }
  });

  it("list the gateway's own answers by reference, with their codes", () => {
    // The import (a file past its bound), execute and test (a batch's answer past its bound) answer 413 themselves too: that status lists both.
    const ownToo = (operationId: string, status: number) => ['importRules', 'executeEntity', 'testEntity'].includes(operationId) && status === 413;
    for (const { operation } of operations)
      for (const status of gatewayStatuses)
        if (!ownToo(operation.operationId, status)) expect(operation.responses[status]!.$ref).toBe(`#/components/responses/Gateway${status}`);
    expect(codes('getEntity', 413)).toEqual(['payload_too_large']);
    expect(codes('importRules', 413)).toEqual(['file_too_large', 'payload_too_large']);
    expect(codes('executeEntity', 413)).toEqual(['answer_too_large', 'payload_too_large']);
    expect(codes('getEntity', 429)).toEqual(['too_many_requests', 'quota_exceeded']);
    expect(codes('getEntity', 504)).toEqual(['timeout']);
    expect(document.components.responses.Gateway404!.content['application/json'].schema.allOf[1].properties.code.enum).toEqual(['route_not_found']);
  });

  it('list the error codes each function raises, found in its code', () => {
    expect(codes('getEntity', 404)).toEqual(['entity_not_found', 'entity_type_not_found', 'version_not_found']);
    expect(codes('listEntities', 404)).toEqual(['entity_type_not_found']);
    expect(codes('listEntities', 400)).toEqual(['bad_request', 'branch_not_found', 'invalid_branch', 'invalid_request']);
    expect(codes('createCredential', 409)).toEqual(['credential_busy', 'credential_name_taken']);
    expect(codes('updateCredential', 409)).toEqual(['credential_busy', 'credential_name_taken', 'credential_revoked', 'write_conflict']);
    // Opening a credential made before hosts were required writes its hosts, on the revision read (lib/credentials/legacy-hosts.ts).
    expect(codes('testCredential', 409)).toEqual(['credential_revoked', 'write_conflict']);
    expect(codes('createIntegration', 404)).toEqual(['credential_not_found']);
    expect(codes('createIntegration', 409)).toEqual(['credential_revoked', 'integration_busy', 'integration_name_taken']);
    expect(codes('testIntegration', 404)).toEqual(['credential_not_found', 'integration_not_found']);
    expect(codes('deleteIntegration', 404)).toEqual(['integration_not_found']);
    expect(codes('getCredential', 409)).toBeUndefined();
    expect(codes('listCredentials', 404)).toBeUndefined();
    expect(codes('getCredential', 400)).toEqual(['bad_request', 'invalid_request']);
    expect(codes('pullRemoteV1', 400)).toEqual([
      'bad_request',
      'branch_not_found',
      'branch_required',
      'invalid_branch',
      'invalid_request',
      'remote_not_configured',
    ]);
    expect(codes('getRemote', 404)).toEqual(['remote_not_configured']);
    expect(codes('getTask', 404)).toEqual(['task_not_found']);
    expect(codes('getTask', 401)).toEqual([
      'bearer_not_accepted',
      'service_api_key_empty',
      'service_api_key_expired',
      'service_api_key_invalid',
      'token_algorithm_refused',
      'token_audience_invalid',
      'token_expired',
      'token_issuer_invalid',
      'token_malformed',
      'token_not_yet_valid',
      'token_signature_invalid',
    ]);
    expect(codes('getTask', 500)).toEqual(['internal_error']);
  });

  it('list the engine failures where rules run, from the engine code they reach, with their details', () => {
    expect(codes('executeEntity', 422)).toEqual(['evaluation_failed']);
    expect(codes('executeEntity', 409)).toEqual(
      expect.arrayContaining(['rule_not_prepared', 'rule_not_published', 'rule_reference_cycle', 'rule_reference_limit', 'rule_reference_not_found']),
    );
    expect(codes('testEntity', 409)).toContain('checksum_mismatch');
    // The workflow code a run function loads on first use is followed too.
    expect(codes('executeEntity', 409)).toEqual(expect.arrayContaining(['workflow_not_prepared', 'workflow_not_published']));
    expect(codes('testEntity', 409)).toEqual(expect.arrayContaining(['workflow_invalid', 'workflow_not_published']));
    expect(codes('testWorkflowStep', 404)).toContain('step_not_found');
    expect(codes('publishEntity', 409)).toEqual(
      expect.arrayContaining(['checksum_mismatch', 'publish_refused', 'rule_reference_cycle', 'rule_reference_not_found', 'tests_failed']),
    );
    expect(codes('createEntity', 409)).toEqual(['entity_exists', 'write_conflict']);
    expect(codes('updateEntity', 409)).toEqual(['checksum_mismatch', 'write_conflict']);
    // A write that keeps losing its race is answered where writes retry, and only there.
    for (const operationId of ['getCredential', 'listCredentials', 'getEntity', 'listExecutions'])
      expect(codes(operationId, 409) ?? [], operationId).not.toContain('write_conflict');
    // Operations that run no rule never answer an engine failure.
    for (const operationId of ['listEntities', 'getEntity', 'createEntity', 'updateEntity', 'deleteEntity', 'listExecutions', 'getTask'])
      expect(codes(operationId, 422), operationId).toBeUndefined();
    const publish409 = JSON.stringify(operation('publishEntity').responses[409]);
    expect(publish409).toContain('#/components/schemas/PathProblems');
    expect(publish409).toContain('#/components/schemas/FailedCases');
  });

  it('name the entity types each entity operation serves', () => {
    const entityTypeOf = (operationId: string) => operation(operationId).parameters.find((p) => p.name === 'entityType')!.schema;
    for (const operationId of ['testEntity', 'executeEntity', 'listExecutions'])
      expect(entityTypeOf(operationId), operationId).toMatchObject({ enum: ['rule', 'workflow'] });
    expect(entityTypeOf('testWorkflowStep')).toMatchObject({ enum: ['workflow'] });
    for (const operationId of ['getEntity', 'createEntity', 'publishEntity', 'deleteEntity'])
      expect(entityTypeOf(operationId), operationId).toMatchObject({ enum: ['rule', 'workflow'] });
  });

  it('serve the document without a key, and say where /dev/v1 is strict', () => {
    expect(operation('getOpenApi').security).toEqual([]);
    expect(codes('getOpenApi', 401)).toBeUndefined();
    for (const { path, operation } of operations.filter((o) => o.operation.responses[400]!.$ref === undefined))
      expect((operation.responses[400] as { description: string }).description.includes('unknown query parameter or body field'), operation.operationId).toBe(
        path.startsWith('/dev/v1/'),
      );
  });
});
