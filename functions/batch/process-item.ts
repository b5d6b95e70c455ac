import type { S3Client } from '@aws-sdk/client-s3';
import { logger } from '../observability/powertools.js';
import { processObject } from '../pipeline/process-object.js';
import { itemError } from './errors.js';
import { itemKeysFor } from './listing.js';
import type { MapItem, MapItemResult, RunMode } from './types.js';

export interface ProcessMapItemOptions {
  client: S3Client;
  bucket: string;
  mode: RunMode;
  item: MapItem;
  /** Passed on to processObject (tests use small parts). */
  partSize?: number;
  /** The invocation's time left (the Lambda context's), passed on to processObject: it stops with time to say so. */
  timeLeftMs?: () => number;
}

/**
 * One listed object through exactly the S3 pipeline (`processObject`: formats, report,
 * idempotency by source ETag). Never throws: a failure becomes a `failed` result, so the other
 * files of the group still run; the caller decides what a failure does to the invocation.
 */
export async function processMapItem(options: ProcessMapItemOptions): Promise<MapItemResult> {
  const { client, bucket, mode, item } = options;
  const key = item.Key;
  const keys = itemKeysFor(key, mode);
  if (!keys.ok) {
    if (keys.reason === 'outside-prefix')
      logger.warn('Ignoring a batch item outside the mode prefix', { bucket, key, mode });
    return { key, status: 'ignored', reason: keys.reason };
  }
  try {
    // The listed Etag is not passed on: processObject reads the current one, so a file replaced
    // since the listing is solved at its new version.
    const result = await processObject({
      client,
      bucket,
      sourceKey: key,
      outputKey: keys.outputKey,
      reportKey: keys.reportKey,
      ...(options.partSize === undefined ? {} : { partSize: options.partSize }),
      ...(options.timeLeftMs === undefined ? {} : { timeLeftMs: options.timeLeftMs }),
    });
    if (result.status === 'skipped') {
      return {
        key,
        status: 'skipped',
        reason: result.reason,
        ...(result.eTag === undefined ? {} : { eTag: result.eTag }),
      };
    }
    const { report } = result;
    // Rejected (not puzzles) or failed for time (too large for one invocation): retrying cannot help.
    if (report.outcome === 'rejected' || report.outcome === 'failed') {
      return {
        key,
        status: 'rejected',
        eTag: report.source.eTag,
        reportKey: keys.reportKey,
        error: report.error
          ? { code: report.error.code, message: report.error.message }
          : { code: 'REJECTED', message: 'not a puzzle file' },
      };
    }
    return {
      key,
      status: 'solved',
      eTag: report.source.eTag,
      outputKey: keys.outputKey,
      reportKey: keys.reportKey,
      puzzles: {
        rows: report.counts.rows,
        solved: report.counts.solved,
        failed: report.counts.rows - report.counts.solved,
      },
      durationMs: report.durationMs,
    };
  } catch (error) {
    logger.error('Batch item failed; the rest of the group goes on', { bucket, key, mode, error: error as Error });
    return { key, status: 'failed', error: itemError(error) };
  }
}
