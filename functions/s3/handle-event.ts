import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';
import { logger } from '../observability/powertools.js';
import { sharedS3Client } from '../pipeline/s3-client.js';
import { outputKeysFor, prefixes } from '../contract/service-layout.js';
import { decodeEventKey } from './event-kind.js';
import { processObject } from '../pipeline/process-object.js';
import type { ProcessObjectResult } from '../pipeline/process-object.js';

export interface HandleS3EventOptions {
  client?: S3Client;
  /** Passed on to processObject (tests use small parts). */
  partSize?: number;
}

export type S3RecordResult =
  | ProcessObjectResult
  | { status: 'ignored'; reason: 'outside-incoming' | 'not-object-created' | 'folder-marker'; sourceKey: string };

/**
 * S3 `ObjectCreated:*` notifications: each record's file under incoming/ is solved into solved/
 * with a report under reports/. Records are independent: all are tried, then, if any failed for
 * a reason a retry may cure, the event fails as a whole (those done are skipped on the retry).
 */
export async function handleS3Event(event: S3Event, options: HandleS3EventOptions = {}): Promise<S3RecordResult[]> {
  const client = options.client ?? sharedS3Client();
  const results: S3RecordResult[] = [];
  const failedKeys: string[] = [];
  const causes: unknown[] = [];
  for (const record of event.Records) {
    const bucket = record.s3.bucket.name;
    const sourceKey = decodeEventKey(record.s3.object.key);
    if (!record.eventName.startsWith('ObjectCreated:')) {
      logger.info('Ignoring an S3 event that does not create an object', {
        eventName: record.eventName,
        bucket,
        sourceKey,
      });
      results.push({ status: 'ignored', reason: 'not-object-created', sourceKey });
      continue;
    }
    const keys = outputKeysFor(sourceKey, prefixes.incoming);
    if (!keys) {
      // Outputs are written outside incoming/, so they can never retrigger the function.
      logger.info(`Ignoring an object outside ${prefixes.incoming}`, { bucket, sourceKey });
      results.push({ status: 'ignored', reason: 'outside-incoming', sourceKey });
      continue;
    }
    if (sourceKey.endsWith('/')) {
      // An empty "folder" made by a console or a sync tool: not a file.
      logger.info('Ignoring a folder marker', { bucket, sourceKey });
      results.push({ status: 'ignored', reason: 'folder-marker', sourceKey });
      continue;
    }
    try {
      results.push(
        await processObject({
          client,
          bucket,
          sourceKey,
          ...keys,
          ...(options.partSize === undefined ? {} : { partSize: options.partSize }),
        }),
      );
    } catch (error) {
      logger.error('Processing failed; the event will be retried', { bucket, sourceKey, error: error as Error });
      failedKeys.push(sourceKey);
      causes.push(error);
    }
  }
  if (failedKeys.length) throw new S3RecordsFailedError(failedKeys, causes);
  return results;
}

/**
 * Thrown when some records of an S3 event failed for a reason a retry may cure (S3 unavailable,
 * the connection dropped mid-file). Throwing makes Lambda retry the whole event; the records
 * already done are skipped then, by their output's source ETag.
 */
export class S3RecordsFailedError extends Error {
  override readonly name = 'S3RecordsFailedError';
  constructor(
    readonly failedKeys: readonly string[],
    readonly causes: readonly unknown[],
  ) {
    super(
      `${failedKeys.length} object(s) could not be processed and will be retried: ${failedKeys.slice(0, 5).join(', ')}` +
        (failedKeys.length > 5 ? ', ...' : ''),
      { cause: causes[0] },
    );
  }
}
