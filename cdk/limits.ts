/**
 * How much of the account's Lambda concurrency callers can take. Every
 * function of an account and region draws on one pool (1,000 at once unless
 * raised), and a function holds its share for as long as it runs: so the
 * bounds go where a caller decides how long a function runs.
 *
 * - API Gateway throttles each method of the stage on its own (the stage's
 *   throttle is every method's default, not a total for the stage), and
 *   answers beyond it with the 429 envelope (THROTTLED).
 * - The routes where a person tries a call to a provider (`outbound:
 *   'trying'` in the route table: testing a draft, a step, a credential, an
 *   integration) wait up to 29 s on a provider the caller chose: a caller
 *   with a slow provider turns each request per second into 29 functions
 *   running. Their own, lower throttle keeps all of them together, at full
 *   rate and burst, within half the default pool (test/cdk/concurrency.test.ts
 *   sums it). Execute serves consumers' traffic and keeps the API's throttle:
 *   a rule answers in milliseconds, a synchronous workflow run is bounded at
 *   25 s, and workflows that wait on slow providers are meant to run with
 *   `async: true`, on the task queue's bounded workers.
 * - The task worker is bounded by its event source (lib/tasks/delivery.ts).
 * - The scheduled-run function is invoked by Scheduler, which has no
 *   concurrency setting: only a reservation bounds it. A reservation fails
 *   the deployment on an account that cannot keep 100 unreserved besides
 *   (new accounts may start with 10 in all), so none is made unless the
 *   deployer sets `scheduledRuns`. Without one its runs stay short whatever a
 *   tenant does (they make no outbound call); with one, a run over the bound
 *   is retried by Lambda for up to an hour, then lands in the schedules'
 *   dead-letter queue, which alarms.
 *
 * These bound the service as a whole: a tenant can use up a route's
 * throttle, and others wait behind it, but not the account's pool.
 */

/** Requests per second a method takes steadily (`rateLimit`), and at once (`burstLimit`). */
export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

export interface ServiceLimits {
  /** Each method of the API stage, each on its own. */
  readonly api: Throttle;
  /** Each route that calls out to providers, instead of `api`. */
  readonly outbound: Throttle;
  /** Reserved concurrency of the scheduled-run function: none unless given (see above). */
  readonly scheduledRuns?: number;
}

/** An outbound route at 3 a second for 29 s, plus a burst of 6: at most 93 of its functions at once. */
export const defaultLimits: ServiceLimits = {
  api: { rateLimit: 100, burstLimit: 200 },
  outbound: { rateLimit: 3, burstLimit: 6 },
};
