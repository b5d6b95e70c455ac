/**
 * Versions of objects and writes conditional on them: every write of the pipeline lands only
 * over the object its run saw, and only while the source is still the version it solved.
 */
import { AbortMultipartUploadCommand, GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { ERROR_NAMES } from '../contract/error-names.js';
import { ServiceError } from '../contract/service-error.js';
import { logger } from '../observability/powertools.js';

/** ETags come quoted from HEAD/GET and bare in events; compare them bare. */
export function bareETag(eTag: string | undefined): string {
  return (eTag ?? '').replace(/"/g, '');
}

export function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

export function isPreconditionFailed(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'PreconditionFailed' || e?.$metadata?.httpStatusCode === 412;
}

export async function headOrUndefined(client: S3Client, bucket: string, key: string) {
  try {
    return await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export type Head = Awaited<ReturnType<typeof headOrUndefined>>;

/** The outputs as they are now: their ETags make the run's writes conditional on nobody writing in between. */
export interface ExistingOutputs {
  output: Head;
  report: Head;
}

/** A small JSON object of the pipeline's own (a manifest, a job, a tally), parsed as `T`. */
export async function readJson<T>(client: S3Client, bucket: string, key: string): Promise<T> {
  const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return JSON.parse(await got.Body!.transformToString()) as T;
}

/**
 * A write that lands only over the object this run saw at its start (S3 conditional writes): if
 * another run wrote it in between, S3 answers 412 and this run's write does not land.
 */
export function writeCondition(existingETag: string | undefined): { IfMatch: string } | { IfNoneMatch: string } {
  return existingETag ? { IfMatch: existingETag } : { IfNoneMatch: '*' };
}

/** The source was replaced since this run read its version: this run's answers are stale. */
export class SourceChangedError extends ServiceError<'SOURCE_CHANGED'> {
  override readonly name = ERROR_NAMES.sourceChanged;
  constructor(readonly sourceKey: string) {
    super('SOURCE_CHANGED', `${sourceKey} was replaced while it was being solved`);
  }
}

/** Throws SourceChangedError unless `key` is still the version `eTag` (a HEAD with If-Match: 412 otherwise). */
export async function checkSourceUnchanged(client: S3Client, bucket: string, key: string, eTag: string): Promise<void> {
  try {
    await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key, IfMatch: `"${eTag}"` }));
  } catch (error) {
    if (isPreconditionFailed(error) || isNotFound(error)) throw new SourceChangedError(key);
    throw error;
  }
}

/** Removes a failed upload's parts; a failure to do so is logged, never thrown over the real cause. */
export async function abortUpload(
  client: S3Client,
  bucket: string,
  key: string,
  uploadId: string | undefined,
): Promise<void> {
  if (!uploadId) return;
  try {
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
  } catch (error) {
    logger.warn(
      "Could not abort the failed output's multipart upload; the bucket's lifecycle rule removes it within a day",
      { bucket, key, uploadId, error: error as Error },
    );
  }
}
