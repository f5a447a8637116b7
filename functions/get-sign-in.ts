/**
 * GET /dev/v1/sign-in: who people sign in with, from what the stack tells
 * every function (cdk/sign-in.ts), for the console and the CLI to start a
 * sign-in. Public (a person has no token yet); it reads no table.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { signInConfigFromEnv } from '../lib/auth/person-token.ts';
import { jsonResponse, successEnvelope } from '../lib/http/envelope.ts';
import { cliSignInRedirect, signInScope } from '../lib/deployment/names.ts';

export const handler = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
  const config = signInConfigFromEnv();
  const data = config && {
    issuer: config.issuer,
    clientId: config.audience,
    groupsClaim: config.groupsClaim,
    scope: signInScope,
    ...(config.signOutUrl && { signOutUrl: config.signOutUrl }),
    cliRedirectUris: [cliSignInRedirect],
  };
  return jsonResponse(200, successEnvelope(data ?? null), event.requestContext.requestId, { 'cache-control': 'no-store' });
};
