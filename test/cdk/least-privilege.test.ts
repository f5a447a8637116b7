/**
 * Least privilege, over the whole template: no policy of the stack (a role's,
 * a key's, a queue's, a topic's) allows a wildcard action or a wildcard
 * resource, except the few grants below, where AWS offers nothing narrower,
 * each with its reason. The allow-list is exact (its actions, its resources,
 * its principal), so a new wildcard, even in a statement that is already on
 * it, fails until someone adds it with a reason; and an entry no grant uses
 * any more fails too. The last tests spoil the template on purpose, to show
 * the checks catch what they are for.
 */
import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { ServiceFunction } from '../../cdk/service-function.ts';
import {
  broadGrants,
  fastApp,
  logicalIdOf,
  managedPolicies,
  policyStatements,
  resourcesOf,
  synthesize,
  unscopedInvokePermissions,
  type Allowance,
  type Resources,
  type Statement,
} from './template-checks.ts';

const { stack, resources } = synthesize();

const account = 'arn:${AWS::Partition}:iam::${AWS::AccountId}:root';
const schedulerArn = (resource: string) => `arn:\${AWS::Partition}:scheduler:\${AWS::Region}:\${AWS::AccountId}:${resource}`;
/** This stack's schedule groups (`<prefix>.<workspace>`, `<prefix>_<...>`), as rule-schedules.ts names them. */
const ownGroups = ['.', '_'].map((separator) => `${stack.schedules.groupPrefix}${separator}*`);

const consoleBucketObjects = `\${${logicalIdOf(stack.console.bucket)}.Arn}/*`;
/** The CDK asset bucket's objects, as the template names them (a Fn::Sub inside the ARN). */
const assetObjects = 'arn:${AWS::Partition}:s3:::{"Fn::Sub":"cdk-hnb659fds-assets-${AWS::AccountId}-${AWS::Region}"}/*';

/** The grants with a wildcard that AWS leaves no narrower form of. */
const allowances: Allowance[] = [
  {
    kind: 'identity',
    actions: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'],
    resources: ['*'],
    reason: 'X-Ray has no resource-level permissions: the two actions active tracing needs take Resource "*" only.',
  },
  {
    kind: 'key',
    actions: ['kms:*'],
    resources: ['*'],
    principal: `AWS:${account}`,
    reason:
      "In a key policy Resource \"*\" is the key itself. This is the default key policy (AWS's and CDK's): it lets the account's IAM policies grant the key, which is how each function gets its one or two actions on it (test/cdk/stack.test.ts). Fewer actions for the account risk a key no one can manage any more.",
  },
  {
    kind: 'key',
    actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
    resources: ['*'],
    principal: 'Service:cloudwatch.amazonaws.com',
    reason:
      'The alarm topic\'s key (Resource "*" is the key itself): the actions AWS documents for a service that publishes to an encrypted topic, and conditions keep them to this account\'s alarms (test/cdk/stack.test.ts).',
  },
  {
    kind: 'identity',
    actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:UpdateSchedule'],
    resources: ownGroups.map((group) => schedulerArn(`schedule/${group}/*`)),
    reason:
      "Schedules are made at run time, one per rule and branch in a group per workspace: the wildcards stand for those names, in this stack's groups only.",
  },
  {
    kind: 'identity',
    actions: ['scheduler:CreateScheduleGroup'],
    resources: ownGroups.map((group) => schedulerArn(`schedule-group/${group}`)),
    reason: "A workspace's schedule group is made when it schedules its first rule: the wildcard stands for the workspace, under this stack's prefix only.",
  },
  {
    kind: 'resource',
    actions: ['s3:GetObject'],
    resources: [consoleBucketObjects],
    principal: 'Service:cloudfront.amazonaws.com',
    reason:
      "Origin access control: CloudFront reads any of the console's files, and only for this distribution (its ARN is the statement's aws:SourceArn, test/cdk/console.test.ts).",
  },
  {
    kind: 'resource',
    actions: ['s3:PutObject'],
    resources: [`\${${logicalIdOf(stack.console.logBucket)}.Arn}/bucket/*`],
    principal: 'Service:logging.s3.amazonaws.com',
    reason:
      "S3 server access logging writes the console bucket's logs under their prefix of the log bucket, with names S3 chooses; conditions keep it to that bucket.",
  },
  {
    kind: 'identity',
    actions: ['s3:GetBucket*', 's3:GetObject*', 's3:List*'],
    resources: [assetObjects],
    reason: "BucketDeployment's grant to its handler on the CDK asset bucket, where the zipped console build is: CDK's read action group, on that bucket only.",
  },
  {
    kind: 'identity',
    actions: [
      's3:Abort*',
      's3:DeleteObject*',
      's3:GetBucket*',
      's3:GetObject*',
      's3:List*',
      's3:PutObject',
      's3:PutObjectLegalHold',
      's3:PutObjectRetention',
      's3:PutObjectTagging',
      's3:PutObjectVersionTagging',
    ],
    resources: [consoleBucketObjects],
    reason:
      "BucketDeployment's grant to its handler on the console bucket, which it mirrors the build into (aws s3 sync, deleting what the build no longer has): CDK's read-write action group, on that bucket only.",
  },
];

/** AWS managed policies a role may have. */
const allowedManagedPolicies = [
  {
    arn: 'arn:${AWS::Partition}:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs',
    reason:
      "API Gateway's one role per account and region for execution logs, which every API there shares: the managed policy AWS documents for it. A policy narrowed to this API's log groups would cut off the other APIs of the account.",
  },
];

/** A copy of the template with one more statement in a function's role, inline where its grants are (cdk/inline-policy-role.ts). */
function withStatement(statement: Statement): Resources {
  const copy = structuredClone(resources);
  const [policy] = copy[logicalIdOf(stack.tasks.sweeper.role)]!.Properties.Policies;
  policy.PolicyDocument.Statement.push(statement);
  return copy;
}

describe('least privilege', () => {
  it('allows no wildcard action or resource beyond the allow-list', () => {
    const statements = policyStatements(resources);
    // Every role's policy, both keys' policies, the queues' and the topic's.
    expect(new Set(statements.map((s) => s.kind))).toEqual(new Set(['identity', 'key', 'resource']));
    expect(broadGrants(statements, allowances).problems).toEqual([]);
  });

  it('keeps no allow-list entry that no grant needs, and a reason for each', () => {
    expect(broadGrants(policyStatements(resources), allowances).unused).toEqual([]);
    for (const allowance of [...allowances, ...allowedManagedPolicies]) expect(allowance.reason.length).toBeGreaterThan(60);
  });

  it('attaches no managed policy but the allowed ones', () => {
    const allowed = allowedManagedPolicies.map((policy) => policy.arn);
    expect(managedPolicies(resources).filter((policy) => !allowed.includes(policy.arn))).toEqual([]);
  });

  it("lets services invoke functions only from this stack's sources", () => {
    expect(unscopedInvokePermissions(resources)).toEqual([]);
  });

  it('grants the table and each of its indexes by name', () => {
    const dynamo = policyStatements(resources).filter((s) => [s.statement.Action].flat().some((action) => action?.startsWith('dynamodb:')));
    expect(dynamo.length).toBeGreaterThan(0);
    for (const { at, statement } of dynamo) expect(JSON.stringify(statement.Resource), at).not.toContain('*');
  });
});

describe('the checks catch', () => {
  const problemsOf = (copy: Resources) => broadGrants(policyStatements(copy), allowances).problems;

  it.each<[string, Statement]>([
    ['every action', { Effect: 'Allow', Action: '*', Resource: { 'Fn::GetAtt': ['Table', 'Arn'] } }],
    ["a service's every action", { Effect: 'Allow', Action: 'dynamodb:*', Resource: { 'Fn::GetAtt': ['Table', 'Arn'] } }],
    ['a wildcard within a service', { Effect: 'Allow', Action: 'dynamodb:Batch*', Resource: { 'Fn::GetAtt': ['Table', 'Arn'] } }],
    ['every resource', { Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: '*' }],
    ['a wildcard in an ARN', { Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': ['Table', 'Arn'] }, '/index/*']] } }],
    [
      'an allowed action on one more wildcard resource',
      { Effect: 'Allow', Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], Resource: ['*', 'arn:aws:s3:::*'] },
    ],
    [
      'an allowed wildcard with one more action',
      { Effect: 'Allow', Action: ['xray:GetTraceSummaries', 'xray:PutTelemetryRecords', 'xray:PutTraceSegments'], Resource: '*' },
    ],
    ['everything but', { Effect: 'Allow', NotAction: 'iam:*', Resource: '*' }],
  ])('%s', (_, statement) => {
    expect(problemsOf(withStatement(statement))).toHaveLength(1);
  });

  it('a Deny, however wide, is no problem', () => {
    expect(problemsOf(withStatement({ Effect: 'Deny', Action: '*', Resource: '*' }))).toEqual([]);
  });

  it('an allowance for a key policy does not cover the same grant in a role', () => {
    expect(problemsOf(withStatement({ Effect: 'Allow', Action: 'kms:*', Resource: '*' }))).toHaveLength(1);
  });

  it("a queue's policy that allows anyone", () => {
    const copy = structuredClone(resources);
    const queuePolicy = Object.values(copy).find((r) => r.Type === 'AWS::SQS::QueuePolicy')!;
    queuePolicy.Properties.PolicyDocument.Statement.push({ Effect: 'Allow', Principal: { AWS: '*' }, Action: 'sqs:SendMessage', Resource: { Ref: 'Queue' } });
    expect(problemsOf(copy)).toEqual([expect.stringContaining('to anyone')]);
  });

  it('a broad grant made with CDK', () => {
    const probe = new Stack(fastApp(), 'Probe');
    const fn = new ServiceFunction(probe, 'Greedy', { handler: 'get-entity' });
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['dynamodb:*'], resources: ['*'] }));
    // CDK merges it into the X-Ray statement (same Resource "*"): the allowance, being for exactly X-Ray's two actions, no longer covers it.
    expect(broadGrants(policyStatements(resourcesOf(probe)), allowances).problems).toEqual([
      expect.stringMatching(/^GreedyRole\w+\/Permissions: Allow dynamodb:\*, xray:PutTelemetryRecords, xray:PutTraceSegments on \*$/),
    ]);
  });

  it('a managed policy, and an invoke permission for any source', () => {
    const copy = structuredClone(resources);
    const role = Object.values(copy).find((r) => r.Type === 'AWS::IAM::Role')!;
    role.Properties.ManagedPolicyArns = ['arn:aws:iam::aws:policy/AdministratorAccess'];
    const permission = Object.values(copy).find((r) => r.Type === 'AWS::Lambda::Permission')!;
    delete permission.Properties.SourceArn;
    expect(managedPolicies(copy).map((p) => p.arn)).toContain('arn:aws:iam::aws:policy/AdministratorAccess');
    expect(unscopedInvokePermissions(copy)).toHaveLength(1);
  });
});
