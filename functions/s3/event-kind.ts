import type { S3Event, S3ObjectCreatedNotificationEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { EventKind } from '../contract/event-kind.js';
import type { S3RecordResult } from './handle-event.js';
import { isEventBridgeObjectCreated, isS3Event, isSqsEvent } from './event-shapes.js';

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
