import type { Context } from 'aws-lambda';

/**
 * One kind of event the function accepts (HTTP API request, S3 notification, batch item...).
 * The entry point asks each kind in turn whether it recognises an event and hands the event
 * to the first that does.
 */
export interface EventKind<E = unknown, R = unknown> {
  /** Shown in logs. */
  readonly name: string;
  /**
   * A cheap structural test of the event's shape. Must never throw, whatever it is given.
   * Keep it in a small module: the heavy adapter can be loaded lazily inside `handle`
   * (`await import(...)`), so one kind's dependencies do not slow another's cold start.
   */
  recognises(event: unknown): event is E;
  /** Handle an event `recognises` accepted; the resolved value is the Lambda's result. */
  handle(event: E, context: Context): Promise<R>;
}

/** Plain-object test the recognisers share. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
