/** The S3 adapter: files dropped under incoming/ are solved into solved/ with a report under reports/. */
export {
  handleEventBridgeObjectCreated,
  handleS3Event,
  S3RecordsFailedError,
  solveAnnouncedObjects,
} from './handle-event.js';
export type { AnnouncedObject, HandleS3EventOptions, S3RecordResult } from './handle-event.js';
export { handleSqsS3Event } from './handle-sqs.js';
export { decodeEventKey, encodeEventKey } from './event-key.js';
export { s3EventBridgeKind, s3EventKind, s3SqsKind } from './event-kind.js';
export { isEventBridgeObjectCreated, isS3Event, isS3TestEvent, isSqsEvent } from './event-shapes.js';
