/**
 * One range of a file solved in ranges (functions/contract/large-files.ts): the lines that start
 * in it, solved into a staging object of its own, and a tally of what it counted. The staging
 * object is written whole or not at all (a multipart upload completed only at the end), so a
 * range killed half-way and retried starts over and leaves nothing behind.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { FileTally, openLineRange, solvePuzzleStream } from '../formats/index.js';
import type { RowCounts, RowFailure } from '../formats/index.js';
import type { LargeFileJob, RangeItem } from '../contract/large-files.js';
import { batchSolverFor, solverThreads } from '../parallel/index.js';
import { logger } from '../observability/powertools.js';
import { abortUpload, isNotFound, isPreconditionFailed, SourceChangedError } from './object-versions.js';
import { DEFAULT_PART_SIZE, DEFAULT_QUEUE_SIZE } from './process-object.js';
import { csvHeaderOf, readFrom } from './large-file-job.js';
import { byteCounter, stopBeforeTimeout, timeMarginMs } from './time-limit.js';
import { recordRangeProgress } from './running-report.js';
import { retryS3, type S3RetrySettings } from './s3-retry.js';

/** What a range counted, kept beside its answers as `tally/<index>.json`. */
export interface RangeTally {
  index: number;
  /** The bytes this piece of the range covered: all of it, or up to where it handed the rest over. */
  start: number;
  end: number;
  /**
   * The range was solved knowing where it starts (the first range always does; others on a
   * redo): its line numbers are the file's, its CSV records read from the right quote state.
   */
  known: boolean;
  /** The quote state it was solved from (.csv). */
  inQuotes: boolean;
  /** Solved again, once the ranges before it had counted their lines (RangeItem.redo). */
  redo: boolean;
  /** Line ends and quotes in its window [start - 1, end - 1): summed, they place the ranges after it. */
  window: { newlines: number; quotes: number };
  counts: RowCounts;
  failures: RowFailure[];
  failuresTotal: number;
  levels: number[];
  outputBytes: number;
  durationMs: number;
}

/** Staging keys of a job: answers, tallies and one marker per range invocation. */
/**
 * Staging keys of a job. A piece of a range is named by its start offset (padded: the names sort
 * in file order), so a range handed over in pieces, or solved again, writes each piece once.
 */
const pieceName = (start: number) => String(start).padStart(15, '0');
export const stagingKeys = {
  out: (job: LargeFileJob, start: number) => `${job.stagingPrefix}out/${pieceName(start)}`,
  tally: (job: LargeFileJob, start: number) => `${job.stagingPrefix}tally/${pieceName(start)}.json`,
  attempt: (job: LargeFileJob, index: number) =>
    `${job.stagingPrefix}attempts/${String(index).padStart(5, '0')}-${randomUUID()}`,
  redo: (job: LargeFileJob) => `${job.stagingPrefix}redo.json`,
} as const;

export interface SolveRangeOptions {
  client: S3Client;
  timeLeftMs?: () => number;
  /** Failed rows a tally keeps (the report lists the first of the whole file). */
  failureCap?: number;
  /**
   * When to stop reading and hand the rest over, in ms from the start (default: when twice the
   * stopping margin is all the invocation has left). Tests hand over at once.
   */
  handOverAfterMs?: number;
  /** How often the file's running report is brought up to date, at most (default RUNNING_REPORT_EVERY_MS; tests: every range). */
  progressEveryMs?: number;
}

/**
 * Retries of a range's own single calls: fewer and shorter than the finish's (S3_RETRY), since the
 * state machine retries a failed range with a fresh invocation anyway. Three calls of three SDK
 * attempts each: at 20% of requests answered 503 a call fails once in 0.2^9, and a read that keeps
 * failing (a source gone bad) costs the range under a second before it fails as it should.
 */
const RANGE_S3_RETRY: S3RetrySettings = { attempts: 3, baseDelayMs: 200, maxDelayMs: 1_000 };

/** Solves one range of a job into its staging object and writes its tally. */
export async function solveRange(
  job: LargeFileJob,
  range: RangeItem,
  options: SolveRangeOptions,
): Promise<{ tally: RangeTally; next?: RangeItem }> {
  const { client } = options;
  const { bucket } = job;
  const started = performance.now();
  // Counted by the finish step: the report says how many invocations the file took, retries included.
  // Each of the range's single calls is retried on its own (s3-retry.ts): under a burst of 503
  // SlowDown the SDK's three attempts and its retry quota run out, and one failed call would cost
  // the whole range an invocation, of which the state machine retries only a few.
  await retryS3(
    () =>
      client.send(
        new PutObjectCommand({ Bucket: bucket, Key: stagingKeys.attempt(job, range.index), Body: new Uint8Array(0) }),
      ),
    RANGE_S3_RETRY,
  );
  const csv = job.kind.format === 'csv';
  const first = range.start === 0;
  const known = first || range.newlinesBefore !== undefined;
  const inQuotes = !first && range.inQuotes === true;
  try {
    const csvHeader =
      csv && !first
        ? await retryS3(() => csvHeaderOf(client, bucket, job.readKey, job.readETag, job.grade), RANGE_S3_RETRY)
        : undefined;
    const body = await retryS3(
      () => readFrom(client, bucket, job.readKey, job.readETag, first ? 0 : range.start - 1),
      RANGE_S3_RETRY,
    );
    // Hand the rest over before the time runs out: stop reading at the next record end once
    // twice the margin is all that is left (the margin itself stays the hard stop, below).
    const timeLeft = options.timeLeftMs?.();
    const handOverAfter =
      options.handOverAfterMs ??
      (timeLeft === undefined ? Number.POSITIVE_INFINITY : timeLeft - 2 * timeMarginMs(timeLeft));
    const handOverAt = started + handOverAfter;
    const reading = watchedReads(body);
    const opened = await openLineRange(reading.source, {
      start: range.start,
      end: range.end,
      csv,
      inQuotes,
      stop: () => performance.now() >= handOverAt,
    });
    const tally = new FileTally({ failureCap: options.failureCap ?? 100 });
    let outputBytes = 0;
    const output = byteCounter((n) => {
      outputBytes += n;
    });
    const key = stagingKeys.out(job, range.start);
    // The parts one invocation writes its output in (8 MiB, 2 in flight), not the SDK's 5 MiB: a
    // range of 146 MB is then 18 UploadParts instead of 28, as many per row as the single path's.
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: key, Body: output, ContentType: 'application/octet-stream' },
      partSize: DEFAULT_PART_SIZE,
      queueSize: DEFAULT_QUEUE_SIZE,
      leavePartsOnError: true,
    });
    const uploading = upload.done();
    uploading.catch(() => undefined);
    // The hard stop fails only a read still waiting for S3 (one stalled from before the hand-over
    // point). Reading otherwise stops at the hand-over point, at the next read the solver asks for:
    // the batches read before it drain meanwhile, and failing the range then (TimeLimitError is not
    // retried) would end a job that finishes within the margin left; one that does not is killed
    // at its timeout and retried.
    const timeLimit = stopBeforeTimeout(
      options.timeLeftMs,
      {
        destroy(error) {
          if (reading.waiting()) body.destroy(error);
        },
      },
      () => tally.rowsRead,
      `range ${range.index + 1} of ${job.ranges} needs more than one invocation can give. Give the files function more ` +
        'time (filesTimeoutSeconds) or memory (filesMemoryMb), then upload the file again.',
    );
    try {
      await solvePuzzleStream({
        input: Readable.from(opened.owned, { objectMode: false }),
        output,
        format: job.kind.format,
        gzip: job.kind.gzip,
        tally,
        batches: batchSolverFor(solverThreads()),
        grade: job.grade,
        start: {
          firstLine: 1 + (range.newlinesBefore ?? 0) + opened.skipped,
          startOfFile: first,
          ...(csvHeader ? { csvHeader } : {}),
        },
      });
      await uploading;
    } catch (error) {
      output.destroy();
      await uploading.catch(() => undefined);
      await abortUpload(client, bucket, key, upload.uploadId);
      throw error;
    } finally {
      timeLimit.cancel();
      body.destroy();
    }
    const stoppedAt = opened.stoppedAt();
    const rangeTally: RangeTally = {
      index: range.index,
      start: range.start,
      end: stoppedAt ?? range.end,
      known,
      inQuotes,
      redo: range.redo === true,
      window: opened.window(),
      counts: { ...tally.counts },
      failures: tally.failures,
      failuresTotal: tally.failuresTotal,
      levels: [...tally.levels],
      outputBytes,
      durationMs: Math.round(performance.now() - started),
    };
    await retryS3(
      () =>
        client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: stagingKeys.tally(job, range.start),
            Body: JSON.stringify(rangeTally),
            ContentType: 'application/json',
          }),
        ),
      RANGE_S3_RETRY,
    );
    // The report key shows how far the file is (running-report.ts). A redo comes after every range
    // was counted once: it changes nothing there.
    if (!range.redo)
      await recordRangeProgress(
        client,
        job,
        {
          index: range.index,
          start: range.start,
          end: rangeTally.end,
          rows: rangeTally.counts.rows,
        },
        options.progressEveryMs,
      );
    logger.info(stoppedAt === undefined ? 'Range solved' : 'Range solved in part; the rest handed over', {
      sourceKey: job.sourceKey,
      range: range.index,
      ranges: job.ranges,
      rows: tally.counts.rows,
      durationMs: rangeTally.durationMs,
      ...(stoppedAt === undefined ? {} : { stoppedAt }),
    });
    if (stoppedAt === undefined) return { tally: rangeTally };
    // The rest starts at a record end, so outside quotes; its lines' numbers are known if these were.
    const next: RangeItem = {
      index: range.index,
      start: stoppedAt,
      end: range.end,
      ...(range.redo ? { redo: true } : {}),
      ...(known ? { newlinesBefore: (range.newlinesBefore ?? 0) + rangeTally.window.newlines, inQuotes: false } : {}),
    };
    return { tally: rangeTally, next };
  } catch (error) {
    // The source (or its inflated copy) was replaced or removed: this job's answers are stale.
    if (isPreconditionFailed(error) || isNotFound(error)) throw new SourceChangedError(job.sourceKey);
    throw error;
  }
}

/** The chunks of `source`, and whether a read of it is under way (asked for, not yet answered). */
function watchedReads(source: AsyncIterable<Uint8Array>): { source: AsyncIterable<Uint8Array>; waiting(): boolean } {
  let waiting = false;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const iterator = source[Symbol.asyncIterator]();
    try {
      for (;;) {
        waiting = true;
        const next = await iterator.next();
        waiting = false;
        if (next.done) return;
        yield next.value;
      }
    } finally {
      waiting = false;
      await iterator.return?.();
    }
  }
  return { source: chunks(), waiting: () => waiting };
}
