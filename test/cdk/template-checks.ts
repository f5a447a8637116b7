/**
 * Checks of a synthesized template, for the least-privilege, encryption and
 * concurrency suites. Each takes the template's resources and answers with
 * what is wrong, a line a problem, so that a suite expects none of the stack
 * and some of a template spoiled on purpose; and each goes over every
 * resource of the types it knows, so that a resource added later is checked
 * as the first ones were.
 */
import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { readFileSync } from 'node:fs';
import { RulesServiceStack, stackId, type RulesServiceStackProps } from '../../cdk/stack.ts';

interface CfnResource {
  Type: string;
  Properties?: any;
}
export type Resources = Record<string, CfnResource>;

/** The feature flags of cdk.json, so the suites check what `cdk synth` builds. */
const cdkContext = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

/** An app that skips bundling, which no check reads, and the (slow) built-in CloudFormation validation. */
export const fastApp = () => new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });

export const resourcesOf = (stack: Stack): Resources => Template.fromStack(stack).toJSON().Resources as Resources;

/** The logical id of a construct's resource. */
export const logicalIdOf = (construct: IConstruct): string => Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);

/** The stack and its template's resources. */
export function synthesize(props?: RulesServiceStackProps): { stack: RulesServiceStack; resources: Resources } {
  const stack = new RulesServiceStack(fastApp(), stackId, props);
  return { stack, resources: resourcesOf(stack) };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const listOf = (value: unknown): unknown[] => (value === undefined ? [] : [value].flat());

/** A CloudFormation value as text: `${Id}` for a Ref, `${Id.Attribute}` for a GetAtt, a join joined, anything else as JSON. */
export function rendered(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isRecord(value)) {
    if (typeof value.Ref === 'string') return `\${${value.Ref}}`;
    const getAtt = value['Fn::GetAtt'];
    if (Array.isArray(getAtt)) return `\${${getAtt.join('.')}}`;
    const join = value['Fn::Join'];
    if (Array.isArray(join) && typeof join[0] === 'string' && Array.isArray(join[1])) return join[1].map(rendered).join(join[0]);
  }
  return JSON.stringify(value);
}

/** Whether rendered text has a wildcard of its own, outside the `${...}` of a reference. */
const hasWildcard = (text: string): boolean => text.replace(/\$\{[^}]*\}/g, '').includes('*');

export interface Statement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Principal?: unknown;
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: unknown;
  NotResource?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

/** An identity policy (a role's), a KMS key policy (whose Resource "*" is the key), or another resource's policy (a queue's, a topic's...). */
export type PolicyKind = 'identity' | 'key' | 'resource';

interface PlacedStatement {
  kind: PolicyKind;
  /** The logical id, and the policy's name for a role's inline policy. */
  at: string;
  statement: Statement;
}

const statementsIn = (document: unknown): Statement[] => (isRecord(document) ? listOf(document.Statement) : []) as Statement[];

/** Every statement of every policy in the template: IAM policies and roles' inline policies, key policies, resource policies. */
export function policyStatements(resources: Resources): PlacedStatement[] {
  return Object.entries(resources).flatMap(([id, { Type, Properties: props = {} }]) => {
    const documents: [PolicyKind, string, unknown][] = [];
    if (Type.startsWith('AWS::IAM::')) {
      if (props.PolicyDocument) documents.push(['identity', id, props.PolicyDocument]);
      for (const policy of props.Policies ?? []) documents.push(['identity', `${id}/${policy.PolicyName}`, policy.PolicyDocument]);
    } else if (Type === 'AWS::KMS::Key') documents.push(['key', id, props.KeyPolicy]);
    else if (props.PolicyDocument) documents.push(['resource', id, props.PolicyDocument]);
    return documents.flatMap(([kind, at, document]) => statementsIn(document).map((statement) => ({ kind, at, statement })));
  });
}

/**
 * What each role may do, by its logical id: the statements of its inline
 * policies (where a function's role holds its grants, cdk/inline-policy-role.ts)
 * and of the IAM and managed policies attached to it (CDK's default policy,
 * and the managed policies it moves the overflow of a large one into), so
 * that a check reads a role's permissions wherever the stack puts them.
 */
export function roleStatements(resources: Resources): Map<string, Statement[]> {
  const byRole = new Map<string, Statement[]>();
  const add = (roleId: string, document: unknown) => byRole.set(roleId, [...(byRole.get(roleId) ?? []), ...statementsIn(document)]);
  for (const [id, { Type, Properties: props = {} }] of Object.entries(resources)) {
    if (Type === 'AWS::IAM::Role') for (const policy of props.Policies ?? []) add(id, policy.PolicyDocument);
    if (Type === 'AWS::IAM::Policy' || Type === 'AWS::IAM::ManagedPolicy')
      for (const role of listOf(props.Roles)) if (isRecord(role) && typeof role.Ref === 'string') add(role.Ref, props.PolicyDocument);
  }
  return byRole;
}

/** The statements of one role (`roleStatements`). */
export const statementsOfRole = (resources: Resources, roleId: string): Statement[] => roleStatements(resources).get(roleId) ?? [];

/** A statement's actions, as a list. */
export const actionsOf = (statement: Statement): string[] => listOf(statement.Action) as string[];

/** A statement's principal as text: `*`, or `Service:cloudwatch.amazonaws.com`, `AWS:arn:...:root`. */
function principalOf(statement: Statement): string {
  const { Principal: principal } = statement;
  if (!isRecord(principal)) return rendered(principal);
  return Object.entries(principal)
    .map(([type, names]) => `${type}:${listOf(names).map(rendered).join(',')}`)
    .join(' ');
}

const anyone = (statement: Statement) => ['*', 'AWS:*'].includes(principalOf(statement));

/** A grant with a wildcard, accepted on purpose. */
export interface Allowance {
  readonly kind: PolicyKind;
  /** The statement's actions, every one of them. */
  readonly actions: readonly string[];
  /** Each wildcard resource the statement may name, as rendered: "*", or an ARN pattern. */
  readonly resources: readonly string[];
  /** For a key or resource policy: the one principal it is accepted for, as `principalOf` renders it. */
  readonly principal?: string;
  readonly reason: string;
}

/**
 * The Allow statements with a wildcard action (`*`, `service:*`, `service:Get*`)
 * or a wildcard resource (`*`, `arn:...:table/*`) that no allowance accepts,
 * those that allow everything but what they name (NotAction, NotResource),
 * and those of a key or resource policy that allow anyone. A Deny is left
 * alone, however wide: it only takes away. And the allowances no statement
 * needed, so that the list shrinks with the grants.
 */
export function broadGrants(statements: readonly PlacedStatement[], allowances: readonly Allowance[]): { problems: string[]; unused: Allowance[] } {
  const used = new Set<Allowance>();
  const problems: string[] = [];
  for (const { kind, at, statement } of statements) {
    if (statement.Effect !== 'Allow') continue;
    const actions = listOf(statement.Action).map(rendered).sort();
    const resources = listOf(statement.Resource).map(rendered);
    const grant = `${at}: Allow ${actions.join(', ')} on ${resources.join(', ')}`;
    if (statement.NotAction !== undefined || statement.NotResource !== undefined) {
      problems.push(`${at}: an Allow with NotAction or NotResource allows everything but what it names`);
      continue;
    }
    if (kind !== 'identity' && anyone(statement)) problems.push(`${grant}, to anyone`);
    const wildResources = resources.filter(hasWildcard);
    if (!actions.some(hasWildcard) && wildResources.length === 0) continue;
    const allowance = allowances.find(
      (a) =>
        a.kind === kind &&
        a.actions.length === actions.length &&
        [...a.actions].sort().every((action, i) => action === actions[i]) &&
        wildResources.every((resource) => a.resources.includes(resource)) &&
        (a.principal === undefined || a.principal === principalOf(statement)),
    );
    if (allowance) used.add(allowance);
    else problems.push(grant);
  }
  return { problems, unused: allowances.filter((a) => !used.has(a)) };
}

/** Each managed policy attached to a role, user or group, as rendered ARN, with where. */
export function managedPolicies(resources: Resources): { at: string; arn: string }[] {
  return Object.entries(resources)
    .filter(([, r]) => r.Type.startsWith('AWS::IAM::'))
    .flatMap(([at, r]) => listOf(r.Properties?.ManagedPolicyArns).map((arn) => ({ at, arn: rendered(arn) })));
}

/**
 * The Lambda permissions a service could use on behalf of anyone's resource:
 * every one needs a SourceArn, and API Gateway's must name the stage and the
 * method (a path parameter is a wildcard: the function serves them all).
 */
export function unscopedInvokePermissions(resources: Resources): string[] {
  return Object.entries(resources)
    .filter(([, r]) => r.Type === 'AWS::Lambda::Permission')
    .flatMap(([at, { Properties: p }]) => {
      if (p.SourceArn === undefined) return [`${at}: ${rendered(p.Principal)} may invoke ${rendered(p.FunctionName)} for any source`];
      if (p.Principal !== 'apigateway.amazonaws.com') return [];
      const [, stage, method] = rendered(p.SourceArn).split(':').at(-1)!.split('/');
      return stage === '*' || method === '*' ? [`${at}: API Gateway may invoke ${rendered(p.FunctionName)} from any stage or method`] : [];
    });
}

/** A Deny of everything to everyone when the request did not come over TLS (what `enforceSSL` writes). */
const deniesPlainTransport = (statement: Statement, action: string) =>
  statement.Effect === 'Deny' &&
  anyone(statement) &&
  statement.Condition?.Bool?.['aws:SecureTransport'] === 'false' &&
  listOf(statement.Action).includes(action);

/** Whether a policy of `policyType` on the resource (`key` names it) denies it `action` over plain HTTP. */
const tlsOnly = (resources: Resources, id: string, policyType: string, key: string, action: string) =>
  Object.values(resources).some(
    (r) =>
      r.Type === policyType &&
      listOf(r.Properties[key]).some((target) => isRecord(target) && target.Ref === id) &&
      listOf(r.Properties.PolicyDocument.Statement).some((s) => deniesPlainTransport(s as Statement, action)),
  );

/** What a resource of each type must be: encrypted at rest and reachable over TLS only. */
const storeChecks: Record<string, (props: any, id: string, resources: Resources) => (string | false)[]> = {
  'AWS::DynamoDB::Table': (p) => [
    p.SSESpecification?.SSEEnabled !== true && 'is not encrypted with a KMS key (SSESpecification)',
    p.PointInTimeRecoverySpecification?.PointInTimeRecoveryEnabled !== true && 'has no point-in-time recovery',
  ],
  'AWS::SQS::Queue': (p, id, resources) => [
    p.SqsManagedSseEnabled !== true && p.KmsMasterKeyId === undefined && 'is not encrypted (SqsManagedSseEnabled or KmsMasterKeyId)',
    !tlsOnly(resources, id, 'AWS::SQS::QueuePolicy', 'Queues', 'sqs:*') && 'takes requests over plain HTTP (no aws:SecureTransport deny: enforceSSL)',
  ],
  'AWS::SNS::Topic': (p, id, resources) => [
    p.KmsMasterKeyId === undefined && 'is not encrypted (KmsMasterKeyId)',
    !tlsOnly(resources, id, 'AWS::SNS::TopicPolicy', 'Topics', 'sns:Publish') && 'takes publishes over plain HTTP (no aws:SecureTransport deny: enforceSSL)',
  ],
  'AWS::S3::Bucket': (p, id, resources) => [
    !(p.BucketEncryption?.ServerSideEncryptionConfiguration?.length > 0) && 'has no default encryption (BucketEncryption)',
    !['BlockPublicAcls', 'BlockPublicPolicy', 'IgnorePublicAcls', 'RestrictPublicBuckets'].every(
      (setting) => p.PublicAccessBlockConfiguration?.[setting] === true,
    ) && 'does not block public access (all four PublicAccessBlockConfiguration settings)',
    !tlsOnly(resources, id, 'AWS::S3::BucketPolicy', 'Bucket', 's3:*') && 'takes requests over plain HTTP (no aws:SecureTransport deny: enforceSSL)',
  ],
  'AWS::KMS::Key': (p) => [p.EnableKeyRotation !== true && 'does not rotate'],
  // The execute-api endpoint itself answers HTTPS only; a custom domain chooses its TLS.
  'AWS::ApiGateway::DomainName': (p) => [p.SecurityPolicy !== 'TLS_1_2' && 'allows TLS older than 1.2'],
  'AWS::ApiGateway::Method': (p) => [
    ['HTTP', 'HTTP_PROXY'].includes(p.Integration?.Type) && !rendered(p.Integration.Uri).startsWith('https://') && 'calls its backend over plain HTTP',
  ],
};

/** Every resource that is not encrypted at rest, or that takes requests over plain HTTP, with why. */
export function encryptionProblems(resources: Resources): string[] {
  return Object.entries(resources).flatMap(([id, r]) => {
    const check = storeChecks[r.Type];
    return check
      ? check(r.Properties ?? {}, id, resources)
          .filter((problem) => problem !== false)
          .map((problem) => `${r.Type} ${id} ${problem}`)
      : [];
  });
}

/** Services that keep data or messages whose types `encryptionProblems` has no check for: one of them needs its check first. */
const storeServices =
  /^AWS::(DynamoDB|SQS|SNS|S3|S3Express|Kinesis|KinesisFirehose|RDS|DocDB|Neptune|EFS|FSx|ElastiCache|MemoryDB|DAX|OpenSearchService|Elasticsearch|Redshift|MSK|AmazonMQ|Timestream|SecretsManager|Backup)::/;
const policyTypes = new Set(['AWS::SQS::QueuePolicy', 'AWS::SNS::TopicPolicy', 'AWS::S3::BucketPolicy', 'AWS::SNS::Subscription']);

export const uncheckedStoreTypes = (resources: Resources): string[] => [
  ...new Set(
    Object.values(resources)
      .map((r) => r.Type)
      .filter((type) => storeServices.test(type) && !(type in storeChecks) && !policyTypes.has(type)),
  ),
];
