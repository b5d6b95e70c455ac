import type { S3Client } from '@aws-sdk/client-s3';
import { logger } from '../observability/index.js';
import { sharedS3Client } from '../s3/client.js';
import { mapBounded } from './concurrency.js';
import { DEFAULT_FILES_PER_INVOCATION_IN_FLIGHT } from './constants.js';
import { BatchInputError, BatchItemsFailedError } from './errors.js';
import { isBatchMode } from './mode.js';
import { processBatchItem } from './process-item.js';
import { addToTotals, emptyTotals } from './totals.js';
import type { BatchEvent, BatchItemResult, BatchResult } from './types.js';

export interface HandleBatchEventOptions {
  client?: S3Client;
  /** Files of the group processed at once. */
  filesInFlight?: number;
  /** Told each file's result as soon as it is known (progress of a local run). */
  onItem?: (result: BatchItemResult) => void;
  /** Passed on to processObject (tests use small parts). */
  partSize?: number;
}

/** The event's BatchInput, checked: a batch with no bucket or an unknown mode is not processed at all. */
function checkedInput(event: BatchEvent): BatchEvent['BatchInput'] {
  const { bucket, mode } = event.BatchInput as { bucket?: unknown; mode?: unknown };
  if (typeof bucket !== 'string' || bucket === '')
    throw new BatchInputError('must be the bucket name', 'BatchInput.bucket');
  if (!isBatchMode(mode))
    throw new BatchInputError(`must be "batch" or "sweep", got ${JSON.stringify(mode)}`, 'BatchInput.mode');
  return { bucket, mode };
}

/**
 * Every file of one map batch through the S3 pipeline, a few at once; never throws for a file
 * (a failed file is a `failed` result). The per-file results and totals are the child
 * execution's output.
 */
export async function processBatchEvent(
  event: BatchEvent,
  options: HandleBatchEventOptions = {},
): Promise<BatchResult> {
  const { bucket, mode } = checkedInput(event);
  const client = options.client ?? sharedS3Client();
  const started = performance.now();
  const totals = emptyTotals();
  const items = await mapBounded(
    event.Items,
    options.filesInFlight ?? DEFAULT_FILES_PER_INVOCATION_IN_FLIGHT,
    async (item) => {
      const result = await processBatchItem({
        client,
        bucket,
        mode,
        item,
        ...(options.partSize === undefined ? {} : { partSize: options.partSize }),
      });
      addToTotals(totals, result);
      options.onItem?.(result);
      return result;
    },
  );
  return { mode, bucket, ...totals, items, durationMs: Math.round(performance.now() - started) };
}

/**
 * The Lambda side of the Distributed Map: solves every file of the batch, then, if any failed,
 * throws `BatchItemsFailedError` so the map counts the batch failed (see errors.ts for why
 * throwing rather than returning); otherwise returns the result for `reports/runs/`.
 */
export async function handleBatchEvent(event: BatchEvent, options: HandleBatchEventOptions = {}): Promise<BatchResult> {
  const result = await processBatchEvent(event, options);
  const summary = {
    bucket: result.bucket,
    mode: result.mode,
    files: result.files,
    puzzles: result.puzzles,
    durationMs: result.durationMs,
  };
  if (result.files.failed > 0) {
    const error = new BatchItemsFailedError(result);
    logger.error('Batch done with failed files; failing the invocation so the map counts them', {
      ...summary,
      failed: error.failed,
    });
    throw error;
  }
  logger.info('Batch done', summary);
  return result;
}
