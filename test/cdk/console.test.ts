/**
 * The console as deployed (cdk/console.ts): a private, TLS-only, encrypted
 * bucket that only the distribution reads (origin access control); HTTPS
 * only; the security headers of lib/console/headers.ts on every response,
 * whose policy lets the page reach the issuer people sign in with;
 * the API's paths passed through uncached with every header; the console's
 * URL as a stack output; and the files of the build the local runtime serves
 * uploaded under `console/`.
 */
import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { MockIntegration, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPathPatterns, consoleKeyPrefix, securityHeadersBehaviors, WebConsole } from '../../cdk/console.ts';
import { stageName } from '../../lib/deployment/names.ts';
import { RulesServiceStack, outputNames, stackId } from '../../cdk/stack.ts';
import { buildConsole } from '../../lib/console/build.ts';
import { consolePath, consoleSecurityHeaders, consoleSecurityHeadersFor, contentSecurityPolicyFor } from '../../lib/console/headers.ts';
import { routeList } from '../../lib/api/routes.ts';
import { fastApp, logicalIdOf, rendered, synthesize, type Resources } from './template-checks.ts';

const stack = new RulesServiceStack(fastApp(), stackId);
const template = Template.fromStack(stack).toJSON() as { Resources: Resources; Outputs: Record<string, { Value: unknown }> };
const resources = template.Resources;
const { console: web } = stack;

const ofType = (from: Resources, type: string) => Object.entries(from).filter(([, r]) => r.Type === type);
const bucketId = logicalIdOf(web.bucket);
const logBucketId = logicalIdOf(web.logBucket);
const distributionId = logicalIdOf(web.distribution);
const distribution = resources[distributionId]!.Properties.DistributionConfig;
const policyOf = (id: string) => ofType(resources, 'AWS::S3::BucketPolicy').find(([, p]) => p.Properties.Bucket.Ref === id)![1].Properties.PolicyDocument;
const behaviors = [distribution.DefaultCacheBehavior, ...distribution.CacheBehaviors];
const behaviorFor = (pattern: string) => distribution.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === pattern);
const originOf = (behavior: { TargetOriginId: string }) => distribution.Origins.find((o: { Id: string }) => o.Id === behavior.TargetOriginId);
/** The content security policy of a template's one response headers policy, its references as `${Id}` (template-checks' `rendered`). */
const contentSecurityPolicyOf = (from: Resources) => {
  const [, policy] = ofType(from, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
  return rendered(policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
};
/** The stack's own user pool: its issuer's origin, and its hosted sign-in's, where Cognito serves /oauth2/token and /oauth2/revoke. */
const cognitoOrigins = [
  'https://cognito-idp.${AWS::Region}.${AWS::URLSuffix}',
  `https://\${${ofType(resources, 'AWS::Cognito::UserPoolDomain')[0]![0]}}.auth.\${AWS::Region}.amazoncognito.com`,
];

/** A CloudFront path pattern as a regular expression (`*` any characters, `?` one). */
const patternRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replaceAll('*', '.*')
      .replaceAll('?', '.')}$`,
  );

describe('console bucket', () => {
  it('is private, TLS-only and encrypted, not a website, and logs its access', () => {
    const bucket = resources[bucketId]!;
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LoggingConfiguration: { DestinationBucketName: { Ref: logBucketId } },
    });
    expect(bucket.Properties.WebsiteConfiguration).toBeUndefined();
    expect(policyOf(bucketId).Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Principal: { AWS: '*' }, Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    // Retained, as the table, the key and the log groups are.
    expect((bucket as { DeletionPolicy?: string }).DeletionPolicy).toBe('Retain');
  });

  it('is read by this distribution only, through origin access control', () => {
    const controls = ofType(resources, 'AWS::CloudFront::OriginAccessControl');
    expect(controls).toHaveLength(1);
    const [controlId, control] = controls[0]!;
    expect(control.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    // Its name is the account's: the region keeps a second region's stack from taking it.
    expect(JSON.stringify(control.Properties.OriginAccessControlConfig.Name)).toContain('"Ref":"AWS::Region"');
    expect(originOf(distribution.DefaultCacheBehavior)).toMatchObject({
      DomainName: { 'Fn::GetAtt': [bucketId, 'RegionalDomainName'] },
      OriginAccessControlId: { 'Fn::GetAtt': [controlId, 'Id'] },
      S3OriginConfig: { OriginAccessIdentity: '' },
    });
    const allows = policyOf(bucketId).Statement.filter((s: { Effect: string }) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    const distributionArn = {
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudfront::', { Ref: 'AWS::AccountId' }, ':distribution/', { Ref: distributionId }]],
    };
    expect(allows[0]).toEqual({
      Effect: 'Allow',
      Principal: { Service: 'cloudfront.amazonaws.com' },
      Action: 's3:GetObject',
      Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] },
      Condition: { StringEquals: { 'AWS:SourceArn': distributionArn } },
    });
  });
});

describe('distribution', () => {
  it('takes HTTPS only: the page redirects to it, the API refuses plain HTTP', () => {
    expect(distribution.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    for (const behavior of distribution.CacheBehaviors) expect(behavior.ViewerProtocolPolicy, behavior.PathPattern).toBe('https-only');
    for (const origin of distribution.Origins.filter((o: { CustomOriginConfig?: unknown }) => o.CustomOriginConfig)) {
      expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    }
    expect(distribution.HttpVersion).toBe('http2and3');
  });

  it("sends lib/console/headers.ts's security headers, the CSP among them, on every response", () => {
    const policies = ofType(resources, 'AWS::CloudFront::ResponseHeadersPolicy');
    expect(policies).toHaveLength(1);
    const [policyId, policy] = policies[0]!;
    const config = policy.Properties.ResponseHeadersPolicyConfig;
    expect(config.SecurityHeadersConfig.ContentSecurityPolicy.Override).toBe(true);
    // Every header, as the browser gets it, equals the local runtime's, with the stack's issuer to reach.
    const hsts = config.SecurityHeadersConfig.StrictTransportSecurity;
    const sent = {
      'content-security-policy': contentSecurityPolicyOf(resources),
      'x-content-type-options': 'nosniff',
      'x-frame-options': config.SecurityHeadersConfig.FrameOptions.FrameOption,
      'referrer-policy': config.SecurityHeadersConfig.ReferrerPolicy.ReferrerPolicy,
      'strict-transport-security': `max-age=${hsts.AccessControlMaxAgeSec}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}${hsts.Preload ? '; preload' : ''}`,
      ...Object.fromEntries(config.CustomHeadersConfig.Items.map((item: { Header: string; Value: string }) => [item.Header, item.Value])),
    };
    expect(sent).toEqual(consoleSecurityHeadersFor(cognitoOrigins));
    expect(config.SecurityHeadersConfig.ContentTypeOptions).toEqual({ Override: true });
    expect(JSON.stringify(config.Name)).toContain('"Ref":"AWS::Region"');
    for (const behavior of behaviors) expect(behavior.ResponseHeadersPolicyId, behavior.PathPattern ?? 'default').toEqual({ Ref: policyId });
  });

  it("lets the page reach the stack's user pool: its issuer and its hosted sign-in", () => {
    expect(contentSecurityPolicyOf(resources)).toContain(`connect-src 'self' ${cognitoOrigins.join(' ')};`);
  });

  it("lets the page reach an issuer the deployer names, by its URL's origin, and nothing else", () => {
    const { resources: external } = synthesize({ signIn: { issuerUrl: 'https://login.example.com:8443/oauth2/default', clientId: '0oa1example' } });
    expect(contentSecurityPolicyOf(external)).toBe(contentSecurityPolicyFor(['https://login.example.com:8443']));
    expect(contentSecurityPolicyOf(external)).toContain("connect-src 'self' https://login.example.com:8443;");
  });

  it('refuses headers CloudFront cannot send as written', () => {
    expect(() => securityHeadersBehaviors({ ...consoleSecurityHeaders, 'strict-transport-security': 'max-age=forever' })).toThrow(/strict-transport-security/);
    expect(() => securityHeadersBehaviors({ ...consoleSecurityHeaders, 'x-frame-options': 'ALLOW-FROM https://example.com' })).toThrow(/x-frame-options/);
  });

  it('passes /dev/* and /openapi.json to the API stage, uncached, every method, with every viewer header', () => {
    expect(apiPathPatterns.sort()).toEqual(['/dev/*', '/openapi.json']);
    expect(distribution.CacheBehaviors).toHaveLength(apiPathPatterns.length);
    for (const pattern of apiPathPatterns) {
      const behavior = behaviorFor(pattern);
      expect(behavior, pattern).toMatchObject({
        CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
        // All viewer headers (Service-API-Key, Service-Branch...), query strings and cookies; the Host is the API's.
        OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      });
      const origin = originOf(behavior);
      expect(origin.OriginPath).toBe(`/${stageName}`);
      // The API's own host name, from its id (its URL would tie the distribution to the stage, and so to every function).
      expect(origin.DomainName).toEqual({
        'Fn::Join': [
          '',
          [{ Ref: stack.getLogicalId(stack.api.node.defaultChild as CfnElement) }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }],
        ],
      });
      expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    }
    // Every route is the API's; the console's files are the bucket's.
    for (const { path } of routeList)
      expect(
        apiPathPatterns.some((pattern) => patternRegExp(pattern).test(path)),
        path,
      ).toBe(true);
    for (const path of [consolePath, `${consolePath}app.js`, '/'])
      expect(
        apiPathPatterns.some((pattern) => patternRegExp(pattern).test(path)),
        path,
      ).toBe(false);
  });

  it('serves /console/ as the page and sends / and /console there', () => {
    const functions = ofType(resources, 'AWS::CloudFront::Function');
    expect(functions).toHaveLength(1);
    const [functionId, fn] = functions[0]!;
    const handler = runInNewContext(`${fn.Properties.FunctionCode}; handler`) as (event: { request: { uri: string } }) => unknown;
    const requestFor = (uri: string) => handler({ request: { uri } });
    expect(requestFor(consolePath)).toEqual({ uri: `${consolePath}index.html` });
    expect(requestFor(`${consolePath}app.js`)).toEqual({ uri: `${consolePath}app.js` });
    for (const uri of ['/', '/console']) {
      expect(requestFor(uri)).toEqual({ statusCode: 302, statusDescription: 'Found', headers: { location: { value: consolePath } } });
    }
    expect(distribution.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
    ]);
    // Error pages would replace the API's error envelopes too.
    expect(distribution.CustomErrorResponses).toBeUndefined();
  });

  it('logs to the log bucket, which keeps logs three months', () => {
    expect(distribution.Logging).toEqual({ Bucket: { 'Fn::GetAtt': [logBucketId, 'RegionalDomainName'] }, Prefix: 'distribution/' });
    expect(resources[logBucketId]!.Properties.LifecycleConfiguration).toEqual({ Rules: [{ ExpirationInDays: 90, Status: 'Enabled' }] });
  });

  it('has its console URL as the ConsoleUrl output', () => {
    expect(outputNames.consoleUrl).toBe('ConsoleUrl');
    expect(template.Outputs[outputNames.consoleUrl]!.Value).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, consolePath]],
    });
  });
});

describe('deployment', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'rules-console-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('uploads the built index.html, app.js, app.css, the worker and the chunks under console/, revalidated on every load', async () => {
    // A stack of the console alone, so that its asset is built (the service's functions are not).
    const app = new App({
      outdir,
      context: JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context,
      builtinCloudFormationValidation: false,
    });
    const probe = new Stack(app, 'ConsoleProbe');
    const api = new RestApi(probe, 'Api', { deployOptions: { stageName } });
    api.root.addMethod('GET', new MockIntegration());
    new WebConsole(probe, 'Console', { api, signInOrigins: [] });
    const { Resources: probeResources } = app.synth().getStackByName('ConsoleProbe').template as { Resources: Resources };
    const [, deployment] = ofType(probeResources, 'Custom::CDKBucketDeployment')[0]!;
    expect(deployment.Properties).toMatchObject({ DestinationBucketKeyPrefix: consoleKeyPrefix, Prune: true, SystemMetadata: { 'cache-control': 'no-cache' } });
    expect(consoleKeyPrefix).toBe('console/');
    const [zip] = deployment.Properties.SourceObjectKeys as string[];
    const folder = join(outdir, `asset.${zip!.replace(/\.zip$/, '')}`);
    // The very files the local runtime serves: the page, its script and style, the draft check's worker, and the chunks loaded on demand.
    const built = await buildConsole();
    expect(readdirSync(folder).sort()).toEqual([...built.keys()].sort());
    expect([...built.keys()]).toEqual(
      expect.arrayContaining(['app.css', 'app.js', 'draft-check-worker.js', 'index.html', expect.stringMatching(/^rename-\w+\.js$/)]),
    );
    for (const [name, file] of built) expect(readFileSync(join(folder, name)).equals(file.body), name).toBe(true);
  }, 30_000);
});
