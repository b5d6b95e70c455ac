/**
 * The scheduled batch: the function's side of the Distributed Map (a batch of listed keys, each
 * through the S3 pipeline) and the same job run whole in one process (`npm run batch`).
 */
export { mapEventKind, isMapEvent } from './event-kinds.js';
export { runRequestKind, isRunRequest } from './event-kinds.js';
export { handleMapEvent, processMapEvent } from './handle-event.js';
export type { HandleMapEventOptions } from './handle-event.js';
export { handleRunRequest } from './handle-run-request.js';
export type { HandleRunRequestOptions } from './handle-run-request.js';
export { processMapItem } from './process-item.js';
export type { ProcessMapItemOptions } from './process-item.js';
export { runBatchJob, MAX_SUMMARY_FAILURES } from './run.js';
export type { RunBatchJobOptions } from './run.js';
export { listMapItems, mapItemFromListing } from './listing.js';
export { groupItems } from './concurrency.js';
export { forEachBounded, mapBounded } from './concurrency.js';
export { itemKeysFor, listingPrefix } from './listing.js';
export { RunReportWriter, newRunId, ENTRIES_PER_RESULT_FILE } from './run-report.js';
export type { ChildExecution, RunManifest } from './run-report.js';
export { BatchInputError, BatchItemsFailedError, BatchRunFailedError, itemError } from './errors.js';
export type { BatchErrorCode } from './errors.js';
export { addToTotals, emptyTotals } from './handle-event.js';
export { DEFAULT_FILES_PER_INVOCATION_IN_FLIGHT } from './handle-event.js';
export { MAX_ERROR_MESSAGE_CHARS } from './errors.js';
export type * from './types.js';
