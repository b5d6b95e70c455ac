// The numbers a batch is bounded by: what a child of the batch map holds besides its files' entries
// fits BATCH_ENVELOPE_BYTES at its largest, so MAX_ITEMS_PER_BATCH files always fit 256 KiB.
import { describe, expect, it } from 'vitest';
import type { MapEvent, MapResult } from '../../functions/batch/index.js';
import { SFN_MAX_STATE_BYTES } from '../../functions/contract/aws-quotas.js';
import {
  BATCH_ENVELOPE_BYTES,
  MAX_ITEM_ENTRY_BYTES,
  MAX_ITEMS_PER_BATCH,
  MAX_RESULT_ENTRY_BYTES,
} from '../../functions/contract/batch-limits.js';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
const longestBucket = 'b'.repeat(63);
const most = Number.MAX_SAFE_INTEGER;

describe('batch limits', () => {
  it("fit a child's input and result envelopes, at the longest bucket name and the largest counts, in BATCH_ENVELOPE_BYTES", () => {
    const input: MapEvent = { Items: [], BatchInput: { bucket: longestBucket, mode: 'sweep' } };
    const result: MapResult = {
      mode: 'sweep',
      bucket: longestBucket,
      items: [],
      durationMs: most,
      files: { solved: most, rejected: most, skipped: most, ignored: most, failed: most },
      puzzles: { rows: most, solved: most, failed: most },
    };
    expect(bytes(input)).toBeLessThan(BATCH_ENVELOPE_BYTES);
    expect(bytes(result)).toBeLessThan(BATCH_ENVELOPE_BYTES);
  });

  it('let MAX_ITEMS_PER_BATCH of the largest entries and the envelope fit 256 KiB, and one more not', () => {
    const entry = Math.max(MAX_ITEM_ENTRY_BYTES, MAX_RESULT_ENTRY_BYTES);
    expect(MAX_ITEMS_PER_BATCH * entry + BATCH_ENVELOPE_BYTES).toBeLessThanOrEqual(SFN_MAX_STATE_BYTES);
    expect((MAX_ITEMS_PER_BATCH + 1) * entry + BATCH_ENVELOPE_BYTES).toBeGreaterThan(SFN_MAX_STATE_BYTES);
  });
});
