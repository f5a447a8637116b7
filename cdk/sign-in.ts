/**
 * Who people sign in with. By default the stack makes an Amazon Cognito user
 * pool: people are invited by an administrator (no self sign-up), sign in by
 * e-mail with a strong password and a one-time code (MFA required), with
 * Cognito's threat protection enforced (the Plus plan), through the hosted
 * sign-in on a Cognito domain; its groups are the groups a workspace maps to
 * roles (`cognito:groups`). The console's app client uses the authorization
 * code flow with PKCE and no client secret, as a browser app must; the CLI
 * signs people in through the same client, with a loopback redirect.
 *
 * A deployer points the stack at any other OpenID Connect issuer instead
 * (Okta, Entra ID, Auth0; Google Workspace through the pool's federation, docs/deploying.md) with `signIn` in the stack's
 * props or `-c signInIssuer=<url> -c signInClientId=<id>
 * [-c signInGroupsClaim=<claim>] [-c signInSignOutUrl=<url>]`: then no user
 * pool is made.
 *
 * Either way every function is handed the issuer, the audience tokens must
 * name and the claim that holds groups (`environment`), and the issuer's
 * sign-out page where its discovery document names none (Cognito's); the
 * functions verify tokens themselves, against the issuer's published keys.
 * The console's page may call the issuer's origins (`origins`).
 */
import { Aws, Duration, Fn, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import {
  FeaturePlan,
  Mfa,
  OAuthScope,
  StandardThreatProtectionMode,
  UserPool,
  UserPoolClient,
  UserPoolDomain,
  type UserPoolClientProps,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { cliSignInRedirect } from '../lib/deployment/names.ts';

/** An OpenID Connect issuer the deployer runs: its URL (the `iss` of its tokens), the client id tokens are issued to, and the claim that lists a person's groups. */
export interface ExternalIssuer {
  readonly issuerUrl: string;
  readonly clientId: string;
  /** The claim holding the person's groups: `groups` unless said. */
  readonly groupsClaim?: string;
  /** The issuer's sign-out page, for an issuer whose discovery document names no `end_session_endpoint`. */
  readonly signOutUrl?: string;
}

export interface SignInProps {
  /** Another issuer than the stack's own user pool. */
  readonly external?: ExternalIssuer;
  /** Where the issuer may send a person back after sign-in and sign-out: the console (the CLI's loopback redirect is added for sign-in). */
  readonly consoleUrl: string;
}

/** The claim Cognito lists a user's groups in. */
const cognitoGroupsClaim = 'cognito:groups';

/** The external issuer `-c signInIssuer=... -c signInClientId=...` names, if any; one without the other is refused. */
export function externalIssuerOf(scope: Construct): ExternalIssuer | undefined {
  const issuerUrl = scope.node.tryGetContext('signInIssuer') as string | undefined;
  const clientId = scope.node.tryGetContext('signInClientId') as string | undefined;
  const groupsClaim = scope.node.tryGetContext('signInGroupsClaim') as string | undefined;
  const signOutUrl = scope.node.tryGetContext('signInSignOutUrl') as string | undefined;
  if (!issuerUrl && !clientId) {
    if (signOutUrl) throw new Error("signInSignOutUrl is the sign-out page of the issuer signInIssuer names: the stack's own user pool has its own");
    return undefined;
  }
  if (!issuerUrl || !clientId) throw new Error('signInIssuer and signInClientId go together: name both, or neither for the stack to make its own user pool');
  return { issuerUrl, clientId, ...(groupsClaim && { groupsClaim }), ...(signOutUrl && { signOutUrl }) };
}

/** Refuses an issuer URL that is not https (a token's issuer is compared as written: no trailing slash, no query). */
function checkIssuerUrl(url: string) {
  if (Token.isUnresolved(url)) return;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' || parsed.search || parsed.hash) throw new Error(`signInIssuer must be an https URL without query or fragment, not ${url}`);
}

/** An https URL's origin; for a URL known at deploy time only, its scheme and host, which CloudFormation takes apart. */
const originOf = (url: string) => (Token.isUnresolved(url) ? `https://${Fn.select(2, Fn.split('/', url))}` : new URL(url).origin);

/** Refuses a sign-out page that is not https: the console sends people there with its client id. */
function checkSignOutUrl(url: string) {
  if (Token.isUnresolved(url)) return;
  if (!URL.canParse(url) || new URL(url).protocol !== 'https:') throw new Error(`signInSignOutUrl must be an https URL, not ${url}`);
}

export class SignIn extends Construct {
  /** The `iss` of the tokens the API takes. */
  readonly issuer: string;
  /** The audience (`aud`, or Cognito's `client_id`) the tokens must name: the console's app client. */
  readonly clientId: string;
  readonly groupsClaim: string;
  /** The stack's own user pool, unless an external issuer was named. */
  readonly userPool?: UserPool;
  /** The hosted sign-in's base URL, for the stack's own pool. */
  readonly hostedSignInUrl?: string;
  /** The issuer's sign-out page, where its discovery document names no `end_session_endpoint`: the hosted sign-in's `/logout` for the stack's own pool. */
  readonly signOutUrl?: string;
  /**
   * The origins the console's page calls at the issuer (its discovery
   * document and keys, its token and revocation endpoints), which its content
   * security policy lets it reach: the issuer's, and the hosted sign-in's for
   * the stack's own pool, where Cognito serves /oauth2/token and /oauth2/revoke.
   */
  readonly origins: readonly string[];

  constructor(scope: Construct, id: string, { external, consoleUrl }: SignInProps) {
    super(scope, id);
    if (external) {
      checkIssuerUrl(external.issuerUrl);
      this.issuer = external.issuerUrl;
      this.clientId = external.clientId;
      this.groupsClaim = external.groupsClaim ?? 'groups';
      this.origins = [originOf(external.issuerUrl)];
      if (external.signOutUrl) {
        checkSignOutUrl(external.signOutUrl);
        this.signOutUrl = external.signOutUrl;
      }
      return;
    }
    const pool = new UserPool(this, 'People', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      passwordPolicy: { minLength: 14, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true, passwordHistorySize: 12 },
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      featurePlan: FeaturePlan.PLUS,
      standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
      // The people of every workspace: kept when the stack goes, like the table whose approvals and audit records name them.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
    const client: UserPoolClientProps = {
      userPool: pool,
      generateSecret: false,
      authFlows: {},
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.minutes(15),
      idTokenValidity: Duration.minutes(15),
      refreshTokenValidity: Duration.hours(8),
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        // The CLI's loopback redirect: Cognito refuses http but for http://localhost (CreateUserPoolClient's CallbackURLs).
        callbackUrls: [consoleUrl, cliSignInRedirect],
        logoutUrls: [consoleUrl],
      },
    };
    const consoleClient = new UserPoolClient(this, 'ConsoleClient', client);
    const domain = new UserPoolDomain(this, 'HostedSignIn', {
      userPool: pool,
      // Cognito domain prefixes are global: the account id keeps one stack's apart from another's.
      cognitoDomain: { domainPrefix: `${Stack.of(this).stackName.toLowerCase()}-${Aws.ACCOUNT_ID}` },
    });
    this.userPool = pool;
    const issuerOrigin = `https://cognito-idp.${Aws.REGION}.${Aws.URL_SUFFIX}`;
    this.issuer = `${issuerOrigin}/${pool.userPoolId}`;
    this.clientId = consoleClient.userPoolClientId;
    this.groupsClaim = cognitoGroupsClaim;
    this.hostedSignInUrl = domain.baseUrl();
    this.origins = [issuerOrigin, this.hostedSignInUrl];
    // Cognito's discovery document names no end_session_endpoint; its sign-out takes client_id and a logout_uri of the client's LogoutURLs.
    this.signOutUrl = `${this.hostedSignInUrl}/logout`;
  }

  /** What every function is told of sign-in: the issuer, the audience, the groups claim and the sign-out page, if the issuer needs one named. */
  get environment(): Record<string, string> {
    return {
      OIDC_ISSUER: this.issuer,
      OIDC_AUDIENCE: this.clientId,
      OIDC_GROUPS_CLAIM: this.groupsClaim,
      ...(this.signOutUrl && { OIDC_SIGN_OUT_URL: this.signOutUrl }),
    };
  }
}
