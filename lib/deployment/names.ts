/**
 * The names a deployed stack and its clients share: the stack declares its
 * outputs and its API stage with them, and the CLI and the OpenAPI document
 * read them; the local runtime's table and endpoint, which the CLI targets
 * by default, are named here too. They live in lib, not cdk/, so that no runtime code imports
 * the stack's code; this file imports nothing.
 */
export const stackName = 'RulesService';

export const stackOutputs = {
  /** The stage URL, ending in `/`; route paths are appended to it. */
  apiUrl: 'ApiUrl',
  tableName: 'TableName',
  /** Subscribe to it for alarm notifications (or deploy with `-c alarmEmail=...`). */
  alarmTopicArn: 'AlarmTopicArn',
  /** `https://<distribution domain>/console/`: the API is under the same origin. */
  consoleUrl: 'ConsoleUrl',
  /** The OpenID Connect issuer people sign in with (the `iss` of their tokens). */
  signInIssuer: 'SignInIssuer',
  /** The console's client id at that issuer: the audience of the tokens the API takes. */
  signInClientId: 'SignInClientId',
  /** The stack's own user pool's hosted sign-in, when it made one. */
  hostedSignInUrl: 'HostedSignInUrl',
} as const;

/** The stage every route is deployed to: URLs are `<api>/<stageName>/dev/v1/...`. */
export const stageName = 'api';

/** The local runtime's table (npm start), and where its DynamoDB listens by default: the CLI's default target. */
export const localTableName = 'rules-local';
export const defaultLocalEndpoint = 'http://127.0.0.1:8000';

/** The local OpenID provider's client id for the console and the CLI (lib/local/openid-provider.ts); deployed, the issuer names it. */
export const signInClientId = 'rules-console';

/** The scopes people's sign-ins ask for: the ID token then names their e-mail, name and groups (the stack's user pool client allows these three). */
export const signInScope = 'openid email profile';

/**
 * Where the CLI's sign-in comes back to (RFC 8252's loopback redirect): one
 * fixed port, since Cognito takes only callback URLs registered to the
 * letter, and http only on localhost. `cliSignInRedirect` is the one every
 * issuer takes: the stack registers it on the console's client beside the
 * console's URL (another issuer must too), and the API names it to the CLI
 * (GET /dev/v1/sign-in), which serves it on 127.0.0.1. The local provider
 * takes 127.0.0.1 as well, which RFC 8252 §8.3 prefers.
 */
export const cliSignInPort = 53682;
export const cliSignInRedirect = `http://localhost:${cliSignInPort}/callback`;
export const cliSignInRedirects = [cliSignInRedirect, `http://127.0.0.1:${cliSignInPort}/callback`] as const;
