/**
 * One Lambda function of the service, as every function is built: Node.js 22
 * on arm64, bundled with the shared settings of `./bundling.ts` (esbuild, in
 * this process: NodejsFunction writes one file, and the functions that load
 * code lazily need its chunks apart), with its own
 * log group and its own role that may write only to that log group, and X-Ray
 * active tracing, so every invocation has a trace (joined to the API stage's
 * when API Gateway calls it). Whatever else the function may do is granted by
 * the caller (table access, a queue...), into the role's one inline policy
 * (`./inline-policy-role.ts`).
 */
import { AssetHashType, DockerImage, Duration, Validations } from 'aws-cdk-lib';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryFile, functionBuildOptions } from './bundling.ts';
import { InlinePolicyRole } from './inline-policy-role.ts';

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
  /** @default none: the function draws on the account's unreserved concurrency */
  readonly reservedConcurrentExecutions?: number;
}

export class ServiceFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: InlinePolicyRole;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention ?? RetentionDays.ONE_MONTH });

    // An own role instead of the default one with AWSLambdaBasicExecutionRole,
    // which may write to every log group of the account; every grant is inline in it (no policy resource of its own).
    this.role = new InlinePolicyRole(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${props.handler}`,
    });
    this.logGroup.grantWrite(this.role);

    const entry = join(projectRoot, 'functions', `${props.handler}.ts`);
    this.function = new LambdaFunction(this, 'Function', {
      // The asset is what esbuild writes; its hash is the output's, so an unchanged bundle is not uploaded again.
      code: Code.fromAsset(join(projectRoot, 'functions'), {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Never used: esbuild is a dependency of the project, so bundling is always local (no Docker).
          image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-slim'),
          // Part of the key CDK caches bundles by (the local bundler is not): without it every function would get the first one's bundle.
          environment: { FUNCTION_ENTRY: `functions/${props.handler}.ts` },
          local: {
            tryBundle(outputDir) {
              buildSync(functionBuildOptions({ entryPoints: [entry] }, outputDir, projectRoot));
              return true;
            },
          },
        },
      }),
      handler: `${entryFile.replace(/\.mjs$/, '')}.handler`,
      runtime: functionRuntime,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.seconds(10),
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      description: props.description,
      role: this.role,
      logGroup: this.logGroup,
      tracing: Tracing.ACTIVE,
      environment: { POWERTOOLS_SERVICE_NAME: serviceName, ...props.environment },
    });
    // Active tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords to the role's inline policy.
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray has no resource-level permissions: xray:PutTraceSegments and xray:PutTelemetryRecords, which active tracing needs, take only Resource "*".',
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Node.js 22 on purpose: the bundles target node22 (cdk/bundling.ts), which the benchmark measures; a newer runtime changes both together.',
    });
  }
}
