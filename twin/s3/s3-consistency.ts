/**
 * What S3 does and s3rver does not, where the pipeline's own protections depend on it: a Koa
 * middleware after the authorization and before s3rver's routes.
 * - Conditional requests: `If-Match` / `If-None-Match` on GET and HEAD (412 PreconditionFailed,
 *   304 Not Modified) and on PutObject and CompleteMultipartUpload (412, or 404 NoSuchKey for an
 *   `If-Match` on a missing key), and `If-Match` on DeleteObject (S3's conditional deletes: 412 on
 *   another ETag, 404 NoSuchKey on a missing key), each checked and done as one under the key's lock.
 * - AbortMultipartUpload (s3rver answers 405 and keeps the parts): the upload and its parts are
 *   removed, 204; an unknown upload is 404 NoSuchUpload.
 * - ListMultipartUploads (s3rver answers 501): the uploads in progress, by key.
 * - UploadPartCopy (s3rver stores the empty request body as the part): the part is copied from
 *   the source object (`x-amz-copy-source`, with `x-amz-copy-source-range`), as a file solved in
 *   ranges assembles its output.
 * - CompleteMultipartUpload refuses a part under 5 MiB that is not the last (400 EntityTooSmall),
 *   which s3rver accepts: S3's rule, and the one a ranged output must keep.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { keyLocks } from './key-locks.js';
import type { LongKeyStore } from './long-key-store.js';
import { S3_MIN_PART_BYTES } from '../../functions/contract/aws-quotas.js';

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  type: string;
}

type S3ErrorClass = new (code: string, message: string, detail?: Record<string, string>) => Error;
const S3Error = createRequire(import.meta.url)('s3rver/lib/models/error.js') as S3ErrorClass;

const bare = (eTag: string): string => eTag.trim().replace(/^W\//, '').replace(/"/g, '');
const header = (ctx: KoaContext, name: string): string | undefined => {
  const value = ctx.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
/** `"a", "b"` / `*` as S3 reads an If-Match or If-None-Match list. */
const matches = (condition: string, eTag: string | undefined): boolean =>
  eTag !== undefined && condition.split(',').some((item) => item.trim() === '*' || bare(item) === bare(eTag));

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function s3ConsistencyMiddleware(store: LongKeyStore) {
  const uploadsDir = (bucket: string): string => store.getResourcePath(bucket, undefined, 'uploads');
  const currentETag = async (bucket: string, key: string): Promise<string | undefined> => {
    try {
      return String((await store.getMetadata(bucket, key)).etag);
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return undefined;
      throw error;
    }
  };

  const copyPart = async (
    ctx: KoaContext,
    bucket: string,
    uploadId: string,
    partNumber: string,
    copySource: string,
  ): Promise<void> => {
    const [sourceBucket = '', ...sourceKey] = decodeURIComponent(copySource.split('?')[0]!.replace(/^\//, '')).split(
      '/',
    );
    const range = /^bytes=(\d+)-(\d+)$/.exec(header(ctx, 'x-amz-copy-source-range') ?? '');
    const source = await store.getObject(
      sourceBucket,
      sourceKey.join('/'),
      range ? { start: Number(range[1]), end: Number(range[2]) } : undefined,
    );
    if (!source?.content)
      throw new S3Error('NoSuchKey', 'The specified key does not exist.', { Key: sourceKey.join('/') });
    const { md5 } = await store.putPart(bucket, uploadId, Number(partNumber), source.content);
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<CopyPartResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><LastModified>${new Date().toISOString()}</LastModified><ETag>"${md5}"</ETag></CopyPartResult>`;
  };

  const checkPartSizes = async (dir: string): Promise<void> => {
    const names = await readdir(dir).catch(() => [] as string[]);
    const parts = names
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
    for (const part of parts.slice(0, -1)) {
      const size = (await stat(path.join(dir, String(part)))).size;
      if (size < S3_MIN_PART_BYTES)
        throw new S3Error('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.', {
          ProposedSize: String(size),
          MinSizeAllowed: String(S3_MIN_PART_BYTES),
          PartNumber: String(part),
        });
    }
  };

  return async function consistency(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
    const [, rawBucket = '', ...rawKey] = ctx.path.split('/');
    const bucket = decodeURIComponent(rawBucket);
    const key = rawKey.map(decodeURIComponent).join('/');
    const method = ctx.method.toUpperCase();
    const ifMatch = header(ctx, 'if-match');
    const ifNoneMatch = header(ctx, 'if-none-match');

    if (bucket && !key && method === 'GET' && ctx.query.uploads !== undefined) {
      const prefix = typeof ctx.query.prefix === 'string' ? ctx.query.prefix : '';
      const ids = await readdir(uploadsDir(bucket)).catch(() => [] as string[]);
      const uploads = (
        await Promise.all(
          ids.map(async (id) => {
            const dir = path.join(uploadsDir(bucket), id);
            const uploadKey = await readFile(path.join(dir, 'key'), 'utf8').catch(() => undefined);
            return uploadKey === undefined ? [] : [{ id, key: uploadKey, initiated: (await stat(dir)).birthtime }];
          }),
        )
      )
        .flat()
        .filter((u) => u.key.startsWith(prefix))
        .sort((a, b) => (a.key === b.key ? a.initiated.getTime() - b.initiated.getTime() : a.key < b.key ? -1 : 1));
      ctx.type = 'application/xml';
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${xml(bucket)}</Bucket><Prefix>${xml(prefix)}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${uploads
        .map(
          (u) =>
            `<Upload><Key>${xml(u.key)}</Key><UploadId>${u.id}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
        )
        .join('')}</ListMultipartUploadsResult>`;
      return;
    }
    if (!key) return next();

    if (method === 'DELETE' && typeof ctx.query.uploadId === 'string') {
      const dir = path.join(uploadsDir(bucket), path.basename(ctx.query.uploadId));
      const uploadKey = await readFile(path.join(dir, 'key'), 'utf8').catch(() => undefined);
      if (uploadKey !== key)
        throw new S3Error(
          'NoSuchUpload',
          'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
          { UploadId: ctx.query.uploadId },
        );
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }

    const uploadId = typeof ctx.query.uploadId === 'string' ? path.basename(ctx.query.uploadId) : undefined;
    const copySource = header(ctx, 'x-amz-copy-source');
    if (method === 'PUT' && uploadId && typeof ctx.query.partNumber === 'string' && copySource) {
      await copyPart(ctx, bucket, uploadId, ctx.query.partNumber, copySource);
      return;
    }
    if (method === 'POST' && uploadId) await checkPartSizes(path.join(uploadsDir(bucket), uploadId));

    if (ifMatch === undefined && ifNoneMatch === undefined) return next();
    const reads = method === 'GET' || method === 'HEAD';
    const writes =
      (method === 'PUT' && ctx.query.partNumber === undefined) ||
      (method === 'POST' && ctx.query.uploadId !== undefined) ||
      (method === 'DELETE' && ifMatch !== undefined);
    if (!reads && !writes) return next();
    await keyLocks.run(bucket, key, async () => {
      const eTag = await currentETag(bucket, key);
      if (ifMatch !== undefined && !matches(ifMatch, eTag)) {
        if (writes && eTag === undefined)
          throw new S3Error('NoSuchKey', 'The specified key does not exist.', { Key: key });
        throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', {
          Condition: 'If-Match',
        });
      }
      if (ifNoneMatch !== undefined && matches(ifNoneMatch, eTag)) {
        if (reads) {
          ctx.status = 304;
          ctx.body = null;
          return;
        }
        throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', {
          Condition: 'If-None-Match',
        });
      }
      // Checked and done under the lock: no other write to this key lands in between.
      await next();
    });
  };
}
