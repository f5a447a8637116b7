/**
 * Who people sign in with, in the template: by default the stack's own
 * Cognito user pool (invited people only, MFA and threat protection enforced,
 * strong passwords, kept when the stack goes) with the console's app client
 * (authorization code with PKCE, no secret, sent back only to the console
 * and the CLI's loopback) and its hosted sign-in; or an OpenID Connect issuer the deployer names, in
 * props or `-c` context, with no user pool at all. Either way every route's
 * function is told the issuer, the audience and the groups claim, and the
 * sign-out page where the issuer's discovery names none; cdk-nag finds
 * nothing.
 */
import { CfnParameter, Stack } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { SignIn } from '../../cdk/sign-in.ts';
import { RulesServiceStack, outputNames, stackId } from '../../cdk/stack.ts';
import { routeList } from '../../lib/api/routes.ts';
import { cliSignInRedirect } from '../../lib/deployment/names.ts';
import { fastApp, logicalIdOf, resourcesOf, synthesize, type Resources } from './template-checks.ts';

const ofType = (resources: Resources, type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

/** The environment every route function is given, by operation id. */
const functionEnvironments = (stack: RulesServiceStack, resources: Resources) =>
  routeList.map((route) => {
    const fn = stack.routeFunctions.get(route.operationId)!;
    return resources[logicalIdOf(fn.function)]!.Properties.Environment.Variables as Record<string, unknown>;
  });

const nagFindings = (stack: RulesServiceStack) => new AwsSolutionsChecks().validateScope(stack).violations.map((v) => v.ruleName);

describe("the stack's own user pool (the default)", () => {
  const { stack, resources } = synthesize();
  const [poolId, pool] = ofType(resources, 'AWS::Cognito::UserPool')[0] as [string, { Properties: any; DeletionPolicy?: string }];

  it('takes invited people only, by e-mail, with a strong password, a one-time code and threat protection, and is kept when the stack goes', () => {
    expect(ofType(resources, 'AWS::Cognito::UserPool')).toHaveLength(1);
    expect(pool.Properties).toMatchObject({
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UsernameAttributes: ['email'],
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
      DeletionProtection: 'ACTIVE',
      Policies: { PasswordPolicy: { MinimumLength: 14, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true } },
    });
    expect(pool.DeletionPolicy).toBe('Retain');
  });

  it("has the console's app client: authorization code only, no secret, sent back to the console and the CLI's loopback alone, short-lived tokens that can be revoked", () => {
    const clients = ofType(resources, 'AWS::Cognito::UserPoolClient');
    expect(clients).toHaveLength(1);
    const client = clients[0]![1].Properties;
    expect(client).toMatchObject({
      UserPoolId: { Ref: poolId },
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid', 'email', 'profile'],
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
    });
    expect(client.ExplicitAuthFlows ?? ['ALLOW_REFRESH_TOKEN_AUTH']).toEqual(['ALLOW_REFRESH_TOKEN_AUTH']);
    const consoleUrl = stack.resolve(stack.console.url);
    // Cognito takes http for localhost only: the CLI's redirect is the one the API names to it.
    expect(client.CallbackURLs).toEqual([consoleUrl, 'http://localhost:53682/callback']);
    expect(cliSignInRedirect).toBe('http://localhost:53682/callback');
    expect(client.LogoutURLs).toEqual([consoleUrl]);
    expect(ofType(resources, 'AWS::Cognito::UserPoolDomain')).toHaveLength(1);
  });

  it("tells every route's function the pool's issuer, the client as audience, cognito:groups and the hosted sign-out, and outputs them", () => {
    const issuer = { 'Fn::Join': ['', ['https://cognito-idp.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/', { Ref: poolId }]] };
    const audience = { Ref: ofType(resources, 'AWS::Cognito::UserPoolClient')[0]![0] };
    // Cognito's discovery names no end_session_endpoint: its hosted sign-in's /logout.
    const domainId = ofType(resources, 'AWS::Cognito::UserPoolDomain')[0]![0];
    const signOutUrl = { 'Fn::Join': ['', ['https://', { Ref: domainId }, '.auth.', { Ref: 'AWS::Region' }, '.amazoncognito.com/logout']] };
    for (const environment of functionEnvironments(stack, resources))
      expect(environment).toMatchObject({ OIDC_ISSUER: issuer, OIDC_AUDIENCE: audience, OIDC_GROUPS_CLAIM: 'cognito:groups', OIDC_SIGN_OUT_URL: signOutUrl });
    const outputs = stack.resolve(Object.fromEntries(stack.node.children.filter((c) => 'value' in c).map((c) => [c.node.id, (c as any).value])));
    expect(outputs[outputNames.signInIssuer]).toEqual(issuer);
    expect(outputs[outputNames.hostedSignInUrl]).toBeDefined();
  });

  it('leaves cdk-nag nothing to find', () => {
    expect(nagFindings(stack)).toEqual([]);
  });
});

describe('an issuer the deployer names', () => {
  const external = { issuerUrl: 'https://login.example.com/oauth2/default', clientId: '0oa1example', groupsClaim: 'roles' };

  it('in props: no user pool; every function is told that issuer, client and claim, and no sign-out page (its discovery names it)', () => {
    const { stack, resources } = synthesize({ signIn: external });
    expect(ofType(resources, 'AWS::Cognito::UserPool')).toEqual([]);
    expect(ofType(resources, 'AWS::Cognito::UserPoolClient')).toEqual([]);
    for (const environment of functionEnvironments(stack, resources)) {
      expect(environment).toMatchObject({ OIDC_ISSUER: external.issuerUrl, OIDC_AUDIENCE: external.clientId, OIDC_GROUPS_CLAIM: 'roles' });
      expect(environment.OIDC_SIGN_OUT_URL).toBeUndefined();
    }
    expect(nagFindings(stack)).toEqual([]);
  });

  it('in context (-c signInIssuer=… -c signInClientId=…), the groups claim `groups` unless named, and the sign-out page when named', () => {
    const app = fastApp();
    app.node.setContext('signInIssuer', external.issuerUrl);
    app.node.setContext('signInClientId', external.clientId);
    app.node.setContext('signInSignOutUrl', 'https://login.example.com/logout');
    const stack = new RulesServiceStack(app, stackId);
    const resources = resourcesOf(stack);
    expect(ofType(resources, 'AWS::Cognito::UserPool')).toEqual([]);
    expect(functionEnvironments(stack, resources)[0]).toMatchObject({
      OIDC_ISSUER: external.issuerUrl,
      OIDC_GROUPS_CLAIM: 'groups',
      OIDC_SIGN_OUT_URL: 'https://login.example.com/logout',
    });
  });

  it("names that issuer's origin for the console's page to reach, also when its URL is known at deploy time only", () => {
    const stack = new Stack(fastApp(), 'SignInProbe');
    const consoleUrl = 'https://console.example.com/console/';
    expect(new SignIn(stack, 'Known', { external, consoleUrl }).origins).toEqual(['https://login.example.com']);
    const issuerUrl = new CfnParameter(stack, 'Issuer').valueAsString;
    expect(stack.resolve(new SignIn(stack, 'Parameter', { external: { ...external, issuerUrl }, consoleUrl }).origins)).toEqual([
      { 'Fn::Join': ['', ['https://', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'Issuer' }] }] }]] },
    ]);
  });

  it('is refused without its client id, when it is not an https URL, and with a sign-out page that is not https or without an issuer', () => {
    const app = fastApp();
    app.node.setContext('signInIssuer', external.issuerUrl);
    expect(() => new RulesServiceStack(app, stackId)).toThrow(/signInIssuer and signInClientId go together/);
    expect(() => synthesize({ signIn: { ...external, issuerUrl: 'http://login.example.com' } })).toThrow(/https URL/);
    expect(() => synthesize({ signIn: { ...external, signOutUrl: 'http://login.example.com/logout' } })).toThrow(/signInSignOutUrl must be an https URL/);
    const alone = fastApp();
    alone.node.setContext('signInSignOutUrl', 'https://login.example.com/logout');
    expect(() => new RulesServiceStack(alone, stackId)).toThrow(/signInSignOutUrl is the sign-out page of the issuer signInIssuer names/);
  });
});
