// Small on purpose: the event recognisers import it, and they must not load the AWS SDK.
import { INCOMING_PREFIX } from '../s3/constants.js';
import { BATCH_PREFIX } from './constants.js';
import type { BatchMode } from './types.js';

/** The prefix each mode lists and accepts keys from. */
export const MODE_PREFIX: Record<BatchMode, string> = { batch: BATCH_PREFIX, sweep: INCOMING_PREFIX };

export function isBatchMode(value: unknown): value is BatchMode {
  return value === 'batch' || value === 'sweep';
}
