import type { S3Event, S3ObjectCreatedNotificationEvent, SQSEvent } from 'aws-lambda';
import { isRecord } from '../contract/event-kind.js';

/** An S3 event notification: every record from `aws:s3` with an `s3` part. */
export function isS3Event(event: unknown): event is S3Event {
  if (!isRecord(event) || !Array.isArray(event.Records) || event.Records.length === 0) return false;
  return event.Records.every(
    (record: unknown) => isRecord(record) && record.eventSource === 'aws:s3' && isRecord(record.s3),
  );
}

/**
 * Amazon EventBridge's "Object Created" event from S3 (a bucket with EventBridge notifications on
 * and a rule targeting the function). Its key is the plain key, not URL-encoded.
 */
export function isEventBridgeObjectCreated(event: unknown): event is S3ObjectCreatedNotificationEvent {
  if (!isRecord(event) || event.source !== 'aws.s3' || event['detail-type'] !== 'Object Created') return false;
  const detail = event.detail;
  return (
    isRecord(detail) &&
    isRecord(detail.bucket) &&
    typeof detail.bucket.name === 'string' &&
    isRecord(detail.object) &&
    typeof detail.object.key === 'string'
  );
}

/**
 * An SQS event (an event source mapping on a queue): every record from `aws:sqs` with a string
 * body. Which bodies are S3 notifications is decided per message, so one stray message fails alone.
 */
export function isSqsEvent(event: unknown): event is SQSEvent {
  if (!isRecord(event) || !Array.isArray(event.Records) || event.Records.length === 0) return false;
  return event.Records.every(
    (record: unknown) =>
      isRecord(record) &&
      record.eventSource === 'aws:sqs' &&
      typeof record.messageId === 'string' &&
      typeof record.body === 'string',
  );
}

/**
 * The message S3 sends once to a destination when a notification is configured
 * (`{"Service":"Amazon S3","Event":"s3:TestEvent",...}`): it names no object.
 */
export function isS3TestEvent(message: unknown): boolean {
  return isRecord(message) && message.Service === 'Amazon S3' && message.Event === 's3:TestEvent';
}
