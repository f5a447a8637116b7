/**
 * The structured logger every layer uses: the API's middleware stack, the task
 * worker and sweeper, scheduled runs, outbound calls and Git fetches. It sits
 * apart from lib/http because most of its users are not HTTP code, and it
 * imports no other area so that any of them can use it.
 */
import { Logger } from '@aws-lambda-powertools/logger';

/** Structured JSON logs; POWERTOOLS_LOG_LEVEL and POWERTOOLS_SERVICE_NAME configure it. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'rules-service' });

/**
 * How every function attaches its invocation to the logs: keys reset per
 * invocation, and never the event itself, which holds API keys and credential
 * values (POWERTOOLS_LOGGER_LOG_EVENT=true cannot turn it on).
 */
export const invocationLogging = { resetKeys: true, logEvent: false } as const;
