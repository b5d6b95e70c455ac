import type { S3Event, S3ObjectCreatedNotificationEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { isRecord, type EventKind } from '../contract/event-kind.js';
import type { S3RecordResult } from './handle-event.js';
import { isEventBridgeObjectCreated, isSqsEvent } from './event-shapes.js';

/** An S3 event notification: every record from `aws:s3` with an `s3` part. */
export function isS3Event(event: unknown): event is S3Event {
  if (!isRecord(event) || !Array.isArray(event.Records) || event.Records.length === 0) return false;
  return event.Records.every(
    (record: unknown) => isRecord(record) && record.eventSource === 'aws:s3' && isRecord(record.s3),
  );
}

// Each handler is loaded on first use so the AWS SDK does not slow the cold start of HTTP requests.

/** S3 notifications sent straight to the function (what the stack wires). */
export const s3EventKind: EventKind<S3Event, S3RecordResult[]> = {
  name: 'S3 event notification',
  recognises: isS3Event,
  handle: async (event, context) =>
    (await import('./handle-event.js')).handleS3Event(event, { timeLeftMs: () => context.getRemainingTimeInMillis() }),
};

/** The same uploads announced through Amazon EventBridge (a rule on the bucket's events). */
export const s3EventBridgeKind: EventKind<S3ObjectCreatedNotificationEvent, S3RecordResult[]> = {
  name: 'EventBridge S3 Object Created',
  recognises: isEventBridgeObjectCreated,
  handle: async (event, context) =>
    (await import('./handle-event.js')).handleEventBridgeObjectCreated(event, {
      timeLeftMs: () => context.getRemainingTimeInMillis(),
    }),
};

/** S3 notifications queued in SQS; answers with the messages to retry (partial batch response). */
export const s3SqsKind: EventKind<SQSEvent, SQSBatchResponse> = {
  name: 'SQS messages carrying S3 notifications',
  recognises: isSqsEvent,
  handle: async (event, context) =>
    (await import('./handle-sqs.js')).handleSqsS3Event(event, { timeLeftMs: () => context.getRemainingTimeInMillis() }),
};

/**
 * An object key as it appears in an S3 event: form-URL-encoded, so a space is `+` and a `+` is
 * `%2B`. A malformed escape is kept literally rather than failing the whole event.
 */
export function decodeEventKey(encoded: string): string {
  const spaced = encoded.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The inverse of `decodeEventKey`, as S3 writes keys into events (slashes kept). */
export function encodeEventKey(key: string): string {
  return encodeURIComponent(key).replace(/%20/g, '+').replace(/%2F/g, '/');
}
