import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Route } from '../http/route.ts';

export const localStage = 'local';

/** The event API Gateway's REST API sends a Lambda proxy integration for this request. */
export function toProxyEvent(request: IncomingMessage, url: URL, route: Route, pathParameters: Record<string, string>, body: Buffer): APIGatewayProxyEvent {
  // Keyed by the client's names: maps without a prototype, so that "constructor" or "__proto__" is a name like any other.
  const headers: Record<string, string> = Object.create(null);
  const multiValueHeaders: Record<string, string[]> = Object.create(null);
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i]!;
    const value = request.rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  const queryStringParameters: Record<string, string> = Object.create(null);
  const multiValueQueryStringParameters: Record<string, string[]> = Object.create(null);
  for (const [name, value] of url.searchParams) {
    queryStringParameters[name] = value; // API Gateway keeps the last of repeated parameters here
    (multiValueQueryStringParameters[name] ??= []).push(value);
  }
  const hasQuery = url.searchParams.size > 0;
  const hasPathParameters = Object.keys(pathParameters).length > 0;
  const now = Date.now();
  return {
    resource: route.path,
    path: url.pathname,
    httpMethod: route.method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? queryStringParameters : null,
    multiValueQueryStringParameters: hasQuery ? multiValueQueryStringParameters : null,
    pathParameters: hasPathParameters ? pathParameters : null,
    stageVariables: null,
    // The stack declares every media type binary (cdk/rest-api.ts), so API Gateway hands over every body base64-encoded.
    body: body.length > 0 ? body.toString('base64') : null,
    isBase64Encoded: body.length > 0,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      protocol: `HTTP/${request.httpVersion}`,
      httpMethod: route.method,
      identity: localIdentity(request.socket.remoteAddress ?? '127.0.0.1', headers['user-agent'] ?? headers['User-Agent'] ?? null),
      path: `/${localStage}${url.pathname}`,
      stage: localStage,
      requestId: randomUUID(),
      requestTimeEpoch: now,
      resourceId: route.operationId,
      resourcePath: route.path,
    },
  };
}

function localIdentity(sourceIp: string, userAgent: string | null): APIGatewayProxyEvent['requestContext']['identity'] {
  return {
    sourceIp,
    userAgent,
    accessKey: null,
    accountId: null,
    apiKey: null,
    apiKeyId: null,
    caller: null,
    clientCert: null,
    cognitoAuthenticationProvider: null,
    cognitoAuthenticationType: null,
    cognitoIdentityId: null,
    cognitoIdentityPoolId: null,
    principalOrgId: null,
    user: null,
    userArn: null,
  };
}

/** The Lambda context for one invocation of a function: a route's, or one named by its file in functions/. */
export function lambdaContext(fn: Pick<Route, 'handler'>, timeoutMs = 29_000): Context {
  const deadline = Date.now() + timeoutMs;
  const functionName = `local-${fn.handler}`;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
