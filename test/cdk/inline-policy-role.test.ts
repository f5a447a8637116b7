/**
 * The role that holds its grants inline (cdk/inline-policy-role.ts), on small
 * probe stacks: it grants what a Role's default policy grants, statement for
 * statement, with no policy resource; what waits for a grant waits for the
 * role; and it refuses a policy past IAM's size for a role, or an empty one.
 */
import { CfnResource, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { InlinePolicyRole, inlinePoliciesLimit } from '../../cdk/inline-policy-role.ts';
import { fastApp, resourcesOf, type Resources } from './template-checks.ts';

const assumedBy = new ServicePrincipal('lambda.amazonaws.com');

/** A stack whose role (made by `makeRole`) gets grants of every kind the service makes, before and after its function. */
function probe(makeRole: (stack: Stack) => IRole) {
  const stack = new Stack(fastApp(), 'Probe');
  const role = makeRole(stack);
  new LogGroup(stack, 'Logs').grantWrite(role);
  const table = new Table(stack, 'Table', { partitionKey: { name: 'PK', type: AttributeType.STRING } });
  table.grantReadData(role);
  const fn = new LambdaFunction(stack, 'Function', {
    code: Code.fromInline('export const handler = () => {}'),
    handler: 'index.handler',
    runtime: Runtime.NODEJS_22_X,
    role,
    tracing: Tracing.ACTIVE,
  });
  const key = new Key(stack, 'Key');
  key.grant(role, 'kms:Decrypt');
  const queue = new Queue(stack, 'Queue', { visibilityTimeout: Duration.seconds(30) });
  const waiting = new CfnResource(stack, 'Waiting', { type: 'AWS::SQS::Queue' });
  queue.grantSendMessages(fn).applyBefore(waiting);
  role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['dynamodb:PutItem'],
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['AUDIT:*'] } },
    }),
  );
  return { stack, role, resources: resourcesOf(stack) };
}

const ofType = (resources: Resources, type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const onlyOfType = (resources: Resources, type: string) => {
  const found = ofType(resources, type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};

describe('a role with its grants inline', () => {
  const inline = probe((stack) => new InlinePolicyRole(stack, 'Role', { assumedBy }));
  const withDefaultPolicy = probe((stack) => new Role(stack, 'Role', { assumedBy }));
  const [roleId, role] = onlyOfType(inline.resources, 'AWS::IAM::Role');

  it("grants exactly what a Role's default policy grants, in the role's one inline policy and no policy resource", () => {
    const [, defaultPolicy] = onlyOfType(withDefaultPolicy.resources, 'AWS::IAM::Policy');
    expect(role.Properties.Policies).toEqual([{ PolicyName: InlinePolicyRole.policyName, PolicyDocument: defaultPolicy.Properties.PolicyDocument }]);
    expect(defaultPolicy.Properties.PolicyDocument.Statement.length).toBeGreaterThan(4);
    expect(ofType(inline.resources, 'AWS::IAM::Policy')).toEqual([]);
  });

  it('makes what waits for a grant wait for the role, which puts it', () => {
    expect(inline.resources.Waiting).toMatchObject({ DependsOn: [roleId] });
    expect(onlyOfType(inline.resources, 'AWS::Lambda::Function')[1]).toMatchObject({ DependsOn: [roleId] });
  });

  it("estimates its policy's size above what the template says", () => {
    const template = JSON.stringify(role.Properties.Policies[0].PolicyDocument).length;
    expect((inline.role as InlinePolicyRole).estimatedPolicySize()).toBeGreaterThan(template);
  });

  it("refuses to synthesize past IAM's size for a role's inline policies, or without a grant", () => {
    const stack = new Stack(fastApp(), 'Large');
    const large = new InlinePolicyRole(stack, 'Role', { assumedBy });
    for (let i = 0; i < 60; i++)
      large.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [new Queue(stack, `Q${i}`).queueArn] }));
    expect(large.estimatedPolicySize()).toBeGreaterThan(inlinePoliciesLimit);
    expect(() => Template.fromStack(stack)).toThrow(/about \d+ characters, past the 10240 IAM allows a role/);
    const empty = new Stack(fastApp(), 'Empty');
    new InlinePolicyRole(empty, 'Role', { assumedBy });
    expect(() => Template.fromStack(empty)).toThrow(/no permissions/);
  });
});
