/**
 * The per-file pipeline: one puzzle file of the bucket -> its solved output (streamed into a
 * multipart upload) and its report, idempotent by the source's ETag. Used by the S3 adapter and
 * the scheduled batch alike; knows nothing of the events that name the file.
 */
export { processObject, DEFAULT_PART_SIZE, DEFAULT_QUEUE_SIZE } from './process-object.js';
export type { ProcessObjectOptions, ProcessObjectResult, SkipReason } from './process-object.js';
export { createS3Client, sharedS3Client } from './s3-client.js';
export type { S3ClientOptions } from './s3-client.js';
export type { FileReport, ReportedCounts, ReportedFailure } from './report.js';
export type { RunningReport } from './running-report.js';
export { failLargeFile, finishLargeFile, removeStaging } from './finish-large-file.js';
export { solveRange, stagingKeys } from './solve-range.js';
export type { RangeTally } from './solve-range.js';
export { handOverToRanges } from './large-file-job.js';
export { forgetAskedAgain, rerunAskedAgain } from './put-back.js';
export type { LargeFileStarter, RunRecord, RunStatus, StartOutcome } from './large-file-runs.js';
export { needsRanges, planRanges, rangeBytesFor, RANGE_BYTES_ENV } from './range-plan.js';
export type { RangePlanSettings } from './range-plan.js';
export { assembleStagedOutput, planParts } from './staged-output.js';
export { isRetryableS3Error, retryS3, S3_RETRY } from './s3-retry.js';
export type { S3RetrySettings } from './s3-retry.js';
export { timeMarginMs, TimeLimitError } from './time-limit.js';
