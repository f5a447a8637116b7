/**
 * The web console, deployed: its files (built by `lib/console/build.ts`, the
 * build the local runtime serves) in a private bucket, and a CloudFront
 * distribution in front of both the bucket and the REST API, so the page and
 * the API it calls share one HTTPS origin and need no CORS. Every response
 * carries the console's security headers, read from `lib/console/headers.ts`
 * as the local runtime sends them, its content security policy letting the
 * page reach the issuer people sign in with. The bucket's and the
 * distribution's access logs go to a log bucket of their own.
 */
import { AssetHashType, Aws, Duration, DockerImage, Names, Stack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  S3OriginAccessControl,
  ViewerProtocolPolicy,
  type BehaviorOptions,
  type ResponseHeadersPolicyProps,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildConsoleSync } from '../lib/console/build.ts';
import { consolePath, consoleSecurityHeaders, consoleSecurityHeadersFor } from '../lib/console/headers.ts';
import { routeList } from '../lib/api/routes.ts';
import { stageName } from '../lib/deployment/names.ts';
import { InlinePolicyRole } from './inline-policy-role.ts';
import { projectRoot } from './service-function.ts';

/**
 * The distribution's path patterns that go to the API: `/<first segment>/*`
 * for the routes under one (`/dev/*`), the path itself for the others
 * (`/openapi.json`). Everything else is the console's bucket.
 */
export const apiPathPatterns = [...new Set(routeList.map(({ path }) => (path.indexOf('/', 1) > 0 ? `${path.slice(0, path.indexOf('/', 1))}/*` : path)))];

/** The key prefix of the console's files in the bucket: the distribution's `/console/` is the bucket's `console/`. */
export const consoleKeyPrefix = consolePath.slice(1);

const enumValue = <T extends string>(values: Record<string, T>, value: string, header: string): T => {
  const found = Object.values(values).find((v) => v === value);
  if (!found) throw new Error(`${header}: CloudFront has no setting for "${value}"`);
  return found;
};

/**
 * The console's security headers (`consoleSecurityHeadersFor`) as a response
 * headers policy: the headers CloudFront knows as security headers in their
 * own settings (it refuses them as custom headers), every other one as a
 * custom header. Each overrides what an origin may send.
 */
export function securityHeadersBehaviors(
  headers: Readonly<Record<keyof typeof consoleSecurityHeaders, string>> & Readonly<Record<string, string>>,
): Pick<ResponseHeadersPolicyProps, 'securityHeadersBehavior' | 'customHeadersBehavior'> {
  const {
    'content-security-policy': contentSecurityPolicy,
    'strict-transport-security': hsts,
    'x-content-type-options': contentTypeOptions,
    'x-frame-options': frameOption,
    'referrer-policy': referrerPolicy,
    ...custom
  } = headers;
  const hstsParts = /^max-age=(\d+)(; includeSubDomains)?(; preload)?$/.exec(hsts);
  if (!hstsParts) throw new Error(`strict-transport-security: "${hsts}" is not max-age=<seconds>[; includeSubDomains][; preload]`);
  if (contentTypeOptions !== 'nosniff') throw new Error(`x-content-type-options: CloudFront sends nosniff only, not "${contentTypeOptions}"`);
  return {
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy, override: true },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(Number(hstsParts[1])),
        includeSubdomains: hstsParts[2] !== undefined,
        preload: hstsParts[3] !== undefined,
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: enumValue(HeadersFrameOption, frameOption, 'x-frame-options'), override: true },
      referrerPolicy: { referrerPolicy: enumValue(HeadersReferrerPolicy, referrerPolicy, 'referrer-policy'), override: true },
    },
    customHeadersBehavior: { customHeaders: Object.entries(custom).map(([header, value]) => ({ header, value, override: true })) },
  };
}

/**
 * What the bucket cannot do for itself (a REST origin has no index
 * documents): `/console/` is the page, and `/` and `/console` send the
 * browser there, as the local runtime does.
 */
const entryRequests = `function handler(event) {
  var request = event.request;
  if (request.uri === ${JSON.stringify(consolePath)}) {
    request.uri = ${JSON.stringify(`${consolePath}index.html`)};
    return request;
  }
  if (request.uri === '/' || request.uri === ${JSON.stringify(consolePath.slice(0, -1))}) {
    return { statusCode: 302, statusDescription: 'Found', headers: { location: { value: ${JSON.stringify(consolePath)} } } };
  }
  return request;
}`;

export interface WebConsoleProps {
  /** The API the console calls, served by the distribution under `apiPathPatterns`. */
  readonly api: RestApi;
  /** The issuer's origins the page calls to sign people in (`SignIn.origins`): its content security policy's connect-src. */
  readonly signInOrigins: readonly string[];
}

export class WebConsole extends Construct {
  readonly bucket: Bucket;
  /** The console bucket's server access logs (`bucket/`) and the distribution's standard logs (`distribution/`). */
  readonly logBucket: Bucket;
  readonly distribution: Distribution;
  readonly responseHeadersPolicy: ResponseHeadersPolicy;
  readonly deployment: BucketDeployment;
  /** BucketDeployment's handler: a singleton at the stack's root, shared by every BucketDeployment of the stack; it runs at deploy time only. */
  readonly deploymentHandler: LambdaFunction;
  /** `https://<distribution domain>/console/` */
  readonly url: string;

  constructor(scope: Construct, id: string, { api, signInOrigins }: WebConsoleProps) {
    super(scope, id);

    const privateBucket = { blockPublicAccess: BlockPublicAccess.BLOCK_ALL, enforceSSL: true, encryption: BucketEncryption.S3_MANAGED };
    this.logBucket = new Bucket(this, 'Logs', {
      ...privateBucket,
      // CloudFront's standard logs are written with an ACL: the bucket must accept ACLs, and owns what they grant it.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      // As long as the API's access logs.
      lifecycleRules: [{ expiration: Duration.days(RetentionDays.THREE_MONTHS) }],
    });
    this.bucket = new Bucket(this, 'Bucket', { ...privateBucket, serverAccessLogsBucket: this.logBucket, serverAccessLogsPrefix: 'bucket/' });

    // CloudFront's names are the account's, across regions: with the region in them,
    // the stack deploys to a second region of the same account (CDK does the same for the function).
    const accountWideName = `${Names.uniqueResourceName(this, { maxLength: 40 })}-${Aws.REGION}`;
    this.responseHeadersPolicy = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      responseHeadersPolicyName: accountWideName,
      comment: 'The console security headers of lib/console/headers.ts',
      ...securityHeadersBehaviors(consoleSecurityHeadersFor(signInOrigins)),
    });
    const apiBehavior: BehaviorOptions = {
      // The API's own domain, named from its id: RestApiOrigin reads the stage's URL, and the stage, through its methods and their
      // functions, depends on the sign-in client whose callback is this distribution.
      origin: new HttpOrigin(`${api.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`, {
        originPath: `/${stageName}`,
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      }),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Every viewer header, the API's Service-API-Key and Service-Branch among them; the Host must be the API's own.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: this.responseHeadersPolicy,
    };
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Rules service console, with the API on the same origin',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket, {
          originAccessControl: new S3OriginAccessControl(this, 'OriginAccess', { originAccessControlName: accountWideName }),
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeadersPolicy,
        functionAssociations: [
          {
            function: new CloudFrontFunction(this, 'EntryRequests', { code: FunctionCode.fromInline(entryRequests), runtime: FunctionRuntime.JS_2_0 }),
            eventType: FunctionEventType.VIEWER_REQUEST,
          },
        ],
      },
      additionalBehaviors: Object.fromEntries(apiPathPatterns.map((pattern) => [pattern, apiBehavior])),
      // No errorResponses: they would apply to the API's behaviors too and replace its error envelopes.
      httpVersion: HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'distribution/',
    });
    this.url = `https://${this.distribution.distributionDomainName}${consolePath}`;

    // The deployment's handler gets a role (its grants inline) and a log group of its own, as every
    // function of the stack does, instead of one with AWSLambdaBasicExecutionRole.
    const deploymentLogs = new LogGroup(this, 'DeploymentLogs', { retention: RetentionDays.ONE_MONTH });
    const deploymentRole = new InlinePolicyRole(this, 'DeploymentRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Copies the console files into their bucket at deploy time',
    });
    deploymentLogs.grantWrite(deploymentRole);
    this.deployment = new BucketDeployment(this, 'Deployment', {
      sources: [
        Source.asset(join(projectRoot, 'lib', 'console'), {
          assetHashType: AssetHashType.OUTPUT,
          bundling: {
            // Never used: esbuild is a dependency of the project, so the console is always built locally (no Docker).
            image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-slim'),
            local: {
              tryBundle(outputDir) {
                for (const [name, file] of buildConsoleSync()) writeFileSync(join(outputDir, name), file.body);
                return true;
              },
            },
          },
        }),
      ],
      destinationBucket: this.bucket,
      destinationKeyPrefix: consoleKeyPrefix,
      // The page, app.js and app.css carry no content hash (only the chunks do): every file is revalidated (ETag),
      // as the local runtime serves them, so a new page never runs with an old script and the deployment needs no invalidation.
      cacheControl: [CacheControl.noCache()],
      role: deploymentRole,
      logGroup: deploymentLogs,
    });
    this.deploymentHandler = Stack.of(this).node.children.find(
      (child): child is LambdaFunction => child instanceof LambdaFunction && child.node.id.startsWith('Custom::CDKBucketDeployment'),
    )!;

    // cdk-nag findings accepted on purpose, each on the resource it concerns.
    const bucketId = Stack.of(this).resolve((this.bucket.node.defaultChild as CfnBucket).logicalId) as string;
    const deploymentGrant = (what: string) =>
      `BucketDeployment's own grants to its handler, which fetches the zipped build from the CDK asset bucket and mirrors it into the console bucket with aws s3 sync: ${what}`;
    const readGroup = deploymentGrant("CDK's read action group (grantRead, grantReadWrite), on those two buckets only.");
    const writeGroup = deploymentGrant("CDK's write action group (grantReadWrite): sync deletes what the build no longer has; on the console bucket only.");
    Validations.of(deploymentRole).acknowledge(
      { id: 'AwsSolutions-IAM5[Action::s3:GetObject*]', reason: readGroup },
      { id: 'AwsSolutions-IAM5[Action::s3:GetBucket*]', reason: readGroup },
      { id: 'AwsSolutions-IAM5[Action::s3:List*]', reason: readGroup },
      { id: 'AwsSolutions-IAM5[Action::s3:Abort*]', reason: writeGroup },
      { id: 'AwsSolutions-IAM5[Action::s3:DeleteObject*]', reason: writeGroup },
      {
        id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
        reason: deploymentGrant('the objects of the asset bucket, whose key for this build is known only when the asset is published.'),
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/*]`,
        reason: deploymentGrant('the objects of the console bucket, every one of which it may write or delete.'),
      },
    );
    Validations.of(this.deploymentHandler).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        "BucketDeployment's handler: aws-cdk-lib chooses its runtime (Python, with the AWS CLI layer) and updates it with the library; it runs during deployments only, never on a request.",
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'No geo restriction: the people of a workspace sign in from wherever they work, and every API call behind the page needs their API key.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          "No WAF web ACL yet: a CloudFront web ACL lives in us-east-1, which this region-agnostic stack cannot create; the files are static and the API behind /dev/* is throttled per method and needs an API key. Revisit with the deployment account, with the API stage's.",
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          "Served on the distribution's cloudfront.net name with CloudFront's default certificate, whose security policy AWS fixes (TLSv1) whatever MinimumProtocolVersion says; a custom domain with an ACM certificate and TLSv1.2_2021 needs the deployer's domain. Viewers are sent to HTTPS, and browsers negotiate TLS 1.2 or 1.3.",
      },
    );
  }
}
