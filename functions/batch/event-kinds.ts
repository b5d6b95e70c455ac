import { isRecord, type EventKind } from '../contract/event-kind.js';
import type { MapEvent, MapResult } from './types.js';

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
