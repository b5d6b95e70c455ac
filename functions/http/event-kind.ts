import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { isRecord, type EventKind } from '../contract/event-kind.js';
import { handleHttpEvent } from './handle-event.js';
import type { HttpResponse } from './types.js';

/** API Gateway HTTP API, payload format 2.0 (also what Lambda function URLs send). */
export function isHttpApiEvent(event: unknown): event is APIGatewayProxyEventV2 {
  if (!isRecord(event) || event.version !== '2.0' || typeof event.rawPath !== 'string') return false;
  const context = event.requestContext;
  return isRecord(context) && isRecord(context.http) && typeof context.http.method === 'string';
}

export const httpEventKind: EventKind<APIGatewayProxyEventV2, HttpResponse> = {
  name: 'API Gateway HTTP API (payload 2.0)',
  recognises: isHttpApiEvent,
  handle: async (event, context) => handleHttpEvent(event, context),
};
