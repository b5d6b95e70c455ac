/**
 * The scheduled batch: the function's side of the Distributed Map (a batch of listed keys, each
 * through the S3 pipeline) and the same job run whole in one process (`npm run batch`).
 */
export { batchEventKind, isBatchEvent } from './event-kind.js';
export { runRequestKind, isRunRequest } from './run-request-kind.js';
export { handleBatchEvent, processBatchEvent } from './handle-event.js';
export type { HandleBatchEventOptions } from './handle-event.js';
export { handleRunRequest } from './handle-run-request.js';
export type { HandleRunRequestOptions } from './handle-run-request.js';
export { processBatchItem } from './process-item.js';
export type { ProcessBatchItemOptions } from './process-item.js';
export { runBatchJob, MAX_SUMMARY_FAILURES } from './run.js';
export type { RunBatchJobOptions } from './run.js';
export { listBatchItems, batchItemFromListing } from './listing.js';
export { groupItems } from './grouping.js';
export { forEachBounded, mapBounded } from './concurrency.js';
export { itemKeysFor, listingPrefix } from './keys.js';
export type { ItemKeys } from './keys.js';
export { MODE_PREFIX, isBatchMode } from './mode.js';
export { RunReportWriter, newRunId, ENTRIES_PER_RESULT_FILE } from './run-report.js';
export type { ChildExecution, RunManifest } from './run-report.js';
export { BatchInputError, BatchItemsFailedError, BatchRunFailedError, itemError } from './errors.js';
export type { BatchErrorCode } from './errors.js';
export { addToTotals, emptyTotals } from './totals.js';
export * from './constants.js';
export type * from './types.js';
