/**
 * A run whose source changed under it, while the source is that very version again by the time it
 * ends: the file was replaced and put back (A, B, A), or removed and uploaded again (A, delete, A).
 * The re-upload's own event found this run still open and left the version to it, so the run, in
 * its fail step, starts the version's next attempt: the newest version never ends without a run.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { LargeFileJob } from '../contract/large-files.js';
import { logger } from '../observability/powertools.js';
import { removeStaging } from './finish-large-file.js';
import { endedBySourceChange } from './large-file-runs.js';
import { bareETag, headOrUndefined } from './object-versions.js';
import { processObject } from './process-object.js';

export interface PutBackOptions {
  client: S3Client;
  timeLeftMs?: () => number;
}

/** True when the version was put back and handed to its next run (this run's staging removed); false to report as usual. */
export async function rerunPutBackVersion(
  job: LargeFileJob,
  error: { Error?: string; Cause?: string },
  options: PutBackOptions,
): Promise<boolean> {
  if (!endedBySourceChange({ error: error.Error ?? '', cause: error.Cause ?? '' })) return false;
  const now = await headOrUndefined(options.client, job.bucket, job.sourceKey);
  // Replaced for good (or still gone): the new version's own event answers it.
  if (!now || bareETag(now.ETag) !== job.eTag) return false;
  logger.info('Source replaced and put back while it was solved in ranges: the version gets a run of its own', {
    sourceKey: job.sourceKey,
    eTag: job.eTag,
    attempt: job.attempt ?? 1,
  });
  await processObject({
    client: options.client,
    bucket: job.bucket,
    sourceKey: job.sourceKey,
    outputKey: job.outputKey,
    reportKey: job.reportKey,
    supersedes: job.attempt ?? 1,
    ...(options.timeLeftMs ? { timeLeftMs: options.timeLeftMs } : {}),
  });
  await removeStaging(options.client, job);
  return true;
}
