/**
 * The service: the DynamoDB table, a function per route of `lib/api/routes.ts`
 * and the REST API in front of them. Later parts (queue and worker, KMS key,
 * scheduled sweeper, rule schedules) are added here with the same helpers:
 * `ServiceFunction` for a function, `grantTable` for its table access. Every
 * alarm of the stack notifies one topic (`./alarm-notifications.ts`). How
 * much of the account's Lambda concurrency callers can take is bounded by
 * `./limits.ts`, whose defaults a deployer may replace (`limits`). The web
 * console is served with the API behind one CloudFront distribution
 * (`./console.ts`). People sign in with the stack's Cognito user pool or an
 * issuer the deployer names (`./sign-in.ts`).
 */
import { CfnOutput, Duration, Lazy, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { gatewayResponses, methodNotAllowed } from '../lib/http/gateway-responses.ts';
import { routeList } from '../lib/api/routes.ts';
import type { Route } from '../lib/http/route.ts';
import { stackOutputs as outputNames } from '../lib/deployment/names.ts';
import { AlarmNotifications, alarmEmailOf } from './alarm-notifications.ts';
import { WebConsole } from './console.ts';
import { defaultLimits, type ServiceLimits } from './limits.ts';
import { addGatewayResponses, addMethodNotAllowed, addRouteMethods, addServerErrorAlarm, serviceRestApi } from './rest-api.ts';
import { RuleSchedules } from './rule-schedules.ts';
import { ServiceFunction } from './service-function.ts';
import { auditPartition } from '../lib/store/keys.ts';
import { defaultAuditRetentionDays } from '../lib/store/model/audit.ts';
import { indexArnsOf, serviceTable } from './service-table.ts';
import { TaskPipeline } from './task-pipeline.ts';
import { SignIn, externalIssuerOf, type ExternalIssuer } from './sign-in.ts';

export { stackName as stackId, stackOutputs as outputNames } from '../lib/deployment/names.ts';

export type TableAccess = Route['tableAccess'];

/**
 * What each table access may do: CDK's read and write data actions, on the
 * table and its indexes by name, without the stream reads (the table has no
 * stream).
 */
const tableActions = {
  read: ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DescribeTable', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan'],
  write: ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
};

export interface RulesServiceStackProps extends StackProps {
  /** Another OpenID Connect issuer for people to sign in with than the user pool the stack makes (or the context values signInIssuer, signInClientId, signInGroupsClaim, signInSignOutUrl). */
  readonly signIn?: ExternalIssuer;
  /** Replaces the defaults (`defaultLimits`) it names. */
  readonly limits?: Partial<ServiceLimits>;
  /** How long audit records are kept before DynamoDB's TTL deletes them: this, else the context value auditRetentionDays, else 400 days. */
  readonly auditRetentionDays?: number;
}

const pascalCase = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

export class RulesServiceStack extends Stack {
  readonly table: Table;
  readonly credentialsKey: Key;
  readonly tasks: TaskPipeline;
  readonly schedules: RuleSchedules;
  readonly api: RestApi;
  readonly alarms: AlarmNotifications;
  readonly serverErrorAlarm: Alarm;
  readonly console: WebConsole;
  readonly signIn: SignIn;
  readonly limits: ServiceLimits;
  /** The function serving each route, by operation id. */
  readonly routeFunctions = new Map<string, ServiceFunction>();

  readonly auditRetentionDays: number;

  constructor(scope: Construct, id: string, { limits, auditRetentionDays, signIn, ...props }: RulesServiceStackProps = {}) {
    super(scope, id, { description: 'Rule and workflow management service', ...props });
    this.limits = { ...defaultLimits, ...limits };
    const retention = auditRetentionDays ?? Number(this.node.tryGetContext('auditRetentionDays') ?? defaultAuditRetentionDays);
    if (!Number.isInteger(retention) || retention < 1) throw new Error(`auditRetentionDays must be a whole number of days, not ${retention}`);
    this.auditRetentionDays = retention;

    this.table = serviceTable(this, 'Table');
    this.credentialsKey = new Key(this, 'CredentialsKey', {
      description: 'Seals the API-key credentials of workspaces (envelope encryption)',
      enableKeyRotation: true,
      // Retained with the table: without the key, the sealed values kept there could never be opened.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // 'Pull', the id it had when it carried pulls alone: the queues' logical ids derive from it (./task-pipeline.ts).
    this.tasks = new TaskPipeline(this, 'Pull', {
      environment: {
        TABLE_NAME: this.table.tableName,
        CREDENTIALS_KMS_KEY_ID: this.credentialsKey.keyArn,
        AUDIT_RETENTION_DAYS: String(this.auditRetentionDays),
      },
      grant: (fn, needs) => {
        this.grantTable(fn, needs.table);
        if (needs.key) this.grantCredentialsKey(fn, needs.key);
      },
    });
    this.schedules = new RuleSchedules(this, 'Schedules', {
      environment: { TABLE_NAME: this.table.tableName },
      grant: (fn, needs) => this.grantTable(fn, needs.table),
      reservedConcurrency: this.limits.scheduledRuns,
    });
    this.api = serviceRestApi(this, 'Api', {
      stage: this.limits.api,
      methods: Object.fromEntries(
        routeList.filter((route) => route.outbound === 'trying').map((route) => [`${route.path}/${route.method}`, this.limits.outbound]),
      ),
    });

    // Each needs the other: the console's headers policy lets the page reach the issuer's origins, and the user pool's client sends
    // people back to the console. Sign-in comes first and reads the console's URL once the console is made; in the template the
    // client depends on the distribution, and the distribution on the hosted sign-in's domain, never on the client: no cycle.
    this.signIn = new SignIn(this, 'SignIn', {
      external: signIn ?? externalIssuerOf(this),
      consoleUrl: Lazy.string({ produce: () => this.console.url }),
    });
    this.console = new WebConsole(this, 'Console', { api: this.api, signInOrigins: this.signIn.origins });

    const routeMethods = addRouteMethods(this.api, routeList, (route) => this.routeFunction(route).function);
    const notAllowedMethods = addMethodNotAllowed(
      this.api,
      routeList.map((route) => route.path),
      methodNotAllowed,
    );
    addGatewayResponses(this.api, gatewayResponses);
    this.serverErrorAlarm = addServerErrorAlarm(this, this.api);

    this.alarms = new AlarmNotifications(this, 'Alarms', { email: alarmEmailOf(this) });
    this.alarms.notifyEveryAlarmOf(this);

    // cdk-nag findings accepted on purpose, each on the narrowest construct it concerns.
    for (const method of routeMethods.values()) {
      Validations.of(method).acknowledge(
        {
          id: 'AwsSolutions-APIG4',
          reason:
            'The function authorizes, not API Gateway: it checks the Service-API-Key header where the operation needs a key (lib/auth), so that a missing or bad key gets the enveloped 401 of the service, whose code says what is wrong with the key; GET /openapi.json, the public contract, needs none.',
        },
        {
          id: 'AwsSolutions-COG4',
          reason:
            "No Cognito authorizer: the function verifies a person's token itself, against the issuer the stack names (the user pool, or another OpenID Connect issuer), as it checks a Service-API-Key, so that each failed check gets the service's enveloped 401 with a code that says which; the public contract needs no caller at all.",
        },
      );
    }
    for (const method of notAllowedMethods) {
      Validations.of(method).acknowledge(
        { id: 'AwsSolutions-APIG4', reason: 'The mock answers a fixed 405 envelope; it reaches no backend and reveals nothing beyond what 403 would.' },
        { id: 'AwsSolutions-COG4', reason: 'The mock answers a fixed 405 envelope; it reaches no backend.' },
      );
    }
    Validations.of(this.api.deploymentStage).acknowledge({
      id: 'AwsSolutions-APIG3',
      reason: `No WAF web ACL yet: every method is throttled (${this.limits.api.rateLimit} rps, burst ${this.limits.api.burstLimit}; the routes that call out ${this.limits.outbound.rateLimit} and ${this.limits.outbound.burstLimit}) and every operation but the public contract needs an API key, checked by the function. Revisit with the deployment account.`,
    });
    Validations.of(this.api.node.findChild('CloudWatchRole')).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        "The account-level role API Gateway writes execution logs with, shared by every API of the account and region: the AWS managed policy is the one AWS documents for it, and one narrowed to this API's log groups would cut off the others.",
    });

    new CfnOutput(this, outputNames.apiUrl, { value: this.api.url, description: 'URL of the API stage' });
    new CfnOutput(this, outputNames.tableName, { value: this.table.tableName, description: 'Name of the DynamoDB table' });
    new CfnOutput(this, outputNames.consoleUrl, { value: this.console.url, description: 'URL of the web console (CloudFront, HTTPS)' });
    new CfnOutput(this, outputNames.signInIssuer, { value: this.signIn.issuer, description: 'The OpenID Connect issuer people sign in with' });
    new CfnOutput(this, outputNames.signInClientId, { value: this.signIn.clientId, description: "The console's client id at that issuer" });
    if (this.signIn.hostedSignInUrl)
      new CfnOutput(this, outputNames.hostedSignInUrl, { value: this.signIn.hostedSignInUrl, description: "The stack's user pool's hosted sign-in" });
    new CfnOutput(this, outputNames.alarmTopicArn, { value: this.alarms.topic.topicArn, description: 'SNS topic every alarm of the stack notifies' });
  }

  /** Grants a function exactly the named access to the table and its indexes: none for 'none'. */
  grantTable(fn: ServiceFunction, access: TableAccess): void {
    if (access === 'none') return;
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: access === 'read' ? tableActions.read : [...tableActions.read, ...tableActions.write],
        resources: [this.table.tableArn, ...indexArnsOf(this.table)],
      }),
    );
  }

  /**
   * Lets a function that only reads append to the audit log (the record of a
   * refusal, lib/http/endpoint.ts): puts on the audit partitions only, by
   * their leading key.
   */
  grantAuditAppend(fn: ServiceFunction): void {
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:PutItem'],
        resources: [this.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${auditPartition('*')}`] } },
      }),
    );
  }

  /** Grants a function exactly what it does with the credentials key: make data keys, open them, or both. */
  grantCredentialsKey(fn: ServiceFunction, access: NonNullable<Route['keyAccess']>): void {
    if (access !== 'decrypt') this.credentialsKey.grant(fn.role, 'kms:GenerateDataKey');
    if (access !== 'encrypt') this.credentialsKey.grant(fn.role, 'kms:Decrypt');
  }

  private routeFunction(route: Route): ServiceFunction {
    const fn = new ServiceFunction(this, `${pascalCase(route.operationId)}Function`, {
      handler: route.handler,
      description: `${route.method} ${route.path}`,
      environment: {
        ...this.signIn.environment,
        ...(route.tableAccess !== 'none' && { TABLE_NAME: this.table.tableName, AUDIT_RETENTION_DAYS: String(this.auditRetentionDays) }),
        ...(route.keyAccess && { CREDENTIALS_KMS_KEY_ID: this.credentialsKey.keyArn }),
        ...(route.queueAccess && { TASK_QUEUE_URL: this.tasks.queue.queueUrl }),
        ...(route.schedulerAccess && this.schedules.environment),
      },
      // API Gateway's 29 s: a workflow run bounds itself to answer within it (lib/entities/workflow-definition.ts).
      ...(route.outbound && { timeout: Duration.seconds(29) }),
    });
    this.grantTable(fn, route.tableAccess);
    if (route.permission !== 'public' && route.tableAccess === 'read') this.grantAuditAppend(fn);
    if (route.keyAccess) this.grantCredentialsKey(fn, route.keyAccess);
    if (route.queueAccess) this.tasks.queue.grantSendMessages(fn.role);
    if (route.schedulerAccess) this.schedules.grantScheduling(fn);
    this.routeFunctions.set(route.operationId, fn);
    return fn;
  }
}
