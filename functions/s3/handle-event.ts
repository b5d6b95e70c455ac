import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';
import { logger } from '../observability/index.js';
import { sharedS3Client } from './client.js';
import { S3RecordsFailedError } from './errors.js';
import { decodeEventKey, outputKeysFor } from './keys.js';
import { processObject } from './process-object.js';
import type { ProcessObjectResult } from './process-object.js';

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
    const keys = outputKeysFor(sourceKey);
    if (!keys) {
      // Outputs are written outside incoming/, so they can never retrigger the function.
      logger.info('Ignoring an object outside incoming/', { bucket, sourceKey });
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
