import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { alarmEmailContextKey, alarmEmailOf } from '../../cdk/alarm-notifications.ts';
import { RulesServiceStack, outputNames, stackId } from '../../cdk/stack.ts';
import { defaultLimits } from '../../cdk/limits.ts';
import { serverErrorAlarmThreshold } from '../../cdk/rest-api.ts';
import { ServiceFunction } from '../../cdk/service-function.ts';
import { InlinePolicyRole, inlinePoliciesLimit } from '../../cdk/inline-policy-role.ts';
import { failureEnvelope, requestIdHeader } from '../../lib/http/envelope.ts';
import { gatewayResponses, methodNotAllowed } from '../../lib/http/gateway-responses.ts';
import { routeList } from '../../lib/api/routes.ts';
import type { Route } from '../../lib/http/route.ts';
import { allIndexes, tableDefinition } from '../../lib/store/table.ts';
import { taskTimes } from '../../lib/tasks/delivery.ts';
import { actionsOf, statementsOfRole, type Resources } from './template-checks.ts';

/** The feature flags of cdk.json, so the tests build what `cdk synth` builds. */
const cdkContext = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

/** An app that skips bundling and the (slow) built-in CloudFormation validation; `context` adds to cdk.json's (e.g. alarmEmail). */
const fastApp = (context: Record<string, unknown> = {}) =>
  new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context }, builtinCloudFormationValidation: false });

const stack = new RulesServiceStack(fastApp(), stackId);
const template = Template.fromStack(stack);
const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: any; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;

const logicalId = (construct: IConstruct) => stack.resolve((construct.node.defaultChild as any).logicalId) as string;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const onlyOfType = (type: string) => {
  const found = ofType(type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const tableId = logicalId(stack.table);
const keyId = logicalId(stack.credentialsKey);
const topicId = logicalId(stack.alarms.topic);
const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
/** Each index by name: no `index/*`. */
const indexArns = allIndexes.map((index) => ({ 'Fn::Join': ['', [tableArn, `/index/${index.name}`]] }));

/** Full path (`/dev/v1/{entityType}`) of every API Gateway resource, by logical id. */
const resourcePaths = (() => {
  const rootId = logicalId(stack.api);
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const props = resources[id]!.Properties;
    const parent = props.ParentId['Fn::GetAtt']?.[0] === rootId ? '' : pathOf(props.ParentId.Ref);
    const path = `${parent}/${props.PathPart}`;
    paths.set(id, path);
    return path;
  };
  for (const [id] of ofType('AWS::ApiGateway::Resource')) pathOf(id);
  return paths;
})();
const resourceIdFor = (path: string) => [...resourcePaths].find(([, p]) => p === path)?.[0];
const methodsOn = (path: string) =>
  ofType('AWS::ApiGateway::Method')
    .map(([, m]) => m.Properties)
    .filter((m) => m.ResourceId.Ref === resourceIdFor(path));

const routePaths = [...new Set(routeList.map((route) => route.path))];
const envelopeOf = (template: string) => JSON.parse(template);

/**
 * Every IAM statement that applies to a role: its inline policy's (a function's, cdk/inline-policy-role.ts), its default policy's, and
 * those CDK moves into an overflow managed policy when one grows past IAM's size limit (the API's invoke role).
 */
const statementsOf = (roleId: string, policies: Resources = resources) => statementsOfRole(policies, roleId);
const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

const functionOf = (route: Route) => stack.routeFunctions.get(route.operationId)!;

describe('functions', () => {
  it('has one Node.js 22 arm64 function per route', () => {
    // One per route, plus the task worker and sweeper, the scheduled-run function, and the console's deployment handler.
    template.resourceCountIs('AWS::Lambda::Function', routeList.length + 4);
    for (const route of routeList) {
      const fn = functionOf(route);
      expect(fn, route.operationId).toBeDefined();
      const props = resources[logicalId(fn.function)]!.Properties;
      expect(props).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: 256,
        Timeout: route.outbound ? 29 : 10,
        Role: { 'Fn::GetAtt': [logicalId(fn.role), 'Arn'] },
        LoggingConfig: { LogGroup: { Ref: logicalId(fn.logGroup) } },
      });
      expect(props.Environment.Variables).toEqual({
        ...(route.tableAccess !== 'none' && { TABLE_NAME: { Ref: tableId }, AUDIT_RETENTION_DAYS: '400' }),
        POWERTOOLS_SERVICE_NAME: 'rules-service',
        // Who people sign in with (test/cdk/sign-in.test.ts).
        ...stack.resolve(stack.signIn.environment),
        // The key's ARN, never a secret: only the functions that seal or open values get it.
        ...(route.keyAccess && { CREDENTIALS_KMS_KEY_ID: { 'Fn::GetAtt': [keyId, 'Arn'] } }),
        ...(route.queueAccess && { TASK_QUEUE_URL: { Ref: logicalId(stack.tasks.queue) } }),
        // The schedules' target, the role Scheduler assumes and the dead-letter queue (test/cdk/schedules.test.ts).
        ...(route.schedulerAccess && stack.resolve(stack.schedules.environment)),
      });
      expect(resources[logicalId(fn.logGroup)]!.Properties.RetentionInDays).toBeGreaterThan(0);
    }
  });

  it("grants a 'read' route read access to the table and its indexes only", () => {
    const readRoutes = routeList.filter((route) => route.tableAccess === 'read');
    expect(readRoutes.length).toBeGreaterThan(0);
    for (const route of readRoutes) {
      const fn = functionOf(route);
      const statements = statementsOf(logicalId(fn.role));
      expect(statements.every((s) => s.Effect === 'Allow')).toBe(true);
      const logs = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('logs:')));
      const dynamo = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
      const kms = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('kms:')));
      const xray = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('xray:')));
      expect(logs.length + dynamo.length + kms.length + xray.length).toBe(statements.length);
      expect(kms.length > 0, route.operationId).toBe(route.keyAccess !== undefined);
      // Logs: only its own log group.
      for (const s of logs) {
        expect(actionsOf(s).sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
        expect(s.Resource).toEqual({ 'Fn::GetAtt': [logicalId(fn.logGroup), 'Arn'] });
      }
      // The one write: a refusal's audit record, put on the audit partitions only (lib/http/endpoint.ts).
      const audit = dynamo.filter((s) => s.Condition);
      expect(audit, route.operationId).toEqual([
        expect.objectContaining({
          Action: 'dynamodb:PutItem',
          Resource: tableArn,
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['AUDIT:*'] } },
        }),
      ]);
      // DynamoDB otherwise: reads only, on the table and its indexes only.
      const actions = dynamo.filter((s) => !s.Condition).flatMap(actionsOf);
      expect(actions).toContain('dynamodb:Query');
      expect(actions).toContain('dynamodb:GetItem');
      for (const write of writeActions) expect(actions, route.operationId).not.toContain(write);
      expect(actions.some((a) => a.includes('*'))).toBe(false);
      for (const s of dynamo) for (const resource of [s.Resource].flat()) expect([tableArn, ...indexArns]).toContainEqual(resource);
    }
  });

  it("holds each role's grants inline, with no IAM policy resource of its own, far from IAM's size limit for a role's inline policies", () => {
    const roles = stack.node.findAll().filter((construct) => construct instanceof InlinePolicyRole);
    // Every function's (one per route, the task worker and sweeper, the scheduled-run function, the console's deployment) and Scheduler's.
    expect(roles).toHaveLength(routeList.length + 5);
    for (const role of roles) {
      expect(resources[logicalId(role)]!.Properties.Policies.map((policy: { PolicyName: string }) => policy.PolicyName)).toEqual([InlinePolicyRole.policyName]);
      // The largest (the schedule functions') is about a quarter of it: room for more grants.
      expect(role.estimatedPolicySize(), role.node.path).toBeLessThan(inlinePoliciesLimit / 2);
    }
    // The one policy resource left: CDK's default policy of the API's invoke role, whose grants on every route's function CDK estimates
    // past that size, so that it moves part of them into an overflow managed policy (read with the rest: statementsOf).
    expect(ofType('AWS::IAM::Policy').flatMap(([, policy]) => policy.Properties.Roles)).toEqual([{ Ref: logicalId(stack.api.node.findChild('InvokeRole')) }]);
  });

  it('keeps a rotating, retained KMS key and grants each function exactly its use of it', () => {
    template.hasResource('AWS::KMS::Key', { Properties: { EnableKeyRotation: true }, DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    const expected = { encrypt: ['kms:GenerateDataKey'], decrypt: ['kms:Decrypt'], encryptDecrypt: ['kms:Decrypt', 'kms:GenerateDataKey'] };
    for (const route of routeList) {
      const fn = functionOf(route);
      const kms = statementsOf(logicalId(fn.role)).filter((s) => actionsOf(s).some((a) => a.startsWith('kms:')));
      expect(kms.flatMap(actionsOf).sort(), route.operationId).toEqual(route.keyAccess ? expected[route.keyAccess] : []);
      for (const s of kms) expect(s.Resource).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    }
  });

  it('queues tasks with a dead-letter queue, alarms, a worker that outlives no visibility timeout, and a scheduled sweeper', () => {
    const queue = resources[logicalId(stack.tasks.queue)]!.Properties;
    const worker = resources[logicalId(stack.tasks.worker.function)]!.Properties;
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(stack.tasks.deadLetters), 'Arn'] }, maxReceiveCount: 3 });
    expect(queue.VisibilityTimeout).toBeGreaterThan(worker.Timeout);
    expect(worker.Environment.Variables).toMatchObject({ MAX_RECEIVE_COUNT: '3', TASK_RETRY_BASE_SECONDS: '5', TABLE_NAME: { Ref: tableId } });
    // The time limit the worker function reckons its lease and workflow runs from (lib/tasks/delivery.ts) is the one it is deployed with.
    expect(worker.Timeout * 1000).toBe(taskTimes.workerTimeoutMs);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(stack.tasks.worker.function) },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.tasks.queue), 'Arn'] },
      BatchSize: 1,
      ScalingConfig: { MaximumConcurrency: 10 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, r]) => r.Properties);
    expect(alarms.map((a) => a.Dimensions[0].Value)).toEqual(
      expect.arrayContaining([
        { 'Fn::GetAtt': [logicalId(stack.tasks.queue), 'QueueName'] },
        { 'Fn::GetAtt': [logicalId(stack.tasks.deadLetters), 'QueueName'] },
      ]),
    );
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId(stack.tasks.sweeper.function), 'Arn'] } })],
    });
    // Only the routes that queue tasks (the pull and push, an asynchronous execute, a replay) may send to the queue.
    for (const route of routeList) {
      const sends = statementsOf(logicalId(functionOf(route).role))
        .flatMap(actionsOf)
        .includes('sqs:SendMessage');
      expect(sends, route.operationId).toBe(route.queueAccess === 'send');
    }
    // The worker sends to its own queue: a replay's first message sends one message per shard (lib/replay/run.ts).
    const workerSends = statementsOf(logicalId(stack.tasks.worker.role)).filter((s) => actionsOf(s).includes('sqs:SendMessage'));
    expect(workerSends.map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [logicalId(stack.tasks.queue), 'Arn'] }]);
  });

  it('keeps the logical ids the task queue and its dead-letter queue had in lib/remote, and the worker reads that queue', () => {
    // A queue whose logical id changes is replaced on deploy, losing the messages in flight (./stateful-ids.test.ts pins every stateful id).
    const [queueId, deadLettersId] = ['PullTasksE90C76A6', 'PullDeadLetters5C984CB4'];
    expect([logicalId(stack.tasks.queue), logicalId(stack.tasks.deadLetters)]).toEqual([queueId, deadLettersId]);
    expect(resources[queueId]!.Properties.RedrivePolicy.deadLetterTargetArn).toEqual({ 'Fn::GetAtt': [deadLettersId, 'Arn'] });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(stack.tasks.worker.function) },
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
    });
  });

  it('grants writes to the functions that write and to no other: authoring, executions recorded by execute, credentials bound at their first use', () => {
    // Unconditioned: a read route may put its refusals' audit records, and nothing else (above).
    const writers = routeList
      .filter((route) =>
        statementsOf(logicalId(functionOf(route).role))
          .filter((s) => !s.Condition)
          .flatMap(actionsOf)
          .includes('dynamodb:PutItem'),
      )
      .map((r) => r.operationId);
    expect(writers).toEqual(expect.arrayContaining(['createEntity', 'updateEntity', 'publishEntity', 'deleteEntity', 'executeEntity']));
    // Opening a credential made before hosts were required stores the hosts it is bound to (lib/credentials/legacy-hosts.ts).
    expect(writers).toEqual(expect.arrayContaining(routeList.filter((route) => route.keyAccess === 'decrypt').map((r) => r.operationId)));
    for (const operationId of ['listExecutions', 'getEntity', 'listEntities', 'getCredential', 'listCredentials'])
      expect(writers, operationId).not.toContain(operationId);
    expect(writers.sort()).toEqual(
      routeList
        .filter((route) => route.tableAccess === 'readWrite')
        .map((r) => r.operationId)
        .sort(),
    );
  });

  it('keeps audit records for the retention the deployer sets (context auditRetentionDays), 400 days unless told, and refuses one that is no whole number of days', () => {
    const kept = new RulesServiceStack(fastApp({ auditRetentionDays: '30' }), stackId);
    expect(kept.auditRetentionDays).toBe(30);
    // Every function that writes an audit record: the route functions (writes and refusals) and the task worker (a pull's writes).
    const keptResources = Template.fromStack(kept).toJSON().Resources as Record<string, { Properties: any }>;
    const writers = [
      ...routeList.filter((route) => route.tableAccess !== 'none').map((route) => kept.routeFunctions.get(route.operationId)!),
      kept.tasks.worker,
    ];
    for (const fn of writers)
      expect(keptResources[kept.resolve((fn.function.node.defaultChild as any).logicalId)]!.Properties.Environment.Variables.AUDIT_RETENTION_DAYS).toBe('30');
    expect(stack.auditRetentionDays).toBe(400);
    expect(() => new RulesServiceStack(fastApp({ auditRetentionDays: 'forever' }), stackId)).toThrow(/auditRetentionDays must be a whole number/);
  });

  it("grants 'readWrite' write actions too (the helper later functions use)", () => {
    const other = new RulesServiceStack(fastApp(), stackId);
    // A function the stack has already: one more would take it past CloudFormation's 500 resources a stack.
    const writer = other.routeFunctions.get('getEntity')!;
    other.grantTable(writer, 'readWrite');
    const otherResources = Template.fromStack(other).toJSON().Resources;
    const roleId = other.resolve((writer.role.node.defaultChild as any).logicalId);
    const actions = statementsOf(roleId, otherResources).flatMap(actionsOf);
    for (const action of [...writeActions, 'dynamodb:Query']) expect(actions).toContain(action);
  });
});

describe('API', () => {
  it('has every route as a Lambda proxy method on its path', () => {
    for (const route of routeList) {
      const resourceId = resourceIdFor(route.path);
      expect(resourceId, route.path).toBeDefined();
      const method = methodsOn(route.path).find((m) => m.HttpMethod === route.method);
      expect(method, `${route.method} ${route.path}`).toBeDefined();
      expect(method).toMatchObject({
        OperationName: route.operationId,
        AuthorizationType: 'NONE',
        Integration: { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' },
      });
      // The integration invokes the route's own function.
      expect(JSON.stringify(method.Integration.Uri)).toContain(JSON.stringify({ 'Fn::GetAtt': [logicalId(functionOf(route).function), 'Arn'] }));
    }
  });

  it("invokes the routes' functions with one role that this API alone may assume and that may invoke those functions only", () => {
    const [roleId, role] = ofType('AWS::IAM::Role').find(
      ([, r]) =>
        r.Properties.AssumeRolePolicyDocument.Statement[0].Principal.Service === 'apigateway.amazonaws.com' && r.Properties.Description?.includes('routes'),
    )!;
    const trust = role.Properties.AssumeRolePolicyDocument.Statement[0];
    expect(Object.keys(trust.Condition).sort()).toEqual(['ArnLike', 'StringEquals']);
    expect(JSON.stringify(trust.Condition.ArnLike['aws:SourceArn'])).toContain(logicalId(stack.api));
    const methods = ofType('AWS::ApiGateway::Method').filter(([, m]) => m.Properties.Integration.Type === 'AWS_PROXY');
    expect(methods.every(([, m]) => m.Properties.Integration.Credentials['Fn::GetAtt'][0] === roleId)).toBe(true);
    const invoked = statementsOf(roleId).flatMap((s) => [s.Resource].flat());
    expect(statementsOf(roleId).every((s) => s.Action === 'lambda:InvokeFunction' && s.Effect === 'Allow')).toBe(true);
    expect(new Set(invoked.map((arn) => JSON.stringify(arn)))).toEqual(
      new Set(routeList.map((route) => JSON.stringify({ 'Fn::GetAtt': [logicalId(functionOf(route).function), 'Arn'] }))),
    );
    // No function takes a resource policy for the API: each would be a resource of the stack, and a stack holds 500 at most.
    expect(ofType('AWS::Lambda::Permission').filter(([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com')).toEqual([]);
  });

  it('stays well within the 500 resources a CloudFormation stack holds, with room for more routes', () => {
    // 417 resources: a function's role holds its grants inline (cdk/inline-policy-role.ts; with a default policy each, 486). A route
    // costs 4 to 6: its function, role and log group, its method, and on a new path the path's resources and its 405 mock. Below 480,
    // there is room for a few routes more at any time (and for the AWS::CDK::Metadata resource that `cdk deploy` adds).
    expect(Object.keys(resources).length).toBeLessThan(480);
  });

  it('answers a wrong method on a known path with a 405 envelope from a mock', () => {
    for (const path of routePaths) {
      const any = methodsOn(path).filter((m) => m.HttpMethod === 'ANY');
      expect(any, path).toHaveLength(1);
      const { Integration, MethodResponses } = any[0];
      expect(Integration.Type).toBe('MOCK');
      // Every body is binary to the API (below): as text, the template applies.
      expect(Integration.ContentHandling).toBe('CONVERT_TO_TEXT');
      expect(JSON.parse(Integration.RequestTemplates['application/json'])).toEqual({ statusCode: 200 });
      expect(Integration.IntegrationResponses).toHaveLength(1);
      const [response] = Integration.IntegrationResponses;
      expect(response.StatusCode).toBe('405');
      expect(response.SelectionPattern).toBeUndefined();
      expect(envelopeOf(response.ResponseTemplates['application/json'])).toEqual(failureEnvelope(methodNotAllowed.code, methodNotAllowed.message, {}));
      expect(response.ResponseParameters).toEqual({ [`method.response.header.${requestIdHeader}`]: 'context.requestId' });
      expect(MethodResponses).toEqual([{ StatusCode: '405', ResponseParameters: { [`method.response.header.${requestIdHeader}`]: true } }]);
    }
    // Only paths with operations get one: /dev and /dev/v1 stay 404.
    template.resourcePropertiesCountIs('AWS::ApiGateway::Method', { HttpMethod: 'ANY' }, routePaths.length);
    for (const path of ['/dev', '/dev/v1']) expect(methodsOn(path)).toEqual([]);
  });

  it('takes every media type as binary, so an imported spreadsheet reaches its function intact and an export is sent as bytes', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['*/*'] });
  });

  it('puts every gateway response in envelope form', () => {
    const entries = Object.entries(gatewayResponses);
    template.resourceCountIs('AWS::ApiGateway::GatewayResponse', entries.length);
    for (const [type, answer] of entries) {
      const found = template.findResources('AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: type } });
      const [response] = Object.values(found).map((r) => r.Properties);
      expect(response, type).toBeDefined();
      expect(response.StatusCode).toBe(String(answer.status));
      expect(response.ResponseParameters).toEqual({ 'gatewayresponse.header.content-type': "'application/json'" });
      expect(envelopeOf(response.ResponseTemplates['application/json'])).toEqual(failureEnvelope(answer.code, answer.message, {}));
    }
  });

  it('throttles the stage and logs access in JSON and errors', () => {
    const [, stage] = onlyOfType('AWS::ApiGateway::Stage');
    const [everyMethod, ...ownSettings] = stage.Properties.MethodSettings;
    expect(everyMethod).toEqual(
      expect.objectContaining({
        HttpMethod: '*',
        ResourcePath: '/*',
        ThrottlingRateLimit: defaultLimits.api.rateLimit,
        ThrottlingBurstLimit: defaultLimits.api.burstLimit,
        LoggingLevel: 'ERROR',
        MetricsEnabled: true,
        DataTraceEnabled: false,
      }),
    );
    // The methods with throttles of their own (test/cdk/concurrency.test.ts) log as every other.
    for (const settings of ownSettings) expect(settings).toMatchObject({ LoggingLevel: 'ERROR', MetricsEnabled: true, DataTraceEnabled: false });
    const format = JSON.parse(stage.Properties.AccessLogSetting.Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      method: '$context.httpMethod',
      resourcePath: '$context.resourcePath',
      status: '$context.status',
      responseLength: '$context.responseLength',
      integrationLatency: '$context.integrationLatency',
    });
    expect(JSON.stringify(stage.Properties.AccessLogSetting.DestinationArn)).toContain(logicalId(stack.node.findChild('ApiAccessLogs')));
    template.resourceCountIs('AWS::ApiGateway::Account', 1);
  });
});

describe('alarms', () => {
  const topicKeyId = logicalId(stack.alarms.key);
  const cloudWatch = { Service: 'cloudwatch.amazonaws.com' };
  /** This account's alarms only, on the key and on the topic alike. */
  const fromOwnAlarms = {
    StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
    ArnLike: {
      'aws:SourceArn': {
        'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudwatch:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':alarm:*']],
      },
    },
  };

  it('sends every alarm of the stack, on ALARM and on OK, to the topic', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm');
    // The task queue's backlog and dead-letter alarms, the schedules' dead-letter alarm, and the stage's server errors.
    expect(alarms.map(([id]) => id).sort()).toEqual(
      [stack.serverErrorAlarm, stack.tasks.node.findChild('BacklogAlarm'), stack.tasks.node.findChild('DeadLetterAlarm'), stack.schedules.deadLetterAlarm]
        .map(logicalId)
        .sort(),
    );
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions, id).toEqual([{ Ref: topicId }]);
    }
  });

  it("alarms on the API stage's 5XX responses", () => {
    const alarm = resources[logicalId(stack.serverErrorAlarm)]!.Properties;
    expect(alarm).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5XXError',
      // The stage's metric, not the API's across stages.
      Dimensions: [
        { Name: 'ApiName', Value: resources[logicalId(stack.api)]!.Properties.Name },
        { Name: 'Stage', Value: { Ref: logicalId(stack.api.deploymentStage) } },
      ],
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 1,
      Threshold: serverErrorAlarmThreshold,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it('encrypts the topic with a rotating key of its own that CloudWatch may use', () => {
    const [id, topic] = onlyOfType('AWS::SNS::Topic');
    expect(id).toBe(topicId);
    // Not the AWS-managed aws/sns key, whose policy CloudWatch alarms are not in.
    expect(topic.Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [topicKeyId, 'Arn'] });
    const key = resources[topicKeyId]!;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.Properties.KeyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: cloudWatch,
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        Resource: '*',
        Condition: fromOwnAlarms,
      }),
    );
    // The credentials key is not opened to CloudWatch.
    expect(JSON.stringify(resources[keyId]!.Properties.KeyPolicy)).not.toContain('cloudwatch');
  });

  it('lets CloudWatch publish to the topic, over TLS only', () => {
    const [, policy] = onlyOfType('AWS::SNS::TopicPolicy');
    expect(policy.Properties.Topics).toEqual([{ Ref: topicId }]);
    const statements = policy.Properties.PolicyDocument.Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Principal: '*', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Allow', Principal: cloudWatch, Action: 'sns:Publish', Resource: { Ref: topicId }, Condition: fromOwnAlarms }),
    );
  });

  it('subscribes the alarmEmail context value to the topic, and no one without it', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    const app = fastApp({ [alarmEmailContextKey]: 'ops@example.com' });
    const withEmail = new RulesServiceStack(app, stackId);
    const subscriptions = Object.values(Template.fromStack(withEmail).findResources('AWS::SNS::Subscription'));
    expect(subscriptions.map((s) => s.Properties)).toEqual([
      { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: { Ref: withEmail.resolve((withEmail.alarms.topic.node.defaultChild as any).logicalId) } },
    ]);
  });

  it('refuses an alarmEmail that is not an address, and takes an empty one as none', () => {
    expect(() => new RulesServiceStack(fastApp({ [alarmEmailContextKey]: 'ops' }), stackId)).toThrow(/alarmEmail must be an e-mail address/);
    expect(alarmEmailOf(new Stack(fastApp({ [alarmEmailContextKey]: '' }), 'Probe'))).toBeUndefined();
  });
});

describe('tracing', () => {
  it('traces the API stage with X-Ray', () => {
    const [, stage] = onlyOfType('AWS::ApiGateway::Stage');
    expect(stage.Properties.TracingEnabled).toBe(true);
  });

  // All but the console's deployment handler: CDK's own, it runs during deployments only, never on a request.
  const servingFunctions = () => ofType('AWS::Lambda::Function').filter(([id]) => id !== logicalId(stack.console.deploymentHandler));

  it('traces every function actively, the task worker and sweeper included', () => {
    const functions = servingFunctions();
    expect(functions.map(([id]) => id)).toEqual(expect.arrayContaining([logicalId(stack.tasks.worker.function), logicalId(stack.tasks.sweeper.function)]));
    for (const [id, fn] of functions) expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
  });

  it("grants X-Ray's two actions, and nothing else, on Resource '*' (the one acknowledged IAM5 finding of each role)", () => {
    const roles = ofType('AWS::IAM::Role').filter(
      ([id, role]) =>
        role.Properties.AssumeRolePolicyDocument.Statement[0].Principal.Service === 'lambda.amazonaws.com' &&
        id !== logicalId(stack.console.deploymentHandler.role!),
    );
    expect(roles).toHaveLength(servingFunctions().length);
    for (const [roleId] of roles) {
      const anyResource = statementsOf(roleId).filter((s) => [s.Resource].flat().includes('*'));
      expect(
        anyResource.map((st) => actionsOf(st).sort()),
        roleId,
      ).toEqual([['xray:PutTelemetryRecords', 'xray:PutTraceSegments']]);
    }
  });
});

describe('table', () => {
  it('is built from the table definition', () => {
    const [id, table] = onlyOfType('AWS::DynamoDB::Table');
    expect(id).toBe(tableId);
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    const props = table.Properties;
    expect(props.BillingMode).toBe('PAY_PER_REQUEST');
    expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(props.TimeToLiveSpecification).toEqual({ AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true });
    expect(props.KeySchema).toEqual([
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
    ]);
    const keyNames = [tableDefinition.partitionKey, tableDefinition.sortKey, ...allIndexes.flatMap((i) => [i.partitionKey, i.sortKey])];
    expect(props.AttributeDefinitions).toHaveLength(keyNames.length);
    expect(props.AttributeDefinitions).toEqual(expect.arrayContaining(keyNames.map((name) => ({ AttributeName: name, AttributeType: 'S' }))));
    expect(props.GlobalSecondaryIndexes).toHaveLength(allIndexes.length);
    for (const index of allIndexes) {
      expect(props.GlobalSecondaryIndexes).toContainEqual({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projectedAttributes] },
      });
    }
  });
});

describe('outputs', () => {
  it('has the API URL, the table name, the alarm topic, the console URL and the sign-in issuer, and nothing else', () => {
    template.hasOutput(outputNames.apiUrl, { Value: Match.objectLike({ 'Fn::Join': Match.anyValue() }) });
    template.hasOutput(outputNames.tableName, { Value: { Ref: tableId } });
    template.hasOutput(outputNames.alarmTopicArn, { Value: { Ref: topicId } });
    expect(Object.keys(template.toJSON().Outputs).sort()).toEqual(
      [
        outputNames.apiUrl,
        outputNames.tableName,
        outputNames.alarmTopicArn,
        outputNames.consoleUrl,
        outputNames.signInIssuer,
        outputNames.signInClientId,
        outputNames.hostedSignInUrl,
      ].sort(),
    );
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('has no unacknowledged finding, error or warning', () => {
    const { violations } = new AwsSolutionsChecks().validateScope(stack);
    const summary = violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(summary.filter((s) => s.startsWith('error'))).toEqual([]);
    expect(summary).toEqual([]);
  });

  it('stops synthesis on an unacknowledged finding, even a warning (the check is live)', () => {
    const app = fastApp();
    const probe = new Stack(app, 'Probe');
    // No point-in-time recovery: AwsSolutions-DDB3, a warning.
    new Table(probe, 'Bare', { partitionKey: { name: 'PK', type: AttributeType.STRING } });
    expect(new AwsSolutionsChecks().validateScope(probe).violations.map((v) => v.ruleName)).toContain('AwsSolutions-DDB3');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-DDB3/);
  });

  it('lets the app synthesize with the checks and the built-in CloudFormation validation', () => {
    const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
    new RulesServiceStack(app, stackId);
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).not.toThrow();
  }, 180_000);
});

describe('bundling', () => {
  it('puts the code a function loads lazily in chunks of its own, out of what a cold start loads', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'rules-cdk-'));
    try {
      const app = new App({ outdir, context: cdkContext, builtinCloudFormationValidation: false });
      new ServiceFunction(new Stack(app, 'SplitProbe'), 'Execute', { handler: 'execute-entity' });
      app.synth();
      const [asset] = readdirSync(outdir).filter((name) => name.startsWith('asset.'));
      const dir = join(outdir, asset!);
      expect(readdirSync(dir).sort()).toEqual(['chunks', 'index.mjs']);
      // The KMS client opens workflow steps' credentials: in a chunk, not in the entry file.
      const chunks = readdirSync(join(dir, 'chunks'))
        .map((name) => readFileSync(join(dir, 'chunks', name), 'utf8'))
        .join('\n');
      expect(readFileSync(join(dir, 'index.mjs'), 'utf8')).not.toContain('TrentService');
      expect(chunks).toContain('TrentService');
      const module = await import(pathToFileURL(join(dir, 'index.mjs')).href);
      expect(typeof module.handler).toBe('function');
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 30_000);

  it('gives each function its own bundle', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'rules-cdk-'));
    try {
      const app = new App({ outdir, context: cdkContext, builtinCloudFormationValidation: false });
      const probe = new Stack(app, 'TwoFunctions');
      for (const handler of ['get-task', 'get-remote']) new ServiceFunction(probe, handler, { handler });
      const template = Template.fromStack(probe).toJSON();
      const keys = Object.values(template.Resources as Record<string, { Type: string; Properties: { Code?: { S3Key?: string } } }>)
        .filter((resource) => resource.Type === 'AWS::Lambda::Function')
        .map((resource) => resource.Properties.Code!.S3Key);
      expect(new Set(keys).size).toBe(2);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 30_000);

  it('bundles a function with the real settings into a loadable ES module with the SDK inside', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'rules-cdk-'));
    try {
      const app = new App({ outdir, context: cdkContext, builtinCloudFormationValidation: false });
      const probe = new Stack(app, 'BundleProbe');
      new ServiceFunction(probe, 'GetEntity', { handler: 'get-entity' });
      app.synth();
      const assets = readdirSync(outdir).filter((name) => name.startsWith('asset.'));
      expect(assets).toHaveLength(1);
      const dir = join(outdir, assets[0]!);
      // index.mjs, and chunks for what the SDK itself imports lazily (its credential providers).
      expect(readdirSync(dir)).toContain('index.mjs');
      const file = join(dir, 'index.mjs');
      expect(readFileSync(file, 'utf8').startsWith("import { createRequire as __createRequire } from 'node:module';")).toBe(true);
      const chunkDir = join(dir, 'chunks');
      const files = [file, ...(readdirSync(dir).includes('chunks') ? readdirSync(chunkDir).map((name) => join(chunkDir, name)) : [])];
      const code = files.map((path) => readFileSync(path, 'utf8')).join('\n');
      // The SDK is bundled, not left to the runtime's copy. Only the SDK's own
      // optional signers (SigV4a, CRT), required inside try/catch, stay outside.
      expect(code).toContain('DynamoDB_20120810');
      // `}from"x"` and ` from "x"` are import statements; a string such as ':from' in the code is not. "./chunks/..." are its own chunks.
      const external = [...code.matchAll(/(?:[}\s]from\s*|\brequire\(|\bimport\()["']([^"']+)["']/g)].map((m) => m[1]!);
      expect(external.filter((name) => !name.startsWith('node:') && !name.startsWith('.') && !/^@aws-sdk\/signature-v4(a|-crt)$/.test(name))).toEqual([]);
      expect(files.reduce((sum, path) => sum + statSync(path).size, 0)).toBeLessThan(2 * 1024 * 1024);
      const module = await import(pathToFileURL(file).href);
      expect(typeof module.handler).toBe('function');
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 30_000);
});
