import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpRequest } from './types.js';

/**
 * Normalise an HTTP API event. Tolerant of what hand-written or local events leave out:
 * the recogniser only guarantees `version`, `rawPath` and `requestContext.http.method`.
 */
export function toHttpRequest(event: APIGatewayProxyEventV2): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(isObject(event.headers) ? event.headers : {})) {
    if (typeof value === 'string') headers[name.toLowerCase()] = value;
  }
  return {
    method: String(event.requestContext.http.method).toUpperCase(),
    path: routePath(
      event.rawPath,
      typeof event.requestContext.stage === 'string' ? event.requestContext.stage : undefined,
    ),
    headers,
    body: typeof event.body === 'string' ? event.body : undefined,
    isBase64Encoded: event.isBase64Encoded === true,
    requestId: typeof event.requestContext.requestId === 'string' ? event.requestContext.requestId : '',
    query: typeof event.rawQueryString === 'string' ? event.rawQueryString : '',
  };
}

/**
 * The path the routes are matched against. A named stage (not `$default`) appears as the first
 * segment of `rawPath`; it is removed so the same routes work behind any stage. Nothing else is
 * rewritten: `/solve/` is not `/solve` (one URL per resource, as the OpenAPI document lists them;
 * the 404 names the route meant).
 */
export function routePath(rawPath: string, stage: string | undefined): string {
  let path = rawPath || '/';
  if (stage && stage !== '$default' && (path === `/${stage}` || path.startsWith(`/${stage}/`))) {
    path = path.slice(stage.length + 1) || '/';
  }
  return path;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
