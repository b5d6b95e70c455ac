/**
 * How many files one batch-map invocation may take, from Step Functions' 256 KiB on a state's data.
 * A child of the batch and sweep maps gets `{Items, BatchInput}` (one ListObjectsV2 entry per file)
 * and ends with the function's MapResult (one result per file, naming its source, output and report
 * keys): both must stay within SFN_MAX_STATE_BYTES, or the child fails with States.DataLimitExceeded
 * and every file of it with it, on every run. The stack bounds batchItemsPerInvocation by
 * MAX_ITEMS_PER_BATCH (infra/settings.ts) and sets the item batcher's MaxInputBytesPerBatch; the
 * twin's batch run (twin/stepfunctions/batch-run.ts) groups and measures by the same numbers.
 * Pure data: infra/ imports this file.
 */
import { S3_MAX_KEY_BYTES, SFN_MAP_MAX_BATCH_INPUT_BYTES, SFN_MAX_STATE_BYTES } from './aws-quotas.js';

/**
 * What a child's data holds besides its files' entries: the input's `{"Items":[],"BatchInput":
 * {"bucket","mode"}}` (a bucket name is at most 63 characters) and the result's mode, bucket,
 * totals and duration. 1 KiB covers either (test/contract/batch-limits.test.ts measures both).
 */
export const BATCH_ENVELOPE_BYTES = 1024;

/** The item batcher's MaxInputBytesPerBatch: the items of one child, with room for its envelope. */
export const MAX_INPUT_BYTES_PER_BATCH =
  Math.min(SFN_MAP_MAX_BATCH_INPUT_BYTES, SFN_MAX_STATE_BYTES) - BATCH_ENVELOPE_BYTES;

const longestKey = 'k'.repeat(S3_MAX_KEY_BYTES);
const largestCount = Number.MAX_SAFE_INTEGER;
const multipartETag = `"${'0'.repeat(32)}-10000"`;

/** One file's entry in a child's input at its largest: a 1,024-byte key, a multipart ETag, the longest storage class. */
export const MAX_ITEM_ENTRY_BYTES =
  JSON.stringify({
    Etag: multipartETag,
    Key: longestKey,
    LastModified: largestCount,
    Size: largestCount,
    StorageClass: 'INTELLIGENT_TIERING',
  }).length + 1;

/**
 * One file's entry in a child's result at its largest: a solved file names its source, output and
 * report keys (each up to S3's 1,024 bytes); a failed one its key and an error message of at most
 * 500 characters (functions/batch/errors.ts), which is smaller.
 */
export const MAX_RESULT_ENTRY_BYTES =
  JSON.stringify({
    key: longestKey,
    status: 'solved',
    eTag: multipartETag,
    outputKey: longestKey,
    reportKey: longestKey,
    puzzles: { rows: largestCount, solved: largestCount, failed: largestCount },
    durationMs: largestCount,
  }).length + 1;

/**
 * The most files one invocation may take whatever their keys: that many input entries must fit
 * MAX_INPUT_BYTES_PER_BATCH, and that many result entries a state's 256 KiB beside the envelope. Keys whose JSON escapes (`"`, `\`, control
 * characters) make them longer still are split off by MaxInputBytesPerBatch on the way in.
 */
export const MAX_ITEMS_PER_BATCH = Math.floor(
  Math.min(
    MAX_INPUT_BYTES_PER_BATCH / MAX_ITEM_ENTRY_BYTES,
    (SFN_MAX_STATE_BYTES - BATCH_ENVELOPE_BYTES) / MAX_RESULT_ENTRY_BYTES,
  ),
);
