import type { MapItemResult, MapResult, ItemError } from './types.js';
import { ERROR_NAMES } from '../contract/error-names.js';
import { ServiceError } from '../contract/service-error.js';

/**
 * Longest error message kept per failed file in an invocation's result. The result becomes the
 * child execution's output (Step Functions caps it at 256 KiB) and the thrown error's message its
 * `Cause` (32 KiB); ten capped messages stay far below both.
 */
export const MAX_ERROR_MESSAGE_CHARS = 500;

/** Codes of the errors that end a batch invocation or run as a whole. */
export type BatchErrorCode = 'INVALID_BATCH_INPUT' | 'ITEMS_FAILED';

/**
 * The event's `BatchInput` (or a local run request) cannot be acted on: no bucket, unknown mode, a
 * prefix outside the mode's. Nothing was processed; the map counts the whole batch failed.
 */
export class BatchInputError extends ServiceError<BatchErrorCode> {
  override readonly name = 'BatchInputError';
  constructor(
    message: string,
    /** The field at fault, e.g. `BatchInput.mode`. */
    readonly location: string,
  ) {
    super('INVALID_BATCH_INPUT', `${location}: ${message}`);
  }
}

type FailedItem = Extract<MapItemResult, { status: 'failed' }>;

/** `key (code: message)` for each failed file, capped so the message fits in a Step Functions Cause. */
export function describeFailures(failed: readonly { key: string; error: ItemError }[], limit = 10): string {
  const shown = failed.slice(0, limit).map((f) => `${f.key} (${f.error.code}: ${f.error.message})`);
  return shown.join('; ') + (failed.length > limit ? `; and ${failed.length - limit} more` : '');
}

/**
 * Thrown by the handler after every file of the batch was tried, when some failed. Throwing is
 * what makes the Distributed Map count the batch's items failed (towards the tolerated failure
 * percentage) and list them in `FAILED_n.json`, with this message as the Cause; a redrive retries
 * them, and the files that did succeed are then skipped by their output's source ETag.
 */
export class BatchItemsFailedError extends ServiceError<BatchErrorCode> {
  override readonly name = ERROR_NAMES.batchItemsFailed;
  readonly failed: readonly FailedItem[];
  constructor(readonly result: MapResult) {
    const failed = result.items.filter((item): item is FailedItem => item.status === 'failed');
    super('ITEMS_FAILED', `${failed.length} of ${result.items.length} file(s) failed: ${describeFailures(failed)}`);
    this.failed = failed;
  }
}

/** An error as a value: its code (or name) and a capped message. */
export function itemError(error: unknown): ItemError {
  const e = error as { code?: unknown; name?: unknown; Code?: unknown; message?: unknown } | null;
  const code =
    (typeof e?.code === 'string' && e.code) ||
    (typeof e?.Code === 'string' && e.Code) ||
    (typeof e?.name === 'string' && e.name) ||
    'Error';
  const raw = typeof e?.message === 'string' && e.message ? e.message : String(error);
  const message = raw.length > MAX_ERROR_MESSAGE_CHARS ? `${raw.slice(0, MAX_ERROR_MESSAGE_CHARS - 3)}...` : raw;
  return { code, message };
}
