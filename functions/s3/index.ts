/** The S3 adapter: files dropped under incoming/ are solved into solved/ with a report under reports/. */
export { handleS3Event } from './handle-event.js';
export type { HandleS3EventOptions, S3RecordResult } from './handle-event.js';
export { processObject } from './process-object.js';
export type { ProcessObjectOptions, ProcessObjectResult } from './process-object.js';
export { createS3Client, s3ClientSettingsFromEnv, sharedS3Client } from './client.js';
export type { S3ClientSettings } from './client.js';
export { decodeEventKey, encodeEventKey, outputKeysFor } from './keys.js';
export type { OutputKeys } from './keys.js';
export { isS3Event, s3EventKind } from './event-kind.js';
export { S3RecordsFailedError } from './errors.js';
export type { FileReport, ReportedFailure } from './report.js';
export * from './constants.js';
