import { isRecord, type EventKind } from '../handler/event-kind.js';
import { isBatchMode } from './mode.js';
import type { RunRequest, RunSummary } from './types.js';

const RUN_REQUEST_FIELDS = new Set(['mode', 'prefix', 'bucket']);

/**
 * The schedules' input (`{"mode":"batch"}`, `{"mode":"sweep"}`, optionally `prefix`, `bucket`)
 * given to the function directly. Strict (a known mode, no other fields) so that no other
 * event is ever taken for a request to run a whole job.
 */
export function isRunRequest(event: unknown): event is RunRequest {
  if (!isRecord(event) || !isBatchMode(event.mode)) return false;
  return Object.entries(event).every(
    ([field, value]) => RUN_REQUEST_FIELDS.has(field) && (field === 'mode' || typeof value === 'string'),
  );
}

export const runRequestKind: EventKind<RunRequest, RunSummary> = {
  name: 'batch run request (the schedule input)',
  recognises: isRunRequest,
  handle: async (event) => (await import('./handle-run-request.js')).handleRunRequest(event),
};
