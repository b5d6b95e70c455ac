import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';
import {
  contentTypeFor,
  detectFileKind,
  FileTally,
  fileFault,
  isFormatError,
  solvePuzzleStream,
} from '../formats/index.js';
import type { FileKind, FormatError } from '../formats/index.js';
import { batchSolverFor, solverThreads } from '../parallel/index.js';
import { logger, recordFile, recordSolves } from '../observability/powertools.js';
import { REPORT_OUTCOME_METADATA, SOURCE_ETAG_METADATA, SOURCE_KEY_METADATA } from '../contract/service-layout.js';
import { reportedCounts, reportedFailure } from './report.js';
import type { FileReport } from './report.js';

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
}

export type ProcessObjectResult =
  | { status: 'processed'; report: FileReport }
  | {
      status: 'skipped';
      /** `already-solved`/`already-rejected`: a report already answers this ETag (see `alreadyHandled`). */
      reason: 'already-solved' | 'already-rejected' | 'source-missing';
      sourceKey: string;
      eTag?: string;
    };

/** ETags come quoted from HEAD/GET and bare in events; compare them bare. */
function bareETag(eTag: string | undefined): string {
  return (eTag ?? '').replace(/"/g, '');
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

async function headOrUndefined(client: S3Client, bucket: string, key: string) {
  try {
    return await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * What was already done for this version of the source, if anything. A solved file is done only
 * when both its output and its report answer the ETag (the report is written last, so an output
 * without one is an interrupted run); a rejected file has no output, and its report alone says so.
 */
async function alreadyHandled(options: ProcessObjectOptions, eTag: string): Promise<'solved' | 'rejected' | undefined> {
  const [output, report] = await Promise.all([
    headOrUndefined(options.client, options.bucket, options.outputKey),
    headOrUndefined(options.client, options.bucket, options.reportKey),
  ]);
  const answers = (head: typeof output) => bareETag(head?.Metadata?.[SOURCE_ETAG_METADATA]) === eTag;
  if (!answers(report)) return undefined;
  if (report?.Metadata?.[REPORT_OUTCOME_METADATA] === 'rejected') return 'rejected';
  return answers(output) ? 'solved' : undefined;
}

/**
 * Streams the source through the solver into a multipart upload of the output. The output
 * appears only when complete: on any failure the upload is aborted and the error rethrown.
 */
async function solveIntoOutput(
  options: ProcessObjectOptions,
  kind: FileKind,
  eTag: string,
  tally: FileTally,
): Promise<void> {
  const { client, bucket } = options;
  // IfMatch: solve exactly the version that was checked (S3 answers 412 if it changed since; the retry takes the new one).
  const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: options.sourceKey, IfMatch: `"${eTag}"` }));
  const body = got.Body as Readable;
  const outputBody = new PassThrough();
  const upload = new Upload({
    client,
    params: {
      Bucket: bucket,
      Key: options.outputKey,
      Body: outputBody,
      ContentType: contentTypeFor(kind),
      Metadata: { [SOURCE_ETAG_METADATA]: eTag, [SOURCE_KEY_METADATA]: encodeURIComponent(options.sourceKey) },
    },
    partSize: options.partSize ?? DEFAULT_PART_SIZE,
    queueSize: options.queueSize ?? DEFAULT_QUEUE_SIZE,
    leavePartsOnError: false,
  });
  const solving = solvePuzzleStream({
    input: body,
    output: outputBody,
    format: kind.format,
    gunzip: kind.gzip,
    gzip: kind.gzip,
    tally,
    batches: batchSolverFor(solverThreads()),
  });
  const uploading = upload.done();
  // Whichever side fails first ends both: a stalled upload must not leave the reader waiting forever.
  let solveError: unknown;
  solving.catch((error: unknown) => {
    solveError = error;
  });
  uploading.catch(() => undefined);
  try {
    await Promise.all([solving, uploading]);
  } catch (error) {
    body.destroy();
    // Failing the upload's body (not just ending it, which would complete a truncated object)
    // makes the Upload send AbortMultipartUpload; it settles only after that, so wait for it.
    outputBody.destroy(error instanceof Error ? error : new Error(String(error)));
    await uploading.catch(() => undefined);
    // A file at fault (a FormatError such as BAD_GZIP) is reported, anything else retried:
    // formats/ says which, from whichever side failed first.
    throw fileFault(solveError, error) ?? error;
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
  const handled = options.force ? undefined : await alreadyHandled(options, eTag);
  if (handled) {
    logger.info(`Source already ${handled} at this ETag; skipping`, { bucket, sourceKey, eTag });
    return { status: 'skipped', reason: handled === 'solved' ? 'already-solved' : 'already-rejected', sourceKey, eTag };
  }

  const detected = detectFileKind(sourceKey);
  const kind = detected.ok ? detected.kind : undefined;
  const tally = new FileTally({ ...(options.failureCap === undefined ? {} : { failureCap: options.failureCap }) });
  let rejection: FormatError | undefined = detected.ok ? undefined : detected.error;
  if (kind) {
    try {
      await solveIntoOutput(options, kind, eTag, tally);
    } catch (error) {
      if (!isFormatError(error)) {
        recordFile('failed');
        throw error;
      }
      rejection = error;
    }
  }

  const durationMs = performance.now() - started;
  const report: FileReport = {
    source: { bucket, key: sourceKey, eTag, size: head.ContentLength },
    outcome: rejection ? 'rejected' : 'solved',
    output: { key: options.outputKey, written: !rejection },
    format: kind,
    ...(rejection ? { error: rejection.toJSON() } : {}),
    // A rejected file's answers were never written: its report counts none of them.
    counts: reportedCounts(tally, rejection !== undefined),
    failures: rejection ? [] : tally.failures.map(reportedFailure),
    failuresTotal: rejection ? 0 : tally.failuresTotal,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Math.round(durationMs),
    puzzlesPerSecond: !rejection && durationMs > 0 ? Math.round((tally.counts.rows * 1000) / durationMs) : 0,
  };
  await client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: options.reportKey,
      Body: `${JSON.stringify(report, null, 2)}\n`,
      ContentType: 'application/json',
      Metadata: {
        [SOURCE_ETAG_METADATA]: eTag,
        [SOURCE_KEY_METADATA]: encodeURIComponent(sourceKey),
        [REPORT_OUTCOME_METADATA]: report.outcome,
      },
    }),
  );
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
  if (rejection) logger.warn('File rejected: no output written', { ...summary, error: report.error });
  else
    logger.info('File solved', { ...summary, outputKey: options.outputKey, puzzlesPerSecond: report.puzzlesPerSecond });
  return { status: 'processed', report };
}
