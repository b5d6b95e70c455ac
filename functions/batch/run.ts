import type { S3Client } from '@aws-sdk/client-s3';
import { forEachBounded } from './concurrency.js';
import { RUN_DEFAULTS } from '../contract/service-layout.js';
import { BatchItemsFailedError, itemError } from './errors.js';
import { groupItems } from './concurrency.js';
import { handleMapEvent } from './handle-event.js';
import { listingPrefix } from './listing.js';
import { listMapItems } from './listing.js';
import { newRunId, RunReportWriter } from './run-report.js';
import { addToTotals, emptyTotals } from './handle-event.js';
import type { MapEvent, MapItem, MapItemResult, RunMode, RunSummary } from './types.js';

/** Failed files listed in a run summary; the run report holds every one. */
export const MAX_SUMMARY_FAILURES = 100;

export interface RunBatchJobOptions {
  /** The files function's client: each group of files is processed with it. */
  client: S3Client;
  /**
   * The state machine's client (its role lists the prefix and writes the run report). Without
   * one, the listing goes through `client` and no run report is written: a function's role may
   * not write the run results.
   */
  runClient?: S3Client;
  bucket: string;
  mode: RunMode;
  /** Narrows the listing (see `listingPrefix`). */
  prefix?: string;
  /** Invocations in flight at once (the map's MaxConcurrency). */
  maxConcurrency?: number;
  /** Keys per invocation (the map's item batcher). */
  itemsPerInvocation?: number;
  /** Files of one invocation processed at once. */
  filesInFlight?: number;
  runId?: string;
  /** Write the run report under reports/runs/<runId>/ (default true, when there is a `runClient`). */
  writeReport?: boolean;
  /** Told the running count of listed objects. */
  onListed?: (listed: number) => void;
  /** Told each file's result as soon as it is known. */
  onItem?: (result: MapItemResult) => void;
  /** Passed on to processObject (tests use small parts). */
  partSize?: number;
}

/**
 * The whole batch job in one process, shaped as the Distributed Map runs it: list the mode's
 * prefix, group the keys as the item batcher does, hand each group to the function's own batch
 * handler with bounded concurrency, and write a run report. The listing is consumed as it is
 * processed. Never throws for a file: failures are in the summary (and the report).
 */
export async function runBatchJob(options: RunBatchJobOptions): Promise<RunSummary> {
  const { client, bucket, mode } = options;
  const runId = options.runId ?? newRunId();
  const prefix = listingPrefix(mode, options.prefix);
  const startedAt = new Date();
  const started = performance.now();
  const totals = emptyTotals();
  const failures: RunSummary['failures'] = [];
  const invocations = { succeeded: 0, failed: 0 };
  const runClient = options.runClient ?? client;
  const report =
    options.writeReport === false || !options.runClient
      ? undefined
      : new RunReportWriter(options.runClient, bucket, runId, mode);

  const record = (result: MapItemResult): void => {
    addToTotals(totals, result);
    if (result.status === 'failed' && failures.length < MAX_SUMMARY_FAILURES)
      failures.push({ key: result.key, error: result.error });
    options.onItem?.(result);
  };

  let listed = 0;
  async function* counted(items: AsyncIterable<MapItem>): AsyncGenerator<MapItem> {
    for await (const item of items) {
      listed++;
      options.onListed?.(listed);
      yield item;
    }
  }

  const groups = groupItems(
    counted(listMapItems(runClient, bucket, prefix)),
    options.itemsPerInvocation ?? RUN_DEFAULTS.itemsPerInvocation,
  );
  await forEachBounded(groups, options.maxConcurrency ?? RUN_DEFAULTS.maxConcurrency, async (items) => {
    const event: MapEvent = { Items: items, BatchInput: { bucket, mode } };
    const startDate = new Date();
    const seen = new Set<string>();
    const onItem = (result: MapItemResult): void => {
      seen.add(result.key);
      record(result);
    };
    try {
      const output = await handleMapEvent(event, {
        client,
        onItem,
        ...(options.filesInFlight === undefined ? {} : { filesInFlight: options.filesInFlight }),
        ...(options.partSize === undefined ? {} : { partSize: options.partSize }),
      });
      invocations.succeeded++;
      report?.add({ input: event, output, startDate, stopDate: new Date() });
    } catch (error) {
      invocations.failed++;
      // Not a file's failure (those are results): the invocation as a whole failed, so every
      // file it did not report counts failed, as the map counts them.
      if (!(error instanceof BatchItemsFailedError)) {
        for (const item of items)
          if (!seen.has(item.Key)) record({ key: item.Key, status: 'failed', error: itemError(error) });
      }
      report?.add({
        input: event,
        error: error instanceof Error ? error : new Error(String(error)),
        startDate,
        stopDate: new Date(),
      });
    }
  });

  const durationMs = performance.now() - started;
  const seconds = durationMs / 1000;
  const summary: RunSummary = {
    runId,
    mode,
    bucket,
    prefix,
    ...(report ? { reportPrefix: report.prefix } : {}),
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Math.round(durationMs),
    listed,
    invocations,
    ...totals,
    filesPerSecond: seconds > 0 ? round1(listed / seconds) : 0,
    puzzlesPerSecond: seconds > 0 ? Math.round(totals.puzzles.rows / seconds) : 0,
    failures,
  };
  await report?.finish(summary);
  return summary;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
