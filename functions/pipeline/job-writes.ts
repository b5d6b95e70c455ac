/**
 * The writes that end a job of a file solved in ranges, so that the output that remains always
 * answers the version its report names, or there is none and the report says why. The output is
 * written last but one, and S3 cannot make it conditional on another key (the source): a version
 * uploaded while the output lands leaves the older answer under a newer source. So a run that
 * finds itself superseded after its output landed removes that output (a delete conditional on
 * its ETag, so never a newer run's), and a run of the current version lands over whatever answer
 * it finds in its way (conditional on that answer's ETag) instead of failing on the 412.
 */
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type { LargeFileJob } from '../contract/large-files.js';
import { REPORT_OUTCOME_METADATA, answerMetadata, SOURCE_ETAG_METADATA } from '../contract/service-layout.js';
import { logger } from '../observability/powertools.js';
import {
  bareETag,
  checkSourceUnchanged,
  type Head,
  headOrUndefined,
  isNotFound,
  isPreconditionFailed,
  SourceChangedError,
  writeCondition,
} from './object-versions.js';
import type { FileReport } from './report.js';
import { retryS3, type S3RetrySettings } from './s3-retry.js';

/** Throws SourceChangedError unless the source is still the job's version (S3 errors retried). */
export function checkSource(client: S3Client, job: LargeFileJob, retry?: S3RetrySettings): Promise<void> {
  return retryS3(() => checkSourceUnchanged(client, job.bucket, job.sourceKey, job.eTag), retry);
}

/**
 * What a write of the current version lands over when another run wrote `key` since this job
 * started: while the source is still this job's version, whatever is there answers an older one
 * (or this one, from a duplicate run) and is replaced, conditionally on its ETag; once the source
 * is not, SourceChangedError.
 */
export async function landOverCurrent(
  client: S3Client,
  job: LargeFileJob,
  key: string,
  retry?: S3RetrySettings,
): Promise<Head> {
  await checkSource(client, job, retry);
  return retryS3(() => headOrUndefined(client, job.bucket, key), retry);
}

/**
 * The job's report, written while the source is still its version, over the report the job saw
 * at its start or, after a 412, over whatever report another run wrote since (landOverCurrent);
 * except that a `failed` report never replaces a `solved` one of the same version (a duplicate run).
 */
export async function writeReport(
  client: S3Client,
  job: LargeFileJob,
  report: FileReport,
  retry?: S3RetrySettings,
  /** More metadata (a failed report's kind of failure and tries: report.ts's failureMetadata). */
  metadata: Record<string, string> = {},
): Promise<void> {
  await checkSource(client, job, retry);
  let existing = job.reportETag;
  for (let conflicts = 0; ; conflicts++) {
    try {
      await retryS3(
        () =>
          client.send(
            new PutObjectCommand({
              Bucket: job.bucket,
              Key: job.reportKey,
              Body: `${JSON.stringify(report, null, 2)}\n`,
              ContentType: 'application/json',
              Metadata: {
                ...answerMetadata(job.sourceKey, job.eTag),
                [REPORT_OUTCOME_METADATA]: report.outcome,
                ...metadata,
              },
              ...writeCondition(existing),
            }),
          ),
        retry,
      );
      return;
    } catch (error) {
      const removed = existing !== undefined && (error as { name?: string }).name === 'NoSuchKey';
      if ((!isPreconditionFailed(error) && !removed) || conflicts >= OVERWRITES) throw error;
      const found = await landOverCurrent(client, job, job.reportKey, retry);
      const answers = found?.Metadata?.[SOURCE_ETAG_METADATA];
      if (
        report.outcome !== 'solved' &&
        answers === job.eTag &&
        found?.Metadata?.[REPORT_OUTCOME_METADATA] === 'solved'
      )
        return;
      existing = found?.ETag;
    }
  }
}

/** The most times one write lands over another run's in its way (each a run of an older version). */
const OVERWRITES = 3;

/** A write refused because the source was replaced: the new version's own event answers it. */
export async function superseded(
  client: S3Client,
  job: LargeFileJob,
  error: unknown,
  retry?: S3RetrySettings,
): Promise<boolean> {
  if (!(error instanceof SourceChangedError) && !isPreconditionFailed(error)) return false;
  const now = await retryS3(() => headOrUndefined(client, job.bucket, job.sourceKey), retry);
  return !now || bareETag(now.ETag) !== job.eTag;
}

/**
 * Removes the output if it is this job's own (`own`: the job is superseded), or if it answers
 * another version than `keep` (the job failed, and its report names `keep`): a delete conditional
 * on the ETag read, so an output a newer run landed meanwhile stays. What cannot be removed, the
 * newest version's run lands over.
 */
export async function withdrawOutput(
  client: S3Client,
  job: LargeFileJob,
  which: { own: true } | { keep: string },
  retry?: S3RetrySettings,
): Promise<void> {
  try {
    const output = await retryS3(() => headOrUndefined(client, job.bucket, job.outputKey), retry);
    const answers = output?.Metadata?.[SOURCE_ETAG_METADATA];
    if (!output?.ETag || ('own' in which ? answers !== job.eTag : answers === which.keep)) return;
    await retryS3(
      () => client.send(new DeleteObjectCommand({ Bucket: job.bucket, Key: job.outputKey, IfMatch: output.ETag })),
      retry,
    );
    logger.info('Removed an output that answers a version the source no longer is', {
      outputKey: job.outputKey,
      answers,
    });
  } catch (error) {
    if (isPreconditionFailed(error) || isNotFound(error)) return;
    logger.warn('Could not remove an output that answers a replaced version; the newest run lands over it', {
      outputKey: job.outputKey,
      error: error as Error,
    });
  }
}
