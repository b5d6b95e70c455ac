import type { S3Client } from '@aws-sdk/client-s3';
import { logger } from '../observability/powertools.js';
import { sharedS3Client } from '../pipeline/s3-client.js';
import { mapBounded } from '../pipeline/concurrency.js';
import { BatchInputError, BatchItemsFailedError } from './errors.js';
import { isRunMode } from '../contract/service-layout.js';
import { processMapItem } from './process-item.js';
import type { MapEvent, MapItemResult, MapResult, RunTotals } from './types.js';

/**
 * Files of one invocation processed at once. Solving is CPU-bound on the function's one vCPU, but
 * each small file spends most of its time on S3 round trips (HEADs, GET, PUTs); a few in flight
 * hide that latency while the buffered upload parts stay far below the function's memory.
 */
export const DEFAULT_FILES_PER_INVOCATION_IN_FLIGHT = 4;

export interface HandleMapEventOptions {
  client?: S3Client;
  /** Files of the group processed at once. */
  filesInFlight?: number;
  /** Told each file's result as soon as it is known (progress of a local run). */
  onItem?: (result: MapItemResult) => void;
  /** Passed on to processObject (tests use small parts). */
  partSize?: number;
  /** The invocation's time left (the Lambda context's), passed on to processObject: it stops with time to say so. */
  timeLeftMs?: () => number;
}

/** The event's BatchInput, checked: a batch with no bucket or an unknown mode is not processed at all. */
function checkedInput(event: MapEvent): MapEvent['BatchInput'] {
  const { bucket, mode } = event.BatchInput as { bucket?: unknown; mode?: unknown };
  if (typeof bucket !== 'string' || bucket === '')
    throw new BatchInputError('must be the bucket name', 'BatchInput.bucket');
  if (!isRunMode(mode))
    throw new BatchInputError(`must be "batch" or "sweep", got ${JSON.stringify(mode)}`, 'BatchInput.mode');
  return { bucket, mode };
}

/**
 * Every file of one map batch through the S3 pipeline, a few at once; never throws for a file
 * (a failed file is a `failed` result). The per-file results and totals are the child
 * execution's output.
 */
export async function processMapEvent(event: MapEvent, options: HandleMapEventOptions = {}): Promise<MapResult> {
  const { bucket, mode } = checkedInput(event);
  const client = options.client ?? sharedS3Client();
  const started = performance.now();
  const totals = emptyTotals();
  const items = await mapBounded(
    event.Items,
    options.filesInFlight ?? DEFAULT_FILES_PER_INVOCATION_IN_FLIGHT,
    async (item) => {
      const result = await processMapItem({
        client,
        bucket,
        mode,
        item,
        ...(options.partSize === undefined ? {} : { partSize: options.partSize }),
        ...(options.timeLeftMs === undefined ? {} : { timeLeftMs: options.timeLeftMs }),
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
 * throwing rather than returning); otherwise returns the result for `run-reports/`.
 */
export async function handleMapEvent(event: MapEvent, options: HandleMapEventOptions = {}): Promise<MapResult> {
  const result = await processMapEvent(event, options);
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

export function emptyTotals(): RunTotals {
  return {
    files: { solved: 0, rejected: 0, skipped: 0, ignored: 0, failed: 0 },
    puzzles: { rows: 0, solved: 0, failed: 0 },
  };
}

/** Counts one file's result into `totals` (puzzles only for files solved by this run). */
export function addToTotals(totals: RunTotals, result: MapItemResult): void {
  totals.files[result.status]++;
  if (result.status === 'solved') {
    totals.puzzles.rows += result.puzzles.rows;
    totals.puzzles.solved += result.puzzles.solved;
    totals.puzzles.failed += result.puzzles.failed;
  }
}
