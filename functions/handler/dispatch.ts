import type { Context } from 'aws-lambda';
import { mapEventKind } from '../batch/event-kinds.js';
import { httpEventKind } from '../http/event-kind.js';
import { largeFileEventKind } from '../large-file/event-kind.js';
import { s3EventBridgeKind, s3EventKind, s3SqsKind } from '../s3/event-kind.js';
import { logger } from '../observability/powertools.js';
import { isRecord, type EventKind } from '../contract/event-kind.js';
import { ServiceError } from '../contract/service-error.js';

/**
 * Every kind of event the function handles, asked in this order. To add one, write its
 * `EventKind` beside its adapter (e.g. functions/s3/event-kind.ts) and add it here.
 */
export const eventKinds: readonly EventKind[] = [
  httpEventKind,
  s3EventKind,
  s3EventBridgeKind,
  s3SqsKind,
  mapEventKind,
  largeFileEventKind,
];

/** Longest excerpt of an unrecognised event written to the log. */
const LOGGED_EVENT_CHARS = 2000;

/** A short description of an event for logs and errors: its type and top-level keys. */
export function describeEvent(event: unknown): string {
  if (!isRecord(event))
    return Array.isArray(event)
      ? `an array of ${event.length}`
      : `a value of type ${event === null ? 'null' : typeof event}`;
  return `an object with keys [${Object.keys(event).slice(0, 20).join(', ')}]`;
}

function excerpt(event: unknown): string {
  try {
    const text = JSON.stringify(event) ?? String(event);
    return text.length > LOGGED_EVENT_CHARS ? `${text.slice(0, LOGGED_EVENT_CHARS)}...` : text;
  } catch {
    return String(event);
  }
}

/** Hand the event to the first kind that recognises it; log and throw if none does. */
export async function dispatch(
  event: unknown,
  context: Context,
  kinds: readonly EventKind[] = eventKinds,
): Promise<unknown> {
  for (const kind of kinds) {
    if (kind.recognises(event)) return kind.handle(event, context);
  }
  const summary = describeEvent(event);
  logger.error('Unrecognised event; failing the invocation so it is retried and dead-lettered', {
    summary,
    event: excerpt(event),
    knownKinds: kinds.map((k) => k.name),
  });
  throw new UnrecognisedEventError(summary);
}

/**
 * Thrown for an event no kind recognises. Throwing (not returning) makes Lambda count the
 * invocation as failed, so asynchronous sources retry it and then send it to the dead-letter queue.
 */
export class UnrecognisedEventError extends ServiceError<'UNRECOGNISED_EVENT'> {
  override readonly name = 'UnrecognisedEventError';
  constructor(readonly summary: string) {
    super('UNRECOGNISED_EVENT', `The function does not handle this kind of event: ${summary}`);
  }
}
