/**
 * The output of a file solved in ranges, assembled from the ranges' staging objects in order as
 * the parts of ONE multipart upload, so it appears once, complete. S3 copies a staging object of
 * 5 MiB to 5 GiB into a part itself (UploadPartCopy: no byte passes through the function);
 * smaller neighbours are read and joined into one part of 5 MiB, since every part but the last
 * must be that large (at most two such parts in memory at once). At most 10,000 parts: a plan
 * never has more ranges. Every S3 call is retried on its own (s3-retry.ts).
 */
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { S3_MAX_PART_BYTES, S3_MIN_PART_BYTES } from '../contract/aws-quotas.js';
import { mapBounded } from './concurrency.js';
import { abortUpload, isPreconditionFailed, writeCondition } from './object-versions.js';
import { retryS3, type S3RetrySettings } from './s3-retry.js';

/** S3's smallest part but the last (the twin's S3 enforces it too: twin/s3/s3-consistency.ts). */
export const MIN_PART_BYTES = S3_MIN_PART_BYTES;
export const MAX_PART_BYTES = S3_MAX_PART_BYTES;
/** Parts sent at once: copies are S3's work, so a few in flight keep the assembly short. */
const PARTS_IN_FLIGHT = 8;
/** Parts joined in memory at once (each 5 MiB at most), and the slices of one read at once. */
const PARTS_JOINED_AT_ONCE = 2;
const PIECES_IN_FLIGHT = 8;

export interface StagedPiece {
  key: string;
  size: number;
}

/** Every object under `prefix`, with its size, in key order (a staging prefix's pieces, tallies or markers). */
export async function listAll(
  client: S3Client,
  bucket: string,
  prefix: string,
  retry?: S3RetrySettings,
): Promise<StagedPiece[]> {
  const found: StagedPiece[] = [];
  let token: string | undefined;
  do {
    const page = await retryS3(
      () =>
        client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
        ),
      retry,
    );
    for (const object of page.Contents ?? []) found.push({ key: object.Key!, size: object.Size ?? 0 });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Bytes [from, to) of one staged piece. */
export interface PieceSlice {
  piece: StagedPiece;
  from: number;
  to: number;
}

/** One part: a slice of one piece (copied by S3), or slices of small pieces in a row (joined here). */
type PartPlan = { copy: PieceSlice } | { join: PieceSlice[]; size: number };

/**
 * Pieces to parts. A piece of 5 MiB or more left is copied by S3 (in slices of at most 5 GiB, none
 * under 5 MiB); smaller ones are joined until the part holds 5 MiB exactly, taking the head of a
 * big piece when the run needs it, so a joined part never holds more than 5 MiB in memory.
 */
export function planParts(pieces: readonly StagedPiece[]): PartPlan[] {
  const parts: PartPlan[] = [];
  let run: PieceSlice[] = [];
  let runSize = 0;
  for (const piece of pieces) {
    let at = 0;
    while (at < piece.size) {
      const left = piece.size - at;
      if (run.length === 0 && left >= MIN_PART_BYTES) {
        let to = Math.min(piece.size, at + MAX_PART_BYTES);
        // A tail under 5 MiB would be a part too small: the slice before it leaves 5 MiB instead.
        if (piece.size - to > 0 && piece.size - to < MIN_PART_BYTES) to = piece.size - MIN_PART_BYTES;
        parts.push({ copy: { piece, from: at, to } });
        at = to;
        continue;
      }
      const take = Math.min(left, MIN_PART_BYTES - runSize);
      run.push({ piece, from: at, to: at + take });
      runSize += take;
      at += take;
      if (runSize === MIN_PART_BYTES) {
        parts.push({ join: run, size: runSize });
        run = [];
        runSize = 0;
      }
    }
  }
  if (run.length > 0) parts.push({ join: run, size: runSize });
  return parts;
}

export interface AssembleOptions {
  client: S3Client;
  bucket: string;
  key: string;
  pieces: readonly StagedPiece[];
  contentType: string;
  metadata: Record<string, string>;
  /** The output's ETag when the job started (absent: none); the output lands only over it. */
  existingETag?: string;
  /**
   * Asked when S3 answers 412 because the output is no longer `existingETag`: the ETag of the
   * output to land over now (undefined: none), or a throw to give up. Absent: the 412 is thrown.
   */
  onConflict?: () => Promise<string | undefined>;
  /** Each S3 call's own retries (s3-retry.ts). */
  retry?: S3RetrySettings;
}

/** The most times one assembly lands over an output it found in its way, each one a newer run's to replace. */
const CONFLICTS = 3;

/**
 * A slice's bytes, read with as many GETs as it takes: a body cut or stalled mid-way is read on
 * from the byte it reached (a ranged GET, If-Match the version first read), not from the start.
 */
async function readSlice(
  client: S3Client,
  bucket: string,
  { piece, from, to }: PieceSlice,
  retry: S3RetrySettings | undefined,
): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  let at = from;
  let eTag: string | undefined;
  await retryS3(async () => {
    if (at >= to) return;
    const whole = at === 0 && to === piece.size;
    const got = await client.send(
      new GetObjectCommand({
        Bucket: bucket,
        Key: piece.key,
        ...(whole ? {} : { Range: `bytes=${at}-${to - 1}` }),
        ...(eTag ? { IfMatch: eTag } : {}),
      }),
    );
    eTag ??= got.ETag;
    for await (const chunk of got.Body as Readable) {
      chunks.push(chunk as Buffer);
      at += (chunk as Buffer).length;
    }
    if (at !== to) throw new Error(`${piece.key} ended at byte ${at} of ${to}: premature close`);
  }, retry);
  return chunks;
}

/**
 * A part's slices, joined in memory (5 MiB at most, planParts). Streamed from GET to UploadPart
 * instead, one failed read or write would send the whole part again (hundreds of GETs of small
 * pieces), and a read waiting out S3's backoff would leave the part's connection silent until it
 * timed out.
 */
async function joinSlices(
  client: S3Client,
  bucket: string,
  slices: readonly PieceSlice[],
  retry: S3RetrySettings | undefined,
): Promise<Buffer> {
  const read = await mapBounded(slices, PIECES_IN_FLIGHT, (slice) => readSlice(client, bucket, slice, retry));
  return Buffer.concat(read.flat());
}

/** One part sent: copied by S3, or joined from its pieces and uploaded; each call retried on its own. */
async function sendPart(
  options: AssembleOptions,
  uploadId: string,
  part: PartPlan,
  partNumber: number,
  joining: Semaphore,
): Promise<string | undefined> {
  const { client, bucket, key, retry } = options;
  const target = { Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber };
  if ('copy' in part) {
    const copied = await retryS3(
      () =>
        client.send(
          new UploadPartCopyCommand({
            ...target,
            CopySource: `${bucket}/${encodeURIComponent(part.copy.piece.key)}`,
            CopySourceRange: `bytes=${part.copy.from}-${part.copy.to - 1}`,
          }),
        ),
      retry,
    );
    return copied.CopyPartResult?.ETag;
  }
  return joining.run(async () => {
    const body = await joinSlices(client, bucket, part.join, retry);
    const sent = await retryS3(() => client.send(new UploadPartCommand({ ...target, Body: body })), retry);
    return sent.ETag;
  });
}

/** At most `limit` runs at once: parts joined in memory stay a few, whatever the file. */
class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    while (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/**
 * Sends `write` (the last write of the output, conditional on `condition`) until it lands: a 412
 * asks `onConflict` what to land over instead, at most CONFLICTS times.
 */
async function landOutput(
  options: AssembleOptions,
  write: (condition: { IfMatch: string } | { IfNoneMatch: string }) => Promise<unknown>,
): Promise<void> {
  let existing = options.existingETag;
  for (let conflicts = 0; ; conflicts++) {
    try {
      await retryS3(() => write(writeCondition(existing)), options.retry);
      return;
    } catch (error) {
      // NoSuchKey: an If-Match on an output removed meanwhile (not NoSuchUpload, the upload's own 404).
      const removed = existing !== undefined && (error as { name?: string }).name === 'NoSuchKey';
      const conflict = isPreconditionFailed(error) || removed;
      if (!conflict || !options.onConflict || conflicts >= CONFLICTS) throw error;
      existing = await options.onConflict();
    }
  }
}

/** Assembles the output; returns the number of parts. Throws (the upload aborted) on any failure, a 412 included. */
export async function assembleStagedOutput(options: AssembleOptions): Promise<number> {
  const { client, bucket, key, retry } = options;
  const parts = planParts(options.pieces);
  const metadata = { Bucket: bucket, Key: key, ContentType: options.contentType, Metadata: options.metadata };
  if (parts.length === 0) {
    await landOutput(options, (condition) =>
      client.send(new PutObjectCommand({ ...metadata, Body: '', ...condition })),
    );
    return 0;
  }
  const created = await retryS3(() => client.send(new CreateMultipartUploadCommand(metadata)), retry);
  const uploadId = created.UploadId!;
  try {
    const joining = new Semaphore(PARTS_JOINED_AT_ONCE);
    const eTags = await mapBounded(parts, PARTS_IN_FLIGHT, (part, i) =>
      sendPart(options, uploadId, part, i + 1, joining),
    );
    await landOutput(options, (condition) =>
      client.send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: eTags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
          ...condition,
        }),
      ),
    );
    return parts.length;
  } catch (error) {
    await abortUpload(client, bucket, key, uploadId);
    throw error;
  }
}
