import { Logger } from '@aws-lambda-powertools/logger';

/** Structured JSON logs; POWERTOOLS_LOG_LEVEL and POWERTOOLS_SERVICE_NAME configure it. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'rules-service' });
