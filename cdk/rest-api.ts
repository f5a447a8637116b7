/**
 * The REST API, driven by the route table: a Lambda proxy method per route, a
 * mock `ANY` method answering 405 on every path that has methods, and gateway
 * responses that put API Gateway's own answers in envelope form; the stage's
 * throttles (`./limits.ts`); and the stage's alarm on server errors.
 */
import { Aws, Duration } from 'aws-cdk-lib';
import {
  AccessLogField,
  ContentHandling,
  AccessLogFormat,
  EndpointType,
  Integration,
  IntegrationType,
  LogGroupLogDestination,
  MethodLoggingLevel,
  MockIntegration,
  PassthroughBehavior,
  ResponseType,
  RestApi,
  type Method,
} from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { failureEnvelope, requestIdHeader } from '../lib/http/envelope.ts';
import type { GatewayAnswer } from '../lib/http/gateway-responses.ts';
import type { Route } from '../lib/http/route.ts';
import { stageName } from '../lib/deployment/names.ts';
import type { Throttle } from './limits.ts';

/** The stage alarms when at least this many responses in one 5-minute period are 5XX. */
export const serverErrorAlarmThreshold = 5;

const jsonContentType = 'application/json';

/**
 * The envelope of a failure as a response template. API Gateway substitutes
 * `$`-variables in gateway response templates and runs mock integration
 * templates through VTL, so a `$` or `#` in the text would not come out as
 * written: refuse it rather than escape it.
 */
export function envelopeTemplate(answer: GatewayAnswer): string {
  const body = JSON.stringify(failureEnvelope(answer.code, answer.message, {}));
  if (/[$#]/.test(body)) throw new Error(`Gateway answer ${answer.code}: "$" and "#" cannot be used in a template: ${body}`);
  return body;
}

/** The stage's throttle, every method's unless `methods` (keyed `/path/METHOD`, as a route's path and method) names it. */
export interface StageThrottles {
  readonly stage: Throttle;
  readonly methods: Readonly<Record<string, Throttle>>;
}

const throttleSettings = (throttle: Throttle) => ({ throttlingRateLimit: throttle.rateLimit, throttlingBurstLimit: throttle.burstLimit });

export function serviceRestApi(scope: Construct, id: string, throttles: StageThrottles): RestApi {
  const accessLogs = new LogGroup(scope, `${id}AccessLogs`, { retention: RetentionDays.THREE_MONTHS });
  const methodSettings = {
    loggingLevel: MethodLoggingLevel.ERROR,
    // Full request and response logging would write API keys to the logs.
    dataTraceEnabled: false,
    metricsEnabled: true,
  };
  const api = new RestApi(scope, id, {
    description: 'Rule and workflow management',
    endpointTypes: [EndpointType.REGIONAL],
    // Every type is binary: an imported spreadsheet reaches its function intact (base64-encoded, as every body then is:
    // lib/http/input.ts decodes), and an exported one is sent as bytes whatever Accept header the client sends.
    binaryMediaTypes: ['*/*'],
    // Execution logging needs the account-level role that lets API Gateway write to CloudWatch Logs.
    cloudWatchRole: true,
    deployOptions: {
      stageName,
      ...throttleSettings(throttles.stage),
      ...methodSettings,
      // A method's own entry repeats the stage's logging and metrics, so that only its throttle differs.
      methodOptions: Object.fromEntries(
        Object.entries(throttles.methods).map(([method, throttle]) => [method, { ...methodSettings, ...throttleSettings(throttle) }]),
      ),
      // X-Ray: a trace per request, from the stage through the function it invokes (functions trace actively too).
      tracingEnabled: true,
      accessLogDestination: new LogGroupLogDestination(accessLogs),
      accessLogFormat: AccessLogFormat.custom(
        JSON.stringify({
          requestId: AccessLogField.contextRequestId(),
          requestTime: AccessLogField.contextRequestTime(),
          ip: AccessLogField.contextIdentitySourceIp(),
          method: AccessLogField.contextHttpMethod(),
          resourcePath: AccessLogField.contextResourcePath(),
          protocol: AccessLogField.contextProtocol(),
          status: AccessLogField.contextStatus(),
          responseLength: AccessLogField.contextResponseLength(),
          responseLatency: AccessLogField.contextResponseLatency(),
          integrationLatency: AccessLogField.contextIntegrationLatency(),
          errorResponseType: AccessLogField.contextErrorResponseType(),
        }),
      ),
    },
  });
  // RestApi always adds an `Endpoint` output with a generated name; the stack has its own, stable one.
  api.node.tryRemoveChild('Endpoint');
  return api;
}

const pathParameters = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/**
 * The role API Gateway invokes the routes' functions with, which may invoke
 * those functions only, and which only this API may assume. One role and its
 * policy instead of a resource policy on each function: a Lambda permission
 * per function is a resource of its own, and a stack holds 500 at most.
 */
function invokeRole(api: RestApi) {
  return new Role(api, 'InvokeRole', {
    assumedBy: new ServicePrincipal('apigateway.amazonaws.com').withConditions({
      StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
      ArnLike: { 'aws:SourceArn': api.arnForExecuteApi() },
    }),
    description: 'API Gateway invokes the routes functions with it',
  });
}

/** A Lambda proxy integration calling `fn` with the API's invoke role (`invokeRole`), which may invoke it. */
function proxyTo(fn: IFunction, role: Role) {
  role.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }));
  return new Integration({
    type: IntegrationType.AWS_PROXY,
    integrationHttpMethod: 'POST',
    uri: `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}:lambda:path/2015-03-31/functions/${fn.functionArn}/invocations`,
    options: { credentialsRole: role },
  });
}

/** A Lambda proxy method per route, on the resource of the route's path. */
export function addRouteMethods(api: RestApi, routes: readonly Route[], functionFor: (route: Route) => IFunction): Map<Route, Method> {
  // Path parameters are declared required. Bodies are validated only against
  // request models, and no method declares one: the functions validate bodies
  // themselves, so that a bad body gets the function's error envelope.
  const validator = api.addRequestValidator('RequestValidator', { validateRequestParameters: true, validateRequestBody: true });
  const methods = new Map<Route, Method>();
  const role = invokeRole(api);
  for (const route of routes) {
    const method = api.root.resourceForPath(route.path).addMethod(route.method, proxyTo(functionFor(route), role), {
      operationName: route.operationId,
      requestValidator: validator,
      requestParameters: Object.fromEntries(pathParameters(route.path).map((name) => [`method.request.path.${name}`, true])),
    });
    methods.set(route, method);
  }
  return methods;
}

/**
 * An `ANY` method on every path that has methods: API Gateway prefers the
 * specific method, so ANY catches exactly "known path, wrong method", which
 * would otherwise be a 403 Missing Authentication Token.
 */
export function addMethodNotAllowed(api: RestApi, paths: Iterable<string>, answer: GatewayAnswer): Method[] {
  const status = String(answer.status);
  const integration = new MockIntegration({
    requestTemplates: { [jsonContentType]: JSON.stringify({ statusCode: 200 }) },
    // A body of another content type goes to the mock as is; the one (default) response below answers whatever comes back.
    passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
    // Every body is binary to this API (binaryMediaTypes above): as text, the template applies to it as to any JSON body.
    contentHandling: ContentHandling.CONVERT_TO_TEXT,
    integrationResponses: [
      {
        statusCode: status,
        responseTemplates: { [jsonContentType]: envelopeTemplate(answer) },
        responseParameters: { [`method.response.header.${requestIdHeader}`]: 'context.requestId' },
      },
    ],
  });
  return [...new Set(paths)].map((path) =>
    api.root.resourceForPath(path).addMethod('ANY', integration, {
      operationName: 'methodNotAllowed',
      methodResponses: [{ statusCode: status, responseParameters: { [`method.response.header.${requestIdHeader}`]: true } }],
    }),
  );
}

/**
 * A gateway response per entry, keyed by API Gateway's response type. Gateway
 * response headers take request parameters or static values only, not
 * `$context`, so the request id header cannot be set here; API Gateway sends
 * its own `x-amzn-RequestId` on these responses.
 */
export function addGatewayResponses(api: RestApi, answers: Record<string, GatewayAnswer>): void {
  for (const [type, answer] of Object.entries(answers)) {
    api.addGatewayResponse(type, {
      type: ResponseType.of(type),
      statusCode: String(answer.status),
      responseHeaders: { 'content-type': `'${jsonContentType}'` },
      templates: { [jsonContentType]: envelopeTemplate(answer) },
    });
  }
}

/**
 * An alarm on the stage's 5XX responses: the functions' unexpected failures
 * (500 internal_error) and API Gateway's own (a function that timed out, was
 * throttled or crashed). Several in five minutes call for a look; a lone one
 * is left to the access log, which keeps its request id.
 */
export function addServerErrorAlarm(scope: Construct, api: RestApi): Alarm {
  return new Alarm(scope, 'ServerErrorAlarm', {
    alarmDescription: `At least ${serverErrorAlarmThreshold} responses of the API stage were server errors (5XX) in 5 minutes`,
    metric: api.deploymentStage.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
    threshold: serverErrorAlarmThreshold,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    // No requests, no data: quiet, not an error.
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}
