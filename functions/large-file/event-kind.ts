import { isRecord, type EventKind } from '../contract/event-kind.js';
import type { LargeFileEvent } from '../contract/large-files.js';

const STEPS = new Set(['range', 'finish', 'fail']);

/** A step of the large-file state machine: `{ largeFile: 'range' | 'finish' | 'fail', job, ... }`. */
export function isLargeFileEvent(event: unknown): event is LargeFileEvent {
  return (
    isRecord(event) &&
    typeof event.largeFile === 'string' &&
    STEPS.has(event.largeFile) &&
    isRecord(event.job) &&
    typeof event.job.stagingPrefix === 'string' &&
    (event.largeFile !== 'range' || isRecord(event.range))
  );
}

export const largeFileEventKind: EventKind<LargeFileEvent, unknown> = {
  name: 'Large-file state machine step (a range, finish, fail)',
  recognises: isLargeFileEvent,
  // Loaded on first use, like the other S3 adapters: HTTP cold starts do not pay for the SDK.
  handle: async (event, context) =>
    (await import('./handle-event.js')).handleLargeFileEvent(event, {
      timeLeftMs: () => context.getRemainingTimeInMillis(),
    }),
};
