/** The S3 adapter: files dropped under incoming/ are solved into solved/ with a report under reports/. */
export { handleS3Event, S3RecordsFailedError } from './handle-event.js';
export type { HandleS3EventOptions, S3RecordResult } from './handle-event.js';
export { decodeEventKey, encodeEventKey } from './event-kind.js';
export { isS3Event, s3EventKind } from './event-kind.js';
