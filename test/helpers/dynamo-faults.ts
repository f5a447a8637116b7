/**
 * DynamoDB faults injected at the SDK client: a middleware, added through
 * lib/store/dynamo/client.ts's `addClientPlugin`, that sits inside the SDK's
 * retries and, at a seeded rate, throttles a request, fails it with a 500,
 * or sends it and then loses the answer (the write happened; the caller sees
 * a reset connection). The store's code and the SDK's retry logic meet them
 * as they would meet the real service.
 */
import { InternalServerError, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { addClientPlugin, type ClientPlugin } from '../../lib/store/dynamo/client.ts';
import { seeded } from './seeded.ts';

export const faultKinds = ['throttled', 'server-error', 'answer-lost'] as const;
export type FaultKind = (typeof faultKinds)[number];

const metadata = (httpStatusCode: number) => ({ httpStatusCode, attempts: 1, totalRetryDelay: 0 });

function injected(kind: Exclude<FaultKind, 'answer-lost'>): Error {
  return kind === 'throttled'
    ? new ProvisionedThroughputExceededException({ message: 'Injected: the request rate is too high', $metadata: metadata(400) })
    : new InternalServerError({ message: 'Injected: internal server error', $metadata: metadata(500) });
}

/** What a socket reset after the request went out looks like to the SDK: a transient network error. */
const lostAnswer = () =>
  Object.assign(new Error('Injected: the connection was reset after the request was sent'), { name: 'TimeoutError', code: 'ECONNRESET', $metadata: {} });

export interface DynamoFaults {
  /** Faults are injected only while on, into this share of the requests. */
  on(rate: number): void;
  off(): void;
  /** Requests seen while on, and faults injected, by kind. */
  readonly counts: { requests: number } & Record<FaultKind, number>;
  /** Stops adding the middleware to new clients (those made already keep it, switched off). */
  remove(): void;
}

/** Injects faults into the requests of every DynamoDB client made after this call, while on. */
export function injectDynamoFaults(options: { seed: number }): DynamoFaults {
  const random = seeded(options.seed);
  let active = false;
  let rate = 0;
  const counts = { requests: 0, throttled: 0, 'server-error': 0, 'answer-lost': 0 };
  const plugin: ClientPlugin = {
    applyToStack(stack) {
      stack.add(
        (next) => async (args) => {
          if (!active) return next(args);
          counts.requests++;
          if (random() >= rate) return next(args);
          const kind = faultKinds[Math.floor(random() * faultKinds.length)]!;
          counts[kind]++;
          if (kind !== 'answer-lost') throw injected(kind);
          await next(args);
          throw lostAnswer();
        },
        // Inside the retry middleware (finalizeRequest), so the SDK retries what is injected, as it would the service's.
        { step: 'deserialize', name: 'injectFaults', override: true },
      );
    },
  };
  const remove = addClientPlugin(plugin);
  return {
    on: (share) => {
      rate = share;
      active = true;
    },
    off: () => void (active = false),
    counts,
    remove: () => {
      active = false;
      remove();
    },
  };
}
