import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import {
  contentTypeFor,
  detectFileKind,
  FileTally,
  fileFault,
  isFormatError,
  levelHistogram,
  solvePuzzleStream,
} from '../formats/index.js';
import type { FileKind, FormatError } from '../formats/index.js';
import { batchSolverFor, solverThreads } from '../parallel/index.js';
import { logger, recordFile, recordSolves } from '../observability/powertools.js';
import {
  GRADE_METADATA,
  REPORT_OUTCOME_METADATA,
  answerMetadata,
  SOURCE_ETAG_METADATA,
  SOURCE_KEY_METADATA,
  sourceKeyMetadata,
} from '../contract/service-layout.js';
import { failureMetadata, mayTryAgain, reportedCounts, reportedFailure } from './report.js';
import { FILE_TRIES_PER_VERSION } from '../contract/large-files.js';
import type { FileReport } from './report.js';
import {
  abortUpload,
  bareETag,
  checkSourceUnchanged,
  type ExistingOutputs,
  type Head,
  headOrUndefined,
  isPreconditionFailed,
  SourceChangedError,
  writeCondition,
} from './object-versions.js';
import { isRunningReportOf } from './running-report.js';
import { stopBeforeTimeout, TimeLimitError } from './time-limit.js';
import { handOverToRanges, TriesExhaustedError } from './large-file-job.js';
import { needsRanges, rangePlanSettingsFromEnv, type RangePlanSettings } from './range-plan.js';
import type { LargeFileStarter } from './large-file-runs.js';

/**
 * Multipart part size. S3's minimum is 5 MiB; 8 MiB keeps a 1M-puzzle output (about 82 MB) at
 * ten parts while the buffered parts (size x queue) stay far below the function's memory.
 */
export const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
/** Parts uploaded at once. */
export const DEFAULT_QUEUE_SIZE = 2;

export interface ProcessObjectOptions {
  client: S3Client;
  bucket: string;
  /** The decoded key of the puzzle file. */
  sourceKey: string;
  outputKey: string;
  reportKey: string;
  /** Solve again even if the output already answers this version of the source. */
  force?: boolean;
  /** Multipart part size in bytes (at least 5 MiB). */
  partSize?: number;
  queueSize?: number;
  /** Failed rows listed in the report. */
  failureCap?: number;
  /**
   * The invocation's time left (Lambda's `context.getRemainingTimeInMillis`). Solving stops
   * `timeMarginMs(...)` before it runs out, so the upload is aborted and a report written while
   * there is time, instead of the invocation dying at its timeout with nothing said.
   */
  timeLeftMs?: () => number;
  /** How a file too large for one invocation is cut (default: from the function's environment). */
  ranges?: RangePlanSettings;
  /** Starts the large-file state machine (default: Step Functions, at the ARN in the environment). */
  startLargeFile?: LargeFileStarter;
  /** Set by a run of the large-file machine asking for its successor (see HandOverOptions.supersedes). */
  supersedes?: number;
}

/** Why a file was not solved by this run (see ProcessObjectResult). */
export type SkipReason =
  | 'already-solved'
  | 'already-rejected'
  | 'already-failed'
  | 'source-missing'
  | 'superseded'
  | 'handed-over';

export type ProcessObjectResult =
  | { status: 'processed'; report: FileReport }
  | {
      status: 'skipped';
      /**
       * `already-solved`/`already-rejected`: a report already answers this ETag (see `alreadyHandled`);
       * `superseded`: the source was replaced while this run solved it, so this run wrote nothing
       * more (the new version's own event answers it); `already-failed`: a report says this version
       * could not be solved within one invocation (solving it again would fail the same way);
       * `handed-over`: too large for one invocation, it is solved in ranges by the large-file
       * state machine, which writes the output and the report (functions/contract/large-files.ts).
       */
      reason: SkipReason;
      sourceKey: string;
      eTag?: string;
    };

/**
 * What was already done for this version of the source, if anything. A solved file is done only
 * when both its output and its report answer the ETag (the report is written last, so an output
 * without one is an interrupted run); a rejected file has no output, and its report alone says so.
 * A running report answers nothing (see below).
 * An object answers only if it names this source key too: equal bytes uploaded under another key
 * have the same ETag, and must never pass for this file's answer.
 */
function alreadyHandled(
  { output, report }: ExistingOutputs,
  sourceKey: string,
  eTag: string,
): 'solved' | 'rejected' | 'failed' | undefined {
  const answers = (head: Head) =>
    bareETag(head?.Metadata?.[SOURCE_ETAG_METADATA]) === eTag &&
    head?.Metadata?.[SOURCE_KEY_METADATA] === sourceKeyMetadata(sourceKey);
  if (!answers(report)) return undefined;
  const outcome = report?.Metadata?.[REPORT_OUTCOME_METADATA];
  // A running report (running-report.ts) says a run in ranges is under way or was cut off: not
  // done, not failed. The hand-over asks Step Functions whether the run is open, and starts none
  // beside it; even with the output landed, the run still has its report to write.
  if (outcome === 'running') return undefined;
  if (outcome === 'rejected') return outcome;
  // A failure that can pass (throttling, S3 errors, a run cut short) is tried again, a bounded
  // number of times per version; one that would fail the same way is not.
  if (outcome === 'failed') return mayTryAgain(report?.Metadata, FILE_TRIES_PER_VERSION) ? undefined : outcome;
  return answers(output) ? 'solved' : undefined;
}

/**
 * Streams the source through the solver into a multipart upload of the output. The output
 * appears only when complete, only while the source is still the version solved (checked before
 * the upload completes), and only over the output this run saw at its start (a conditional
 * write): on any failure the upload is aborted and the first cause rethrown.
 */
async function solveIntoOutput(
  options: ProcessObjectOptions,
  kind: FileKind,
  eTag: string,
  tally: FileTally,
  existing: ExistingOutputs,
  grade: boolean,
): Promise<void> {
  const { client, bucket } = options;
  // IfMatch: solve exactly the version that was checked (S3 answers 412 if it changed since).
  const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: options.sourceKey, IfMatch: `"${eTag}"` }));
  const body = got.Body as Readable;
  // The solver writes its answers here; the upload reads `outputBody`, which ends only once the
  // source is known to be unchanged, so a superseded run never completes its output.
  const answers = new PassThrough();
  const outputBody = new PassThrough();
  answers.pipe(outputBody, { end: false });
  // The first S3 write that fails for good (after the SDK's retries) stops the solving at once:
  // once the output cannot succeed, solving the rest of the file is wasted work.
  let uploadError: unknown;
  const watchedClient = new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: Parameters<S3Client['send']>[0], ...rest: unknown[]) =>
        (target.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest).catch((error: unknown) => {
          uploadError ??= error;
          body.destroy();
          throw error;
        });
    },
  });
  const upload = new Upload({
    client: watchedClient,
    params: {
      Bucket: bucket,
      Key: options.outputKey,
      Body: outputBody,
      ContentType: contentTypeFor(kind),
      Metadata: answerMetadata(options.sourceKey, eTag),
      ...writeCondition(existing.output?.ETag),
    },
    partSize: options.partSize ?? DEFAULT_PART_SIZE,
    queueSize: options.queueSize ?? DEFAULT_QUEUE_SIZE,
    // Aborted here, not by the Upload: when the abort itself fails, its error must not hide the cause.
    leavePartsOnError: true,
  });
  const solving = solvePuzzleStream({
    input: body,
    output: answers,
    format: kind.format,
    gunzip: kind.gzip,
    gzip: kind.gzip,
    tally,
    batches: batchSolverFor(solverThreads()),
    // Asked for by the source's metadata: the report's level histogram, a .csv's level and score columns.
    grade,
  }).then(async () => {
    await finished(answers);
    await checkSourceUnchanged(options.client, options.bucket, options.sourceKey, eTag);
    outputBody.end();
  });
  const uploading = upload.done();
  // Stop with time left: the input fails with TimeLimitError, which ends the solver and the upload,
  // and the race below ends at once (a 256 KiB batch of the hardest set: ~1 s on a loaded core).
  const timeLimit = stopBeforeTimeout(options.timeLeftMs, body, () => tally.rowsRead);
  // Whichever side fails first ends both: a stalled upload must not leave the reader waiting forever.
  let solveError: unknown;
  solving.catch((error: unknown) => {
    solveError = error;
  });
  uploading.catch(() => undefined);
  try {
    await Promise.race([Promise.all([solving, uploading]), timeLimit.stopped]);
    timeLimit.cancel();
  } catch (error) {
    timeLimit.cancel();
    body.destroy();
    // Failing the upload's body (not just ending it, which would complete a truncated object)
    // ends the Upload; then the parts already sent are removed.
    outputBody.destroy(error instanceof Error ? error : new Error(String(error)));
    await uploading.catch(() => undefined);
    await abortUpload(client, bucket, options.outputKey, upload.uploadId);
    // A file at fault (a FormatError such as BAD_GZIP) is reported, found by formats/ from
    // whichever side failed first; so is a file that needs more time than one invocation has.
    const fault = fileFault(solveError, error);
    if (fault) throw fault;
    if (solveError instanceof TimeLimitError) throw solveError;
    if (error instanceof TimeLimitError) throw error;
    // Else the first cause: an S3 write that failed is what stopped the solver (whose own error is
    // then only the consequence, an AbortError or a premature close).
    throw uploadError ?? error;
  }
}

/**
 * The per-file pipeline, shared by every adapter (S3 events, the batch): solve one puzzle file
 * of the bucket into `outputKey` and write `reportKey`. Idempotent per source ETag. A file that
 * cannot be read as puzzles (unknown extension, no puzzle column...) gets a report and no output;
 * any other failure (S3, network) is thrown, after aborting the output, so the caller can retry.
 */
export async function processObject(options: ProcessObjectOptions): Promise<ProcessObjectResult> {
  const { client, bucket, sourceKey } = options;
  const startedAt = new Date();
  const started = performance.now();

  const head = await headOrUndefined(client, bucket, sourceKey);
  if (!head) {
    logger.warn('Source object no longer exists; nothing to solve', { bucket, sourceKey });
    return { status: 'skipped', reason: 'source-missing', sourceKey };
  }
  const eTag = bareETag(head.ETag);
  const [output, existingReport] = await Promise.all([
    headOrUndefined(client, bucket, options.outputKey),
    headOrUndefined(client, bucket, options.reportKey),
  ]);
  const existing: ExistingOutputs = { output, report: existingReport };
  const grade = head.Metadata?.[GRADE_METADATA] === 'true';
  const handled = options.force ? undefined : alreadyHandled(existing, sourceKey, eTag);
  if (handled) {
    logger.info(`Source already ${handled} at this ETag; skipping`, { bucket, sourceKey, eTag });
    return { status: 'skipped', reason: `already-${handled}`, sourceKey, eTag };
  }

  const detected = detectFileKind(sourceKey);
  const kind = detected.ok ? detected.kind : undefined;
  const tally = new FileTally({ ...(options.failureCap === undefined ? {} : { failureCap: options.failureCap }) });
  let rejection: FormatError | undefined = detected.ok ? undefined : detected.error;
  let timeLimit: TimeLimitError | undefined;
  /** The version's runs in ranges used every try (FILE_TRIES_PER_VERSION): reported as failed, for good. */
  let exhausted: TriesExhaustedError | undefined;
  /**
   * A 412 on a conditional write, or the source replaced: either the source changed (this run's
   * answers are stale: it stops, and the new version's own event answers it) or another run of
   * the same version wrote first (thrown: the retry finds the file done).
   */
  const supersededOrThrow = async (error: unknown): Promise<ProcessObjectResult> => {
    const now = await headOrUndefined(client, bucket, sourceKey);
    if (now && bareETag(now.ETag) === eTag) {
      recordFile('failed');
      throw error;
    }
    logger.info('Source replaced while it was solved; this run stops, the new version is solved by its own event', {
      bucket,
      sourceKey,
      eTag,
      ...(now ? { newETag: bareETag(now.ETag) } : {}),
    });
    return { status: 'skipped', reason: 'superseded', sourceKey, eTag };
  };
  const isConflict = (error: unknown): boolean => error instanceof SourceChangedError || isPreconditionFailed(error);

  const plan = options.ranges ?? rangePlanSettingsFromEnv();
  const handOver = (fileKind: FileKind, sample = true) =>
    handOverToRanges({
      ...options,
      kind: fileKind,
      eTag,
      size: head.ContentLength ?? 0,
      grade,
      existing,
      plan,
      sample,
    });
  // A version with a running report was handed to ranges before (by its size, or after running
  // out of time): it goes straight back to the hand-over, which finds its run open and starts no
  // second one, instead of being solved once more in this invocation.
  const running = isRunningReportOf(existing.report, eTag);
  if (kind && (running || needsRanges(head.ContentLength ?? 0, kind, grade, plan))) {
    try {
      const handed = await handOver(kind);
      if (handed.status === 'handed-over') return { status: 'skipped', reason: 'handed-over', sourceKey, eTag };
      if (handed.status === 'answered')
        return { status: 'skipped', reason: `already-${handed.outcome}`, sourceKey, eTag };
      if (handed.status === 'rejected') {
        rejection = handed.error;
        tally.readAhead(handed.rowsRead);
      } else if (handed.error instanceof TriesExhaustedError) exhausted = handed.error;
      else timeLimit = handed.error;
    } catch (error) {
      if (isConflict(error)) return supersededOrThrow(error);
      recordFile('failed');
      throw error;
    }
  } else if (kind) {
    try {
      await solveIntoOutput(options, kind, eTag, tally, existing, grade);
    } catch (error) {
      if (isConflict(error)) return supersededOrThrow(error);
      if (error instanceof TimeLimitError) timeLimit = error;
      else if (!isFormatError(error)) {
        recordFile('failed');
        throw error;
      } else rejection = error;
    }
    // Slower than the plan's rate (rows far harder than the hardest shared set, a slow machine):
    // the output was aborted with time left, and a plain file is handed to the large-file state
    // machine from its start, whose ranges hand over as often as they must. A .gz is not: its
    // inflation would not fit in the time left, and its report says to upload it uncompressed.
    if (timeLimit && kind.gzip)
      timeLimit = new TimeLimitError(
        timeLimit.rowsRead,
        timeLimit.seconds,
        'a .gz is solved in one invocation unless its compressed size says it cannot be, and this one needed more. ' +
          'Upload it uncompressed: a plain file is solved in ranges, as many as it needs.',
      );
    if (timeLimit && !kind.gzip && kind.format !== 'json') {
      const { rowsRead, seconds } = timeLimit;
      try {
        const handed = await handOver(kind, false);
        if (handed.status === 'answered')
          return { status: 'skipped', reason: `already-${handed.outcome}`, sourceKey, eTag };
        if (handed.status === 'failed' && handed.error instanceof TriesExhaustedError) {
          exhausted = handed.error;
          timeLimit = undefined;
        }
        if (handed.status === 'handed-over') {
          logger.warn('File slower than planned: one invocation was not enough, handed over to ranges', {
            bucket,
            sourceKey,
            eTag,
            rowsRead,
            seconds,
          });
          return { status: 'skipped', reason: 'handed-over', sourceKey, eTag };
        }
      } catch (error) {
        if (isConflict(error)) return supersededOrThrow(error);
        // Without the large-file state machine (a bare local run), the failed report stands.
        if ((error as Error | undefined)?.name !== 'LargeFileNotConfiguredError') {
          recordFile('failed');
          throw error;
        }
      }
    }
  }

  const durationMs = performance.now() - started;
  const failure = exhausted ?? timeLimit;
  const unwritten = rejection !== undefined || failure !== undefined;
  const report: FileReport = {
    source: { bucket, key: sourceKey, eTag, size: head.ContentLength },
    outcome: failure ? 'failed' : rejection ? 'rejected' : 'solved',
    output: { key: options.outputKey, written: !unwritten },
    format: kind,
    ...(rejection ? { error: rejection.toJSON() } : {}),
    ...(failure ? { error: { code: failure.code, message: failure.message } } : {}),
    // A rejected or failed file's answers were never written: its report counts none of them.
    counts: reportedCounts(tally, unwritten),
    ...(grade ? { levels: levelHistogram(unwritten ? [] : tally.levels) } : {}),
    failures: unwritten ? [] : tally.failures.map(reportedFailure),
    failuresTotal: unwritten ? 0 : tally.failuresTotal,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Math.round(durationMs),
    puzzlesPerSecond: !unwritten && durationMs > 0 ? Math.round((tally.counts.rows * 1000) / durationMs) : 0,
  };
  // The report, too, only while the source is this version and over the report this run saw.
  try {
    await checkSourceUnchanged(options.client, options.bucket, options.sourceKey, eTag);
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: options.reportKey,
        Body: `${JSON.stringify(report, null, 2)}\n`,
        ContentType: 'application/json',
        Metadata: {
          ...answerMetadata(sourceKey, eTag),
          [REPORT_OUTCOME_METADATA]: report.outcome,
          // Either cause would fail the same way again: the version is not tried again.
          ...(failure ? failureMetadata('final', exhausted ? exhausted.tries : 1) : {}),
        },
        ...writeCondition(existing.report?.ETag),
      }),
    );
  } catch (error) {
    if (isConflict(error)) return supersededOrThrow(error);
    throw error;
  }
  recordSolves(report.counts.solved, report.counts.rows - report.counts.solved, Math.round(durationMs * 1000));
  recordFile(report.outcome);
  const summary = {
    bucket,
    sourceKey,
    eTag,
    outcome: report.outcome,
    counts: report.counts,
    durationMs: report.durationMs,
  };
  if (exhausted)
    logger.error('File not tried again: its runs in ranges used every try; a failed report says why', {
      ...summary,
      error: report.error,
    });
  else if (timeLimit)
    logger.error('File stopped for time: no output written, a failed report says why', {
      ...summary,
      error: report.error,
    });
  else if (rejection) logger.warn('File rejected: no output written', { ...summary, error: report.error });
  else
    logger.info('File solved', { ...summary, outputKey: options.outputKey, puzzlesPerSecond: report.puzzlesPerSecond });
  return { status: 'processed', report };
}
