/**
 * The output of a file solved in ranges, assembled from the ranges' staging objects in order as
 * the parts of ONE multipart upload, so it appears once, complete. S3 copies a staging object of
 * 5 MiB to 5 GiB into a part itself (UploadPartCopy: no byte passes through the function);
 * smaller neighbours are streamed together into one part until it holds 5 MiB, since every part
 * but the last must. At most 10,000 parts: a plan never has more ranges.
 */
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { S3_MAX_PART_BYTES, S3_MIN_PART_BYTES } from '../contract/aws-quotas.js';
import { mapBounded } from './concurrency.js';
import { abortUpload, writeCondition } from './object-versions.js';

/** S3's smallest part but the last (the twin's S3 enforces it too: functions/local/s3-consistency.ts). */
export const MIN_PART_BYTES = S3_MIN_PART_BYTES;
export const MAX_PART_BYTES = S3_MAX_PART_BYTES;
/** Parts sent at once: copies are S3's work, so a few in flight keep the assembly short. */
const PARTS_IN_FLIGHT = 8;

export interface StagedPiece {
  key: string;
  size: number;
}

/** One part: a slice of one piece (copied by S3), or whole small pieces in a row (streamed). */
type PartPlan = { copy: StagedPiece; from: number; to: number } | { stream: StagedPiece[]; size: number };

/** Pieces to parts: big pieces copied (in slices of at most 5 GiB), small runs streamed together. */
export function planParts(pieces: readonly StagedPiece[]): PartPlan[] {
  const parts: PartPlan[] = [];
  let run: StagedPiece[] = [];
  let runSize = 0;
  for (const piece of pieces) {
    if (piece.size === 0) continue;
    if (run.length === 0 && piece.size >= MIN_PART_BYTES) {
      for (let from = 0; from < piece.size; from += MAX_PART_BYTES)
        parts.push({ copy: piece, from, to: Math.min(piece.size, from + MAX_PART_BYTES) });
      continue;
    }
    run.push(piece);
    runSize += piece.size;
    if (runSize >= MIN_PART_BYTES) {
      parts.push({ stream: run, size: runSize });
      run = [];
      runSize = 0;
    }
  }
  if (run.length > 0) parts.push({ stream: run, size: runSize });
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
}

async function streamOf(client: S3Client, bucket: string, pieces: readonly StagedPiece[]): Promise<Readable> {
  const joined = new PassThrough();
  void (async () => {
    for (const piece of pieces) {
      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: piece.key }));
      await pipeline(got.Body as Readable, joined, { end: false });
    }
    joined.end();
  })().catch((error: unknown) => joined.destroy(error as Error));
  return joined;
}

/** Assembles the output; returns the number of parts. Throws (the upload aborted) on any failure, a 412 included. */
export async function assembleStagedOutput(options: AssembleOptions): Promise<number> {
  const { client, bucket, key } = options;
  const condition = writeCondition(options.existingETag);
  const parts = planParts(options.pieces);
  const metadata = { Bucket: bucket, Key: key, ContentType: options.contentType, Metadata: options.metadata };
  if (parts.length === 0) {
    await client.send(new PutObjectCommand({ ...metadata, Body: '', ...condition }));
    return 0;
  }
  const created = await client.send(new CreateMultipartUploadCommand(metadata));
  const uploadId = created.UploadId!;
  try {
    const eTags = await mapBounded(parts, PARTS_IN_FLIGHT, async (part, i) => {
      const target = { Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: i + 1 };
      if ('copy' in part) {
        const copied = await client.send(
          new UploadPartCopyCommand({
            ...target,
            CopySource: `${bucket}/${encodeURIComponent(part.copy.key)}`,
            CopySourceRange: `bytes=${part.from}-${part.to - 1}`,
          }),
        );
        return copied.CopyPartResult?.ETag;
      }
      const sent = await client.send(
        new UploadPartCommand({
          ...target,
          Body: await streamOf(client, bucket, part.stream),
          ContentLength: part.size,
        }),
      );
      return sent.ETag;
    });
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: eTags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
        ...condition,
      }),
    );
    return parts.length;
  } catch (error) {
    await abortUpload(client, bucket, key, uploadId);
    throw error;
  }
}
