/**
 * The end of a file solved in ranges: `finishLargeFile` reads every range's tally, names the
 * ranges to solve again (their answers quote line numbers, or a .csv range started inside a
 * quoted field: both need what the ranges before it counted), and once none is left assembles
 * the output and writes the file's one report; `failLargeFile` reports a job that cannot finish.
 * Either way the job's staging objects are removed.
 * The output and report are written by job-writes.ts (never a superseded version's answer left
 * standing). Every S3 call is retried on its own (s3-retry.ts): a step of hundreds of calls must
 * not fail on one 503 the ranges would have survived.
 */
import { DeleteObjectsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { contentTypeFor, emptyRowCounts, levelHistogram } from '../formats/index.js';
import type { RowCounts } from '../formats/index.js';
import {
  FILE_TRIES_PER_VERSION,
  type FinishResult,
  type LargeFileJob,
  type RangeItem,
} from '../contract/large-files.js';
import { ERROR_NAMES } from '../contract/error-names.js';
import { answerMetadata } from '../contract/service-layout.js';
import { logger, recordFile, recordSolves } from '../observability/powertools.js';
import { mapBounded } from './concurrency.js';
import { headOrUndefined, readJson, SourceChangedError } from './object-versions.js';
import { checkSource, landOverCurrent, superseded, withdrawOutput, writeReport } from './job-writes.js';
import { type FailureKind, failureMetadata, reportedFailure, retryAdvice, type FileReport } from './report.js';
import { retryS3, type S3RetrySettings } from './s3-retry.js';
import { assembleStagedOutput, listAll } from './staged-output.js';
import { type RangeTally, stagingKeys } from './solve-range.js';
import { withdrawRunningReport } from './running-report.js';

const REPORT_FAILURES = 100;

export interface FinishOptions {
  client: S3Client;
  /** Each S3 call's own retries (default S3_RETRY; tests shorten the waits). */
  retry?: S3RetrySettings;
}

/** Every piece's tally, in file order; throws unless they cover the whole file, end to end. */
async function readTallies(client: S3Client, job: LargeFileJob, retry?: S3RetrySettings): Promise<RangeTally[]> {
  const keys = await listAll(client, job.bucket, `${job.stagingPrefix}tally/`, retry);
  const tallies = await mapBounded(keys, 16, ({ key }) =>
    retryS3(() => readJson<RangeTally>(client, job.bucket, key), retry),
  );
  let covered = 0;
  for (const tally of tallies) {
    if (tally.start !== covered) break;
    covered = tally.end;
  }
  if (covered !== job.size)
    throw new Error(`the ranges' answers cover ${covered} of ${job.size} bytes: the solve map did not finish them`);
  return tallies;
}

/** Ranges whose answers depend on where they start, with what they need to be solved again. */
function rangesToRedo(job: LargeFileJob, tallies: readonly RangeTally[]): RangeItem[] {
  const redo: RangeItem[] = [];
  let newlinesBefore = 0;
  let quotes = 0;
  for (const tally of tallies) {
    const inQuotes = job.kind.format === 'csv' && quotes % 2 === 1;
    if (!tally.known && (tally.failuresTotal > 0 || inQuotes !== tally.inQuotes))
      redo.push({ index: tally.index, start: tally.start, end: tally.end, newlinesBefore, inQuotes, redo: true });
    newlinesBefore += tally.window.newlines;
    quotes += tally.window.quotes;
  }
  return redo;
}

function sumCounts(tallies: readonly RangeTally[]): RowCounts {
  const total = emptyRowCounts();
  for (const { counts } of tallies)
    for (const name of Object.keys(total) as (keyof RowCounts)[]) total[name] += counts[name];
  return total;
}

/** Removes the job's staging objects; what cannot be removed, the bucket's lifecycle rule removes. */
export async function removeStaging(client: S3Client, job: LargeFileJob, retry?: S3RetrySettings): Promise<void> {
  try {
    const objects = await listAll(client, job.bucket, job.stagingPrefix, retry);
    for (let i = 0; i < objects.length; i += 1000) {
      await retryS3(
        () =>
          client.send(
            new DeleteObjectsCommand({
              Bucket: job.bucket,
              Delete: { Objects: objects.slice(i, i + 1000).map(({ key }) => ({ Key: key })), Quiet: true },
            }),
          ),
        retry,
      );
    }
  } catch (error) {
    logger.warn("Could not remove the job's staging objects; the bucket's lifecycle rule removes them", {
      stagingPrefix: job.stagingPrefix,
      error: error as Error,
    });
  }
}

async function baseReport(
  client: S3Client,
  job: LargeFileJob,
  retry?: S3RetrySettings,
): Promise<Pick<FileReport, 'source' | 'format' | 'startedAt' | 'finishedAt' | 'durationMs'>> {
  const source = await retryS3(() => headOrUndefined(client, job.bucket, job.sourceKey), retry);
  const finished = new Date();
  return {
    source: { bucket: job.bucket, key: job.sourceKey, eTag: job.eTag, size: source?.ContentLength },
    format: { format: job.kind.format, gzip: job.kind.gzip },
    startedAt: job.startedAt,
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - Date.parse(job.startedAt),
  };
}

/** The finish step: ranges to redo, or the output assembled and the report written. */
export async function finishLargeFile(job: LargeFileJob, options: FinishOptions): Promise<FinishResult> {
  const { client, retry } = options;
  const tallies = await readTallies(client, job, retry);
  const redo = rangesToRedo(job, tallies);
  if (redo.length > 0) {
    const manifestKey = stagingKeys.redo(job);
    await retryS3(
      () =>
        client.send(
          new PutObjectCommand({
            Bucket: job.bucket,
            Key: manifestKey,
            Body: JSON.stringify(redo),
            ContentType: 'application/json',
          }),
        ),
      retry,
    );
    logger.info('Ranges to solve again, knowing where they start', { sourceKey: job.sourceKey, redo: redo.length });
    return { redo: { manifestKey, ranges: redo.length } };
  }
  const counts = sumCounts(tallies);
  const levels = tallies.reduce(
    (sum, t) => sum.map((n, i) => n + (t.levels[i] ?? 0)),
    tallies[0]?.levels.map(() => 0) ?? [],
  );
  const invocations = (await listAll(client, job.bucket, `${job.stagingPrefix}attempts/`, retry)).length;
  const redone = new Set(tallies.filter((t) => t.redo).map((t) => t.index)).size;
  try {
    await checkSource(client, job, retry);
    const pieces = await listAll(client, job.bucket, `${job.stagingPrefix}out/`, retry);
    if (pieces.length !== tallies.length)
      throw new Error(`${tallies.length} pieces were counted but ${pieces.length} have staged answers`);
    const parts = await assembleStagedOutput({
      client,
      bucket: job.bucket,
      key: job.outputKey,
      pieces,
      contentType: contentTypeFor(job.kind),
      metadata: answerMetadata(job.sourceKey, job.eTag),
      ...(job.outputETag ? { existingETag: job.outputETag } : {}),
      onConflict: async () => (await landOverCurrent(client, job, job.outputKey, retry))?.ETag,
      ...(retry ? { retry } : {}),
    });
    const base = await baseReport(client, job, retry);
    const report: FileReport = {
      ...base,
      outcome: 'solved',
      output: { key: job.outputKey, written: true },
      counts,
      ...(job.grade ? { levels: levelHistogram(levels) } : {}),
      failures: tallies.flatMap((t) => t.failures.map(reportedFailure)).slice(0, REPORT_FAILURES),
      failuresTotal: tallies.reduce((n, t) => n + t.failuresTotal, 0),
      puzzlesPerSecond: base.durationMs > 0 ? Math.round((counts.rows * 1000) / base.durationMs) : 0,
      split: {
        ...splitPlan(job),
        redone,
        invocations: invocations + (redone > 0 ? 3 : 2),
        parts,
      },
    };
    // Checks the source again first: a version uploaded while the output landed supersedes it.
    await writeReport(client, job, report, retry);
    recordSolves(counts.solved, counts.rows - counts.solved, 0);
    recordFile('solved');
    logger.info('File solved in ranges', {
      sourceKey: job.sourceKey,
      outputKey: job.outputKey,
      counts,
      ranges: job.ranges,
      redone,
      parts,
    });
  } catch (error) {
    if (!(await superseded(client, job, error, retry))) throw error;
    logger.info('Source replaced while it was solved in ranges; this job stops', { sourceKey: job.sourceKey });
    await withdrawOutput(client, job, { own: true }, retry);
    await withdrawRunningReport(client, job);
    await removeStaging(client, job, retry);
    return { outcome: 'superseded' };
  }
  await removeStaging(client, job, retry);
  return { outcome: 'solved' };
}

/** The report's account of the plan: how many ranges of what size, and how the size was chosen. */
function splitPlan(job: LargeFileJob) {
  const sampled = job.sizing?.sample?.rowsPerSecond;
  return {
    ranges: job.ranges,
    rangeBytes: job.rangeBytes,
    sizedBy: job.sizing?.by ?? 'plan',
    ...(sampled === undefined ? {} : { sampleRowsPerSecond: sampled }),
  };
}

/** The fail step: a job that cannot finish gets a `failed` report saying why (unless its source was replaced). */
export async function failLargeFile(
  job: LargeFileJob,
  error: { Error?: string; Cause?: string },
  options: FinishOptions,
): Promise<FinishResult> {
  const { client, retry } = options;
  const cause = parseCause(error.Cause);
  // A range's own error reaches here only inside the map's (States.ExceedToleratedFailureThreshold).
  const timeLimit = error.Error === ERROR_NAMES.timeLimit || (error.Cause ?? '').includes(ERROR_NAMES.timeLimit);
  // A range that needs more than an invocation fails the same way again; anything else (throttling,
  // S3 errors, a run cut short) can pass, and an identical re-upload or the sweep tries it again.
  const failure: FailureKind = timeLimit ? 'final' : 'transient';
  const tries = (job.failedBefore ?? 0) + 1;
  const report: FileReport = {
    ...(await baseReport(client, job, retry)),
    outcome: 'failed',
    output: { key: job.outputKey, written: false },
    error: {
      code: timeLimit ? 'TIME_LIMIT' : 'RANGES_FAILED',
      message: timeLimit
        ? cause
        : `The file was cut into ${job.ranges} ranges and could not be finished: ${error.Error ?? 'error'}: ${cause}. ` +
          retryAdvice(failure, tries, FILE_TRIES_PER_VERSION),
    },
    counts: { ...emptyRowCounts(), rowsReadBeforeError: 0 },
    failures: [],
    failuresTotal: 0,
    puzzlesPerSecond: 0,
    split: { ...splitPlan(job), redone: 0, invocations: 0, parts: 0 },
  };
  try {
    if (error.Error === ERROR_NAMES.sourceChanged) throw new SourceChangedError(job.sourceKey);
    await writeReport(client, job, report, retry, failureMetadata(failure, tries));
    // The report names this version: an output answering another one (a superseded run's, landed
    // after it checked the source) would contradict it.
    await withdrawOutput(client, job, { keep: job.eTag }, retry);
    recordFile('failed');
    logger.error('File solved in ranges failed: a failed report says why', {
      sourceKey: job.sourceKey,
      error: report.error,
    });
  } catch (failure) {
    if (!(await superseded(client, job, failure, retry))) throw failure;
    await withdrawOutput(client, job, { own: true }, retry);
    await withdrawRunningReport(client, job);
    await removeStaging(client, job, retry);
    return { outcome: 'superseded' };
  }
  await removeStaging(client, job, retry);
  return {};
}

/** Step Functions passes a Lambda error's Cause as the JSON of `{errorType, errorMessage, trace}`. */
function parseCause(cause: string | undefined): string {
  if (!cause) return 'no cause given';
  try {
    const parsed = JSON.parse(cause) as { errorMessage?: unknown };
    return typeof parsed.errorMessage === 'string' ? parsed.errorMessage : cause;
  } catch {
    return cause;
  }
}
