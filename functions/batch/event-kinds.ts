import { isRecord, type EventKind } from '../contract/event-kind.js';
import type { MapEvent, MapResult } from './types.js';
import { isRunMode } from '../contract/service-layout.js';
import type { RunRequest, RunSummary } from './types.js';

/**
 * A batch of object keys from the Distributed Map's item batcher. The shape test documented in
 * docs/infra.md; the BatchInput's fields are checked when handling, so a malformed one fails
 * loudly instead of falling through to "unrecognised event".
 */
export function isMapEvent(event: unknown): event is MapEvent {
  return (
    isRecord(event) &&
    Array.isArray(event.Items) &&
    isRecord(event.BatchInput) &&
    event.Items.every((item: unknown) => isRecord(item) && typeof item.Key === 'string')
  );
}

export const mapEventKind: EventKind<MapEvent, MapResult> = {
  name: 'Distributed Map batch of S3 objects',
  recognises: isMapEvent,
  // Loaded on first use, like the S3 adapter, so HTTP cold starts do not pay for the AWS SDK.
  handle: async (event, context) =>
    (await import('./handle-event.js')).handleMapEvent(event, { timeLeftMs: () => context.getRemainingTimeInMillis() }),
};

const RUN_REQUEST_FIELDS = new Set(['mode', 'prefix', 'bucket']);

/**
 * The schedules' input (`{"mode":"batch"}`, `{"mode":"sweep"}`, optionally `prefix`, `bucket`)
 * given to the function directly. Strict (a known mode, no other fields) so that no other
 * event is ever taken for a request to run a whole job.
 */
export function isRunRequest(event: unknown): event is RunRequest {
  if (!isRecord(event) || !isRunMode(event.mode)) return false;
  return Object.entries(event).every(
    ([field, value]) => RUN_REQUEST_FIELDS.has(field) && (field === 'mode' || typeof value === 'string'),
  );
}

export const runRequestKind: EventKind<RunRequest, RunSummary> = {
  name: 'batch run request (the schedule input)',
  recognises: isRunRequest,
  handle: async (event) => (await import('./handle-run-request.js')).handleRunRequest(event),
};
