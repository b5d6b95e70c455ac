/**
 * A run that ends without solving its version while that version is the source and was asked for
 * again during the run (a re-upload, a duplicate delivery or the sweep found the run open and left
 * the version to it): the file was replaced and put back (A, B, A), removed and uploaded again (A,
 * delete, A), or uploaded again while the run was failing. The run starts the version's next
 * attempt, so the newest version never ends without a run of its own. Decided by what S3 holds,
 * not by the run's error: Step Functions passes a Distributed Map's own error, not its child's.
 */
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { askedAgainKeyFor, type LargeFileJob, largeFileJobId } from '../contract/large-files.js';
import { logger } from '../observability/powertools.js';
import { bareETag, headOrUndefined } from './object-versions.js';
import { processObject } from './process-object.js';

export interface PutBackOptions {
  client: S3Client;
  timeLeftMs?: () => number;
}

/**
 * Whether the source, now this version again, was written after the run started: replaced and put
 * back, or uploaded again. S3 keeps whole seconds; a rewrite within the run's first second is
 * found by the marker its event leaves instead.
 */
function rewrittenDuringRun(job: LargeFileJob, lastModified: Date | undefined): boolean {
  return lastModified !== undefined && lastModified.getTime() > Math.floor(Date.parse(job.startedAt) / 1000) * 1000;
}

/** True when the version was asked for again and handed to its next run; false to end as usual. */
export async function rerunAskedAgain(job: LargeFileJob, options: PutBackOptions): Promise<boolean> {
  const attempt = job.attempt ?? 1;
  const marker = askedAgainKeyFor(largeFileJobId(job.sourceKey, job.eTag), attempt);
  // The source first, the marker after: an event for the version that is already in flight when
  // the source is read has written its marker by the time the marker is read, or finds no run open.
  const now = await headOrUndefined(options.client, job.bucket, job.sourceKey);
  const current = now !== undefined && bareETag(now.ETag) === job.eTag;
  const asked =
    current &&
    (rewrittenDuringRun(job, now.LastModified) ||
      (await headOrUndefined(options.client, job.bucket, marker)) !== undefined);
  if (asked) {
    logger.info('Version put back or asked for again while its run was open: handed to its next run', {
      sourceKey: job.sourceKey,
      eTag: job.eTag,
      attempt,
    });
    await processObject({
      client: options.client,
      bucket: job.bucket,
      sourceKey: job.sourceKey,
      outputKey: job.outputKey,
      reportKey: job.reportKey,
      supersedes: attempt,
      ...(options.timeLeftMs ? { timeLeftMs: options.timeLeftMs } : {}),
    });
  }
  // Replaced for good (or gone): the new version's own event answers it.
  await options.client.send(new DeleteObjectCommand({ Bucket: job.bucket, Key: marker })).catch(() => undefined);
  return asked;
}

/** A run that solved its version: a request made while it ran is answered (the marker goes). */
export async function forgetAskedAgain(job: LargeFileJob, client: S3Client): Promise<void> {
  const marker = askedAgainKeyFor(largeFileJobId(job.sourceKey, job.eTag), job.attempt ?? 1);
  await client.send(new DeleteObjectCommand({ Bucket: job.bucket, Key: marker })).catch(() => undefined);
}
