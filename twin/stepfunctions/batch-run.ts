/**
 * The whole-job runner behind `npm run batch` (and a schedule event given to `npm run invoke`):
 * the Distributed Map's part played locally, around the function's own map-batch handler.
 */

import type { S3Client } from '@aws-sdk/client-s3';
import { setTimeout as delay } from 'node:timers/promises';
import { forEachBounded } from '../../functions/pipeline/concurrency.js';
import { BatchItemsFailedError, itemError } from '../../functions/batch/errors.js';
import { addToTotals, emptyTotals, handleMapEvent } from '../../functions/batch/handle-event.js';
import type { MapEvent, MapItem, MapItemResult, MapResult } from '../../functions/batch/types.js';
import { MAP_ITEM_RETRY, RUN_DEFAULTS, type RunMode } from '../../functions/contract/service-layout.js';
import { MAX_INPUT_BYTES_PER_BATCH } from '../../functions/contract/batch-limits.js';
import { checkStateData, DataLimitExceeded } from './asl-data.js';
import { type InvocationOptions, invokeFunction } from '../lambda/executions.js';
import { MAP_ITEM_THROTTLE_RETRY } from '../../functions/contract/throttle-retry.js';
import { whileThrottled } from './throttle-retry.js';
import { groupItems, listingPrefix, listMapItems } from './map-reader.js';
import { newRunId, RunReportWriter, type RunSummary } from './run-report.js';

export type { RunSummary } from './run-report.js';

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
  /** Bytes of keys per invocation (the item batcher's MaxInputBytesPerBatch, as the stack sets it). */
  maxInputBytesPerBatch?: number;
  /** Files of one invocation processed at once. */
  filesInFlight?: number;
  runId?: string;
  /** Write the run report under run-reports/<runId>/ (default true, when there is a `runClient`). */
  writeReport?: boolean;
  /** Told the running count of listed objects. */
  onListed?: (listed: number) => void;
  /** Told each file's result as soon as it is known. */
  onItem?: (result: MapItemResult) => void;
  /** Passed on to processObject (tests use small parts). */
  partSize?: number;
  /**
   * Runs one invocation of the files function with a group (the map's child): by default the
   * function's batch handler in this process with `client`; `npm run batch` runs each in an
   * execution of its own, ended at the function's timeout (batch-executions.ts). It throws what
   * the invocation threw: a BatchItemsFailedError is retried as the map retries it.
   */
  invoke?: (event: MapEvent) => Promise<MapResult>;
  /** The map's retry of a group with failed files (default MAP_ITEM_RETRY, as the stack's); tests shorten the wait. */
  retry?: Partial<{ retries: number; intervalSeconds: number; backoffRate: number }>;
}

/**
 * Each group in an execution of its own (a worker loading the deployed bundle), ended at the
 * function's timeout as Lambda ends it: what the map's child invokes. A failed invocation is
 * thrown as the map sees it (its error type and message); a BatchItemsFailedError comes back with
 * its per-file results, so the run still reports each file.
 */
export function inExecutions(options: InvocationOptions): (event: MapEvent) => Promise<MapResult> {
  return async (event) => {
    // A full pool is waited out first, as the map's Retry rule on throttling does.
    const invocation = await whileThrottled(
      () => invokeFunction(event, options),
      (i) => !i.ok && i.throttled === true,
      MAP_ITEM_THROTTLE_RETRY,
    );
    if (invocation.ok) return invocation.result as MapResult;
    if (invocation.errorType === MAP_ITEM_RETRY.error && invocation.errorResult)
      throw new BatchItemsFailedError(invocation.errorResult as MapResult);
    const error = new Error(invocation.errorMessage);
    error.name = invocation.errorType;
    throw error;
  };
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
  const invocations = { succeeded: 0, failed: 0, retried: 0 };
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
    options.maxInputBytesPerBatch ?? MAX_INPUT_BYTES_PER_BATCH,
  );
  const retry = { ...MAP_ITEM_RETRY, ...options.retry };
  await forEachBounded(groups, options.maxConcurrency ?? RUN_DEFAULTS.maxConcurrency, async (items) => {
    const event: MapEvent = { Items: items, BatchInput: { bucket, mode } };
    const startDate = new Date();
    // Per key, across attempts: a file solved once stays solved (a retry skips it by its ETag).
    const results = new Map<string, MapItemResult>();
    const keep = (result: MapItemResult): void => {
      const earlier = results.get(result.key);
      if (!earlier || earlier.status === 'failed') results.set(result.key, result);
    };
    const recordGroup = (): void => {
      for (const item of items) {
        const result = results.get(item.Key);
        if (result) record(result);
      }
    };
    for (let attempt = 0; ; attempt++) {
      try {
        // Step Functions' 256 KiB on the child's input and on its result: past either the child
        // fails with States.DataLimitExceeded (no retry), and every file of it with it.
        checkStateData(`${mode} child`, 'has an execution input', event);
        const output = options.invoke
          ? await options.invoke(event)
          : await handleMapEvent(event, {
              client,
              onItem: keep,
              ...(options.filesInFlight === undefined ? {} : { filesInFlight: options.filesInFlight }),
              ...(options.partSize === undefined ? {} : { partSize: options.partSize }),
            });
        checkStateData(`${mode} child`, 'returned a result', output);
        for (const result of output.items) keep(result);
        invocations.succeeded++;
        recordGroup();
        report?.add({ input: event, output, startDate, stopDate: new Date() });
        return;
      } catch (error) {
        // As the map's Retry rule: a group whose files partly failed is invoked again, after a
        // growing wait; the files it already solved are skipped by their ETag.
        if (error instanceof BatchItemsFailedError) for (const result of error.result.items) keep(result);
        if (error instanceof BatchItemsFailedError && attempt < retry.retries) {
          invocations.retried++;
          await delay(retry.intervalSeconds * 1000 * retry.backoffRate ** attempt);
          continue;
        }
        invocations.failed++;
        if (error instanceof DataLimitExceeded) {
          // The map counts every file of a child that failed so, whatever the function did for it.
          results.clear();
          for (const item of items)
            results.set(item.Key, {
              key: item.Key,
              status: 'failed',
              error: { code: error.error, message: error.message },
            });
        }
        // Not a file's failure (those are results): the invocation as a whole failed, so every
        // file it did not report counts failed, as the map counts them.
        for (const item of items)
          if (!results.has(item.Key))
            results.set(item.Key, { key: item.Key, status: 'failed', error: itemError(error) });
        recordGroup();
        report?.add({
          input: event,
          error: error instanceof Error ? error : new Error(String(error)),
          startDate,
          stopDate: new Date(),
        });
        return;
      }
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
