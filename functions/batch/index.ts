/**
 * The scheduled batch: the function's side of the Distributed Map (a batch of listed keys, each
 * through the S3 pipeline). The whole job run in one process (`npm run batch`) is the twin's:
 * twin/stepfunctions/batch-run.ts.
 */
export { mapEventKind, isMapEvent } from './event-kinds.js';
export { handleMapEvent, processMapEvent } from './handle-event.js';
export type { HandleMapEventOptions } from './handle-event.js';
export { processMapItem } from './process-item.js';
export type { ProcessMapItemOptions } from './process-item.js';
export { forEachBounded, mapBounded } from '../pipeline/concurrency.js';
export { itemKeysFor } from './listing.js';
export { BatchInputError, BatchItemsFailedError, describeFailures, itemError } from './errors.js';
export type { BatchErrorCode } from './errors.js';
export { addToTotals, emptyTotals } from './handle-event.js';
export { DEFAULT_FILES_PER_INVOCATION_IN_FLIGHT } from './handle-event.js';
export { MAX_ERROR_MESSAGE_CHARS } from './errors.js';
export type * from './types.js';
