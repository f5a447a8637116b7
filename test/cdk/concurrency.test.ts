/**
 * What callers can take of the account's Lambda concurrency (cdk/limits.ts):
 * every API method throttled, the routes that call out to providers lower,
 * so that all of them at full rate and burst, each request held for its
 * function's whole timeout, stay within half the pool of an account whose
 * limit AWS has not raised; every queue consumer bounded by its event
 * source; and no reservation unless the deployer asks for one, so that the
 * stack deploys on a new account.
 */
import { describe, expect, it } from 'vitest';
import { defaultLimits } from '../../cdk/limits.ts';
import { routeList } from '../../lib/api/routes.ts';
import { logicalIdOf, synthesize, type Resources } from './template-checks.ts';

/** The concurrency of an account and region whose limit AWS has not raised: every function there draws on it. */
const defaultAccountConcurrency = 1000;

const { stack, resources } = synthesize();

const ofType = (from: Resources, type: string) => Object.entries(from).filter(([, r]) => r.Type === type);
const methodSettingsOf = (from: Resources) => ofType(from, 'AWS::ApiGateway::Stage')[0]![1].Properties.MethodSettings as Record<string, unknown>[];
/** A route's path as a stage's method settings name it. */
const settingsPath = (path: string) => `/${path.replaceAll('/', '~1')}`;
const outboundRoutes = routeList.filter((route) => route.outbound === 'trying');

describe('API throttles', () => {
  it('throttle every method of the stage, each on its own', () => {
    expect(methodSettingsOf(resources)[0]).toMatchObject({
      HttpMethod: '*',
      ResourcePath: '/*',
      ThrottlingRateLimit: defaultLimits.api.rateLimit,
      ThrottlingBurstLimit: defaultLimits.api.burstLimit,
    });
  });

  it('throttle each route that calls out to providers lower, and no other route', () => {
    expect(outboundRoutes.length).toBeGreaterThan(0);
    const own = methodSettingsOf(resources).slice(1);
    expect(own).toHaveLength(outboundRoutes.length);
    for (const route of outboundRoutes) {
      expect(own, route.operationId).toContainEqual(
        expect.objectContaining({
          HttpMethod: route.method,
          ResourcePath: settingsPath(route.path),
          ThrottlingRateLimit: defaultLimits.outbound.rateLimit,
          ThrottlingBurstLimit: defaultLimits.outbound.burstLimit,
        }),
      );
    }
    expect(defaultLimits.outbound.rateLimit).toBeLessThan(defaultLimits.api.rateLimit);
  });

  it('keep the routes that call out within half the default account concurrency, every request held for its whole timeout', () => {
    const worstCase = outboundRoutes.map((route) => {
      const fn = stack.routeFunctions.get(route.operationId)!;
      const timeout = resources[logicalIdOf(fn.function)]!.Properties.Timeout as number;
      return defaultLimits.outbound.rateLimit * timeout + defaultLimits.outbound.burstLimit;
    });
    const total = worstCase.reduce((sum, n) => sum + n, 0);
    expect(total, `${outboundRoutes.length} routes: ${worstCase.join(' + ')}`).toBeLessThanOrEqual(defaultAccountConcurrency / 2);
  });
});

describe('functions not behind the API', () => {
  it('consume every queue with a maximum concurrency', () => {
    const mappings = ofType(resources, 'AWS::Lambda::EventSourceMapping');
    expect(mappings.length).toBeGreaterThan(0);
    for (const [id, mapping] of mappings) expect(mapping.Properties.ScalingConfig?.MaximumConcurrency, id).toBeGreaterThan(0);
  });

  it('reserve no concurrency by default, so the stack deploys on an account that cannot spare any', () => {
    for (const [id, fn] of ofType(resources, 'AWS::Lambda::Function')) expect(fn.Properties.ReservedConcurrentExecutions, id).toBeUndefined();
  });

  it("reserve the scheduled-run function's concurrency, and no other, when the deployer sets scheduledRuns", () => {
    const bounded = synthesize({ limits: { scheduledRuns: 20 } });
    const reserved = ofType(bounded.resources, 'AWS::Lambda::Function').filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined);
    expect(reserved.map(([id, fn]) => [id, fn.Properties.ReservedConcurrentExecutions])).toEqual([[logicalIdOf(bounded.stack.schedules.runner.function), 20]]);
    // A bound on a hung test: a second synthesis of the whole stack, which a loaded machine takes well past the default.
  }, 120_000);
});

it("takes the deployer's throttles instead of the defaults", () => {
  const { resources: custom } = synthesize({ limits: { api: { rateLimit: 50, burstLimit: 60 }, outbound: { rateLimit: 1, burstLimit: 2 } } });
  const [stage, ...own] = methodSettingsOf(custom);
  expect(stage).toMatchObject({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 60 });
  for (const settings of own) expect(settings).toMatchObject({ ThrottlingRateLimit: 1, ThrottlingBurstLimit: 2 });
});
