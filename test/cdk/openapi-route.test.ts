/**
 * GET /openapi.json on the deployed API: a route of the table like the
 * others, served by its own function, which needs no table (the route's
 * tableAccess is 'none'): no TABLE_NAME and no DynamoDB permission.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RulesServiceStack, stackId } from '../../cdk/stack.ts';
import { routes } from '../../lib/api/routes.ts';
import { actionsOf, statementsOfRole } from './template-checks.ts';

const cdkContext = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;
const stack = new RulesServiceStack(new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false }), stackId);
const resources = Template.fromStack(stack).toJSON().Resources as Record<string, { Type: string; Properties: any }>;
const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.resolve((construct.node.defaultChild as any).logicalId) as string;

const route = routes.getOpenApi;
const fn = stack.routeFunctions.get(route.operationId)!;

describe('GET /openapi.json', () => {
  it('is a GET method without authorization on the /openapi.json resource, proxied to its own function', () => {
    const resource = Object.entries(resources).find(([, r]) => r.Type === 'AWS::ApiGateway::Resource' && r.Properties.PathPart === 'openapi.json');
    expect(resource).toBeDefined();
    expect(resources[resource![0]]!.Properties.ParentId).toEqual({ 'Fn::GetAtt': [logicalId(stack.api), 'RootResourceId'] });
    const method = Object.values(resources).find(
      (r) => r.Type === 'AWS::ApiGateway::Method' && r.Properties.ResourceId.Ref === resource![0] && r.Properties.HttpMethod === 'GET',
    )!.Properties;
    expect(method).toMatchObject({ OperationName: 'getOpenApi', AuthorizationType: 'NONE', Integration: { Type: 'AWS_PROXY' } });
    expect(JSON.stringify(method.Integration.Uri)).toContain(JSON.stringify({ 'Fn::GetAtt': [logicalId(fn.function), 'Arn'] }));
  });

  it('is served by a function that is given no table: no TABLE_NAME, no DynamoDB permission', () => {
    expect(route.tableAccess).toBe('none');
    expect(Object.keys(resources[logicalId(fn.function)]!.Properties.Environment.Variables)).not.toContain('TABLE_NAME');
    const actions = statementsOfRole(resources, logicalId(fn.role)).flatMap(actionsOf);
    expect(actions.length).toBeGreaterThan(0); // its logs
    expect(actions.filter((action) => action.startsWith('dynamodb:') || action.startsWith('kms:') || action.startsWith('sqs:'))).toEqual([]);
  });
});
