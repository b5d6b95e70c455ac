import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../observability/powertools.js';
import { isEventBridgeObjectCreated, isS3Event, isS3TestEvent } from './event-shapes.js';
import {
  announcedByEventBridge,
  announcedByRecords,
  type AnnouncedObject,
  type HandleS3EventOptions,
  solveAnnouncedObjects,
} from './handle-event.js';

/**
 * What one queued message announces: an S3 notification's records, or an EventBridge "Object
 * Created" event (a rule targeting the queue); `test` for S3's configuration test message;
 * undefined for a body that is neither, which no retry can cure.
 */
function announcedByMessage(record: SQSRecord): AnnouncedObject[] | 'test' | undefined {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    return undefined;
  }
  if (isS3TestEvent(body)) return 'test';
  if (isS3Event(body)) return announcedByRecords(body.Records);
  if (isEventBridgeObjectCreated(body)) return [announcedByEventBridge(body)];
  return undefined;
}

/**
 * SQS messages carrying S3 notifications (an event source mapping with ReportBatchItemFailures).
 * Each message is handled on its own; the answer names the messages whose files failed, so only
 * those return to the queue (and, after its maxReceiveCount, to its dead-letter queue). A body
 * that is not an S3 notification fails too, so it ends in that dead-letter queue, not in silence.
 */
export async function handleSqsS3Event(event: SQSEvent, options: HandleS3EventOptions = {}): Promise<SQSBatchResponse> {
  const response: SQSBatchResponse = { batchItemFailures: [] };
  for (const record of event.Records) {
    const announced = announcedByMessage(record);
    if (announced === 'test') {
      logger.info('Skipping the S3 test event (sent once when the notification is configured)', {
        messageId: record.messageId,
      });
      continue;
    }
    if (announced === undefined) {
      logger.error('An SQS message that is not an S3 notification; failing it so it reaches the dead-letter queue', {
        messageId: record.messageId,
        body: record.body.slice(0, 500),
      });
      response.batchItemFailures.push({ itemIdentifier: record.messageId });
      continue;
    }
    const outcome = await solveAnnouncedObjects(announced, options);
    logger.info('SQS message handled', {
      messageId: record.messageId,
      statuses: outcome.results.map((r) => r.status),
      failedKeys: outcome.failedKeys,
    });
    if (outcome.failedKeys.length) response.batchItemFailures.push({ itemIdentifier: record.messageId });
  }
  return response;
}
