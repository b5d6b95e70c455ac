import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Event, S3EventRecord, S3ObjectCreatedNotificationEvent } from 'aws-lambda';
import { logger } from '../observability/powertools.js';
import { sharedS3Client } from '../pipeline/s3-client.js';
import { acceptSourceKey, prefixes } from '../contract/service-layout.js';
import { decodeEventKey } from './event-key.js';
import { processObject } from '../pipeline/process-object.js';
import type { ProcessObjectResult } from '../pipeline/process-object.js';
import { ServiceError } from '../contract/service-error.js';

export interface HandleS3EventOptions {
  client?: S3Client;
  /** Passed on to processObject (tests use small parts). */
  partSize?: number;
  /** The invocation's time left (the Lambda context's), passed on to processObject: it stops with time to say so. */
  timeLeftMs?: () => number;
}

export type S3RecordResult =
  | ProcessObjectResult
  | {
      status: 'ignored';
      reason: 'outside-prefix' | 'not-object-created' | 'folder' | 'test-event';
      sourceKey: string;
    };

/** One object an event announces, whichever route the event took: its key already decoded. */
export interface AnnouncedObject {
  bucket: string;
  sourceKey: string;
  /** Whether the event says the object was created (only those are solved). */
  created: boolean;
  /** What the event called it, for the log of an ignored one. */
  eventName: string;
}

export interface AnnouncedObjectsOutcome {
  results: S3RecordResult[];
  /** Keys that failed for a reason a retry may cure, and why. */
  failedKeys: string[];
  causes: unknown[];
}

/** The objects of a direct S3 notification (keys form-URL-encoded, as S3 writes them). */
export function announcedByRecords(records: readonly S3EventRecord[]): AnnouncedObject[] {
  return records.map((record) => ({
    bucket: record.s3.bucket.name,
    sourceKey: decodeEventKey(record.s3.object.key),
    created: record.eventName.startsWith('ObjectCreated:'),
    eventName: record.eventName,
  }));
}

/** The object of an EventBridge "Object Created" event (its key is not URL-encoded). */
export function announcedByEventBridge(event: S3ObjectCreatedNotificationEvent): AnnouncedObject {
  return {
    bucket: event.detail.bucket.name,
    sourceKey: event.detail.object.key,
    created: event['detail-type'] === 'Object Created',
    eventName: `${event['detail-type']} (${event.detail.reason})`,
  };
}

/**
 * Solve each announced file under incoming/ into solved/ with a report under reports/. Objects
 * are independent: all are tried, and those that failed are returned for the caller to retry.
 */
export async function solveAnnouncedObjects(
  objects: readonly AnnouncedObject[],
  options: HandleS3EventOptions = {},
): Promise<AnnouncedObjectsOutcome> {
  const client = options.client ?? sharedS3Client();
  const outcome: AnnouncedObjectsOutcome = { results: [], failedKeys: [], causes: [] };
  for (const { bucket, sourceKey, created, eventName } of objects) {
    if (!created) {
      logger.info('Ignoring an S3 event that does not create an object', { eventName, bucket, sourceKey });
      outcome.results.push({ status: 'ignored', reason: 'not-object-created', sourceKey });
      continue;
    }
    const keys = acceptSourceKey(sourceKey, prefixes.incoming);
    if (!keys.ok) {
      // Outputs are written outside incoming/, so they can never retrigger the function.
      if (keys.reason === 'outside-prefix')
        logger.info(`Ignoring an object outside ${prefixes.incoming}`, { bucket, sourceKey });
      else logger.info('Ignoring a folder marker', { bucket, sourceKey });
      outcome.results.push({ status: 'ignored', reason: keys.reason, sourceKey });
      continue;
    }
    try {
      outcome.results.push(
        await processObject({
          client,
          bucket,
          sourceKey,
          outputKey: keys.outputKey,
          reportKey: keys.reportKey,
          ...(options.partSize === undefined ? {} : { partSize: options.partSize }),
          ...(options.timeLeftMs === undefined ? {} : { timeLeftMs: options.timeLeftMs }),
        }),
      );
    } catch (error) {
      logger.error('Processing failed; it will be retried', { bucket, sourceKey, error: error as Error });
      outcome.failedKeys.push(sourceKey);
      outcome.causes.push(error);
    }
  }
  return outcome;
}

/**
 * S3 `ObjectCreated:*` notifications sent straight to the function. If any record failed for a
 * reason a retry may cure, the event fails as a whole (those done are skipped on the retry).
 */
export async function handleS3Event(event: S3Event, options: HandleS3EventOptions = {}): Promise<S3RecordResult[]> {
  return resultsOrThrow(await solveAnnouncedObjects(announcedByRecords(event.Records), options));
}

/** An EventBridge "Object Created" event: one object; a failure fails the invocation, so EventBridge retries it. */
export async function handleEventBridgeObjectCreated(
  event: S3ObjectCreatedNotificationEvent,
  options: HandleS3EventOptions = {},
): Promise<S3RecordResult[]> {
  return resultsOrThrow(await solveAnnouncedObjects([announcedByEventBridge(event)], options));
}

function resultsOrThrow(outcome: AnnouncedObjectsOutcome): S3RecordResult[] {
  if (outcome.failedKeys.length) throw new S3RecordsFailedError(outcome.failedKeys, outcome.causes);
  return outcome.results;
}

/**
 * Thrown when some records of an S3 event failed for a reason a retry may cure (S3 unavailable,
 * the connection dropped mid-file). Throwing makes Lambda retry the whole event; the records
 * already done are skipped then, by their output's source ETag.
 */
export class S3RecordsFailedError extends ServiceError<'RECORDS_FAILED'> {
  override readonly name = 'S3RecordsFailedError';
  constructor(
    readonly failedKeys: readonly string[],
    readonly causes: readonly unknown[],
  ) {
    super(
      'RECORDS_FAILED',
      `${failedKeys.length} object(s) could not be processed and will be retried: ${failedKeys.slice(0, 5).join(', ')}` +
        (failedKeys.length > 5 ? ', ...' : ''),
      { cause: causes[0] },
    );
  }
}
