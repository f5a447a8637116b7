/**
 * One Lambda function of the service, as every function is built: Node.js 22
 * on arm64, bundled with the shared settings of `./bundling.ts`, with its own
 * log group and its own role that may write only to that log group, and X-Ray
 * active tracing, so every invocation has a trace (joined to the API stage's
 * when API Gateway calls it). Whatever else the function may do is granted by
 * the caller (table access, a queue...).
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundling } from './bundling.ts';

/** The repository root: `functions/`, `lib/` and the lock file live here. */
export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export const serviceName = 'rules-service';

/** The runtime matching `bundling.target` (node22). */
export const functionRuntime = Runtime.NODEJS_22_X;

export interface ServiceFunctionProps {
  /** The file in `functions/` (without extension) whose `handler` export is the entry point. */
  readonly handler: string;
  readonly description?: string;
  /** Added to the defaults (POWERTOOLS_SERVICE_NAME). */
  readonly environment?: Record<string, string>;
  /** @default 256 */
  readonly memorySize?: number;
  /** @default 10 seconds */
  readonly timeout?: Duration;
  /** @default one month */
  readonly logRetention?: RetentionDays;
}

export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention ?? RetentionDays.ONE_MONTH });

    // An own role instead of the default one with AWSLambdaBasicExecutionRole,
    // which may write to every log group of the account.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${props.handler}`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: join(projectRoot, 'functions', `${props.handler}.ts`),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      runtime: functionRuntime,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.seconds(10),
      description: props.description,
      role: this.role,
      logGroup: this.logGroup,
      tracing: Tracing.ACTIVE,
      environment: { POWERTOOLS_SERVICE_NAME: serviceName, ...props.environment },
      bundling: {
        minify: bundling.minify,
        format: bundling.format === 'esm' ? OutputFormat.ESM : OutputFormat.CJS,
        target: bundling.target,
        mainFields: [...bundling.mainFields],
        banner: bundling.banner,
        // Bundle everything, the AWS SDK included, so deployed versions are the pinned ones.
        externalModules: [...bundling.external],
        // Off to keep bundles small; with source maps on, NODE_OPTIONS=--enable-source-maps is needed too.
        sourceMap: false,
      },
    });
    // Active tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords to the role's default policy.
    Validations.of(this.role.node.findChild('DefaultPolicy')).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray has no resource-level permissions: xray:PutTraceSegments and xray:PutTelemetryRecords, which active tracing needs, take only Resource "*".',
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Node.js 22 on purpose: the bundles target node22 (cdk/bundling.ts), which the benchmark measures; a newer runtime changes both together.',
    });
  }
}
