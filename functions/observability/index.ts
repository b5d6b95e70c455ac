/** Logging and metrics shared by every adapter. */
export { logger } from './logger.js';
export { metrics, publishMetrics, recordSolves } from './metrics.js';
export { METRIC } from './constants.js';
