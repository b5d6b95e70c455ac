import { Logger } from '@aws-lambda-powertools/logger';
import { DEFAULT_SERVICE_NAME } from './constants.js';

/**
 * The one Logger every adapter writes through: structured JSON with the request id once the
 * entry point has called `addContext`. The level comes from POWERTOOLS_LOG_LEVEL (tests use
 * SILENT); POWERTOOLS_DEV=true pretty-prints for `npm start`.
 */
export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME || DEFAULT_SERVICE_NAME,
});
