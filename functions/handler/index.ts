/**
 * The function's one entry point (deployed as `index.handler` from dist/handler/index.mjs).
 * It recognises the kind of event it was given and hands it to that kind's adapter.
 */
import type { Context } from 'aws-lambda';
import { logger, publishMetrics } from '../observability/powertools.js';
import { dispatch } from './dispatch.js';

export { eventKinds, dispatch } from './dispatch.js';
export { UnrecognisedEventError } from './dispatch.js';
export type { EventKind } from '../contract/event-kind.js';

export async function handler(event: unknown, context: Context): Promise<unknown> {
  logger.addContext(context);
  try {
    return await dispatch(event, context);
  } finally {
    publishMetrics();
  }
}
