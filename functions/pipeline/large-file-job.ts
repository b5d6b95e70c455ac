/**
 * Handing a file too large for one invocation to the large-file state machine: check what can be
 * checked before cutting (a .csv's header), inflate a .gz into a staging copy (gzip cannot be
 * cut by bytes), size the ranges from a sample of the file solved here (range-sample.ts), write
 * them as the solve map's manifest and start the job.
 */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import {
  countLines,
  decodeUtf8,
  type FileKind,
  FormatError,
  isFormatError,
  readCsvHeaderLines,
  splitLines,
} from '../formats/index.js';
import {
  askedAgainKeyFor,
  FILE_TRIES_PER_VERSION,
  type LargeFileJob,
  largeFileJobId,
  type RangeItem,
  type RangeSizing,
  stagingPrefixFor,
} from '../contract/large-files.js';
import { ServiceError } from '../contract/service-error.js';
import { logger } from '../observability/powertools.js';
import { REPORT_OUTCOME_METADATA, SOURCE_ETAG_METADATA } from '../contract/service-layout.js';
import {
  abortUpload,
  bareETag,
  type ExistingOutputs,
  headOrUndefined,
  isNotFound,
  readJson,
} from './object-versions.js';
import { planRanges, type RangePlanSettings, rangeBytesFor, sampledRangeBytes } from './range-plan.js';
import { sampleSolveRate } from './range-sample.js';
import { failedRuns, isOpen, type LargeFileStarter, type RunRecord } from './large-file-runs.js';
import { mayTryAgain, retryAdvice } from './report.js';
import { byteCounter, stopBeforeTimeout, TimeLimitError } from './time-limit.js';

export interface HandOverOptions {
  client: S3Client;
  bucket: string;
  sourceKey: string;
  outputKey: string;
  reportKey: string;
  kind: FileKind;
  eTag: string;
  size: number;
  grade: boolean;
  existing: ExistingOutputs;
  plan: RangePlanSettings;
  timeLeftMs?: () => number;
  startLargeFile?: LargeFileStarter;
  /**
   * Set by the run that asks for its successor (attempt `supersedes`, whose source was replaced and
   * put back while it ran): that run, still open while it asks, counts as ended.
   */
  supersedes?: number;
  /**
   * Size ranges by a sample of the file (default). False after a run that stopped for time: the
   * little time left goes to the hand-over itself, and the ranges take the conservative plan.
   */
  sample?: boolean;
}

type AnsweredOutcome = 'solved' | 'rejected' | 'failed';

export type HandOverResult =
  | { status: 'handed-over'; job?: LargeFileJob; started: boolean; attempt: number }
  /** A run of this version ended and wrote its report since this invocation looked: nothing to do. */
  | { status: 'answered'; outcome: AnsweredOutcome }
  | { status: 'rejected'; error: FormatError; rowsRead: number }
  | { status: 'failed'; error: TimeLimitError | TriesExhaustedError };

/** The version's runs failed as often as FILE_TRIES_PER_VERSION allows: not tried again for these bytes. */
export class TriesExhaustedError extends ServiceError<'TRIES_EXHAUSTED'> {
  override readonly name = 'TriesExhaustedError';
  constructor(readonly tries: number) {
    super(
      'TRIES_EXHAUSTED',
      `The file was solved in ranges ${tries} time(s) and no run finished it: each failed, timed out, ` +
        'was stopped or found the file replaced while it ran. ' +
        retryAdvice('final', tries, FILE_TRIES_PER_VERSION),
    );
  }
}

/** A .gz that failed to inflate, and how many lines came out of it first (the report says how far reading got). */
class InflateError extends ServiceError<'BAD_GZIP'> {
  override readonly name = 'InflateError';
  constructor(
    readonly fault: FormatError,
    readonly lines: number,
  ) {
    super('BAD_GZIP', fault.message, { cause: fault });
  }
}

/** The object's bytes from `from` on, of exactly the version `eTag` (a ranged GET; 412 if it changed). */
export async function readFrom(
  client: S3Client,
  bucket: string,
  key: string,
  eTag: string,
  from = 0,
): Promise<Readable> {
  const got = await client.send(
    new GetObjectCommand({
      Bucket: bucket,
      Key: key,
      IfMatch: `"${eTag}"`,
      ...(from > 0 ? { Range: `bytes=${from}-` } : {}),
    }),
  );
  return got.Body as Readable;
}

/** A .csv's header record, read from the start of the file (FormatError for a header without a puzzle column). */
export async function csvHeaderOf(client: S3Client, bucket: string, key: string, eTag: string, grade: boolean) {
  const body = await readFrom(client, bucket, key, eTag);
  try {
    return await readCsvHeaderLines(splitLines(decodeUtf8(body)), grade);
  } finally {
    body.destroy();
  }
}

/**
 * Gunzips the source into the job's staging copy, within the invocation's time. Returns the copy's
 * ETag and size; BAD_GZIP for a file that is not gzip, TimeLimitError when the inflation itself
 * would outlast the invocation.
 */
async function inflateToStaging(options: HandOverOptions, key: string): Promise<{ eTag: string; size: number }> {
  const { client, bucket } = options;
  const body = await readFrom(client, bucket, options.sourceKey, options.eTag);
  let size = 0;
  let lines = 0;
  const inflated = byteCounter((n, chunk) => {
    size += n;
    lines += countLines(chunk);
  });
  const upload = new Upload({
    client,
    params: { Bucket: bucket, Key: key, Body: inflated, ContentType: 'application/octet-stream' },
    leavePartsOnError: true,
  });
  const timeLimit = stopBeforeTimeout(
    options.timeLeftMs,
    body,
    () => 0,
    `the .gz could not even be inflated within one invocation. Upload it uncompressed (it is then cut into ranges) or split it.`,
  );
  const uploading = upload.done();
  uploading.catch(() => undefined);
  try {
    await Promise.race([pipeline(body, createGunzip(), inflated), timeLimit.stopped]);
    const done = await uploading;
    return { eTag: bareETag(done.ETag), size };
  } catch (error) {
    inflated.destroy();
    await uploading.catch(() => undefined);
    await abortUpload(client, bucket, key, upload.uploadId);
    const code = (error as { code?: string }).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR')
      throw new InflateError(
        new FormatError('BAD_GZIP', `The file ends in .gz but is not valid gzip (${(error as Error).message}).`),
        lines,
      );
    throw error;
  } finally {
    timeLimit.cancel();
  }
}

async function readJob(client: S3Client, bucket: string, key: string): Promise<LargeFileJob | undefined> {
  try {
    return await readJson<LargeFileJob>(client, bucket, key);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * The range size: SUDOKU_RANGE_BYTES exactly when set (no sample); else what the rate measured on
 * the file's first rows solves in half an invocation, between the conservative plan and its cap.
 * A sample that cannot be taken (no time, a read error) leaves the conservative plan.
 */
async function sizeRanges(
  options: HandOverOptions,
  key: string,
  eTag: string,
  size: number,
): Promise<{ rangeBytes: number; sizing: RangeSizing }> {
  const { kind, grade, plan } = options;
  if (plan.rangeBytes !== undefined) {
    const rangeBytes = rangeBytesFor(kind, grade, plan);
    return { rangeBytes, sizing: { by: 'fixed', planBytes: rangeBytes, maxBytes: rangeBytes } };
  }
  const conservative = sampledRangeBytes(kind, grade, plan, 0);
  const bounds = { planBytes: conservative.planBytes, maxBytes: conservative.maxBytes };
  if (options.sample === false) return { rangeBytes: conservative.planBytes, sizing: { by: 'plan', ...bounds } };
  let sample: RangeSizing['sample'];
  try {
    sample = await sampleSolveRate({
      read: () => readFrom(options.client, options.bucket, key, eTag),
      size,
      kind,
      grade,
      ...(options.timeLeftMs ? { timeLeftMs: options.timeLeftMs } : {}),
    });
  } catch (error) {
    logger.warn('The sample of the file could not be solved: ranges of the conservative plan', {
      sourceKey: options.sourceKey,
      error: (error as Error).message,
    });
  }
  if (!sample) return { rangeBytes: conservative.planBytes, sizing: { by: 'plan', ...bounds } };
  const { rangeBytes } = sampledRangeBytes(kind, grade, plan, sample.bytesPerSecond);
  return { rangeBytes, sizing: { by: 'sample', ...bounds, sample } };
}

/**
 * The run this hand-over is for: none when the version has a run going (a duplicate event, the
 * sweep) or when its report was written since this invocation looked (a run just ended); else the
 * next attempt, unless the version's runs have failed FILE_TRIES_PER_VERSION times.
 */
async function nextRun(
  options: HandOverOptions,
  jobId: string,
  starter: LargeFileStarter,
): Promise<
  | { open: RunRecord }
  | { answered: AnsweredOutcome }
  | { exhausted: number }
  | { attempt: number; failedBefore: number }
> {
  const runs = await starter.runs(jobId);
  const last = runs.at(-1);
  // The run that asks for its successor (its source was put back while it ran) is ending.
  if (last && isOpen(last) && last.attempt > (options.supersedes ?? 0)) return { open: last };
  if (last) {
    const report = await headOrUndefined(options.client, options.bucket, options.reportKey);
    const answers = bareETag(report?.Metadata?.[SOURCE_ETAG_METADATA]) === options.eTag;
    // A running report is no answer: its run ended (it is not open) without writing its final report.
    const running = report?.Metadata?.[REPORT_OUTCOME_METADATA] === 'running';
    if (
      answers &&
      !running &&
      report?.ETag !== options.existing.report?.ETag &&
      !mayTryAgain(report?.Metadata, FILE_TRIES_PER_VERSION)
    )
      return { answered: (report?.Metadata?.[REPORT_OUTCOME_METADATA] ?? 'solved') as AnsweredOutcome };
  }
  const failedBefore = failedRuns(runs);
  if (failedBefore >= FILE_TRIES_PER_VERSION) return { exhausted: failedBefore };
  return { attempt: (last?.attempt ?? 0) + 1, failedBefore };
}

/**
 * Plans the file's ranges, writes the manifest and starts its run (or finds one going). Each run of
 * a version is an attempt of its own (its execution name and staging prefix), so a run that failed,
 * timed out, was aborted or was superseded never stops the version from being solved by the next.
 */
export async function handOverToRanges(options: HandOverOptions): Promise<HandOverResult> {
  const { client, bucket, kind } = options;
  const jobId = largeFileJobId(options.sourceKey, options.eTag);
  const starter = options.startLargeFile ?? (await import('./large-file-starter.js')).startWithStepFunctions;
  const next = await nextRun(options, jobId, starter);
  if ('open' in next) {
    // The run is asked again: should it end without solving the source as it then is (replaced
    // and put back while it ran, or failed), it hands the version on instead of this event.
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: askedAgainKeyFor(jobId, next.open.attempt),
        Body: new Uint8Array(0),
      }),
    );
    logger.info('File already being solved in ranges', {
      sourceKey: options.sourceKey,
      jobId,
      attempt: next.open.attempt,
    });
    return { status: 'handed-over', started: false, attempt: next.open.attempt };
  }
  if ('answered' in next) return { status: 'answered', outcome: next.answered };
  if ('exhausted' in next) return { status: 'failed', error: new TriesExhaustedError(next.exhausted) };
  const { attempt, failedBefore } = next;
  const stagingPrefix = stagingPrefixFor(jobId, attempt);
  // A duplicate event that planned this attempt first: start its job (the same input is the same
  // execution) instead of planning anew over the staging copy its ranges read.
  const planned = await readJob(client, bucket, `${stagingPrefix}job.json`);
  if (planned) {
    const outcome = await starter.start(jobId, attempt, planned);
    return { status: 'handed-over', job: planned, started: outcome.started, attempt };
  }
  let readKey = options.sourceKey;
  let readETag = options.eTag;
  let size = options.size;
  try {
    if (kind.gzip) {
      readKey = `${stagingPrefix}inflated`;
      ({ eTag: readETag, size } = await inflateToStaging(options, readKey));
    }
    if (kind.format === 'csv') await csvHeaderOf(client, bucket, readKey, readETag, options.grade);
  } catch (error) {
    if (error instanceof InflateError) return { status: 'rejected', error: error.fault, rowsRead: error.lines };
    if (isFormatError(error)) return { status: 'rejected', error, rowsRead: 0 };
    if (error instanceof TimeLimitError) return { status: 'failed', error };
    throw error;
  }
  const sizing = await sizeRanges(options, readKey, readETag, size);
  const { rangeBytes, ranges } = planRanges(size, sizing.rangeBytes);
  const items: RangeItem[] = Array.from({ length: ranges }, (_, index) => ({
    index,
    start: index * rangeBytes,
    end: Math.min(size, (index + 1) * rangeBytes),
  }));
  const manifestKey = `${stagingPrefix}ranges.json`;
  await client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: manifestKey,
      Body: JSON.stringify(items),
      ContentType: 'application/json',
    }),
  );
  const job: LargeFileJob = {
    bucket,
    sourceKey: options.sourceKey,
    eTag: options.eTag,
    readKey,
    readETag,
    size,
    outputKey: options.outputKey,
    reportKey: options.reportKey,
    kind: { format: kind.format as LargeFileJob['kind']['format'], gzip: kind.gzip },
    grade: options.grade,
    rangeBytes,
    ranges,
    sizing: sizing.sizing,
    stagingPrefix,
    attempt,
    ...(failedBefore > 0 ? { failedBefore } : {}),
    manifestKey,
    ...(options.existing.output?.ETag ? { outputETag: options.existing.output.ETag } : {}),
    ...(options.existing.report?.ETag ? { reportETag: options.existing.report.ETag } : {}),
    startedAt: new Date().toISOString(),
  };
  await client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: `${stagingPrefix}job.json`,
      Body: JSON.stringify(job),
      ContentType: 'application/json',
    }),
  );
  const outcome = await starter.start(jobId, attempt, job);
  logger.info(
    outcome.started ? 'File too large for one invocation: solved in ranges' : 'File already being solved in ranges',
    {
      bucket,
      sourceKey: options.sourceKey,
      eTag: options.eTag,
      size,
      ranges,
      rangeBytes,
      sizing: sizing.sizing,
      jobId,
      attempt,
    },
  );
  return { status: 'handed-over', job, started: outcome.started, attempt };
}
