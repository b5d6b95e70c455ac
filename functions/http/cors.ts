import { CORS } from '../contract/service-layout.js';
import { route, routes } from './routes.js';
import type { HttpRequest, HttpResponse } from './types.js';
import { type Environment, readEnv } from '../contract/environment.js';

/** The origins allowed to call, from the stack's setting (CORS.originsEnv), or any origin. */
export function allowedOrigins(env?: Environment): readonly string[] {
  const listed = (readEnv(CORS.originsEnv, env) ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return listed.length ? listed : CORS.defaultOrigins;
}

/** A browser's preflight: OPTIONS with Origin and Access-Control-Request-Method (Fetch standard). */
export function isPreflight(request: HttpRequest): boolean {
  return (
    request.method === 'OPTIONS' &&
    request.headers.origin !== undefined &&
    request.headers['access-control-request-method'] !== undefined
  );
}

/** The Access-Control-Allow-Origin value for this request's Origin, or undefined when it may not call. */
function allowOriginFor(request: HttpRequest, origins: readonly string[]): string | undefined {
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  if (origins.includes('*')) return '*';
  return origins.includes(origin) ? origin : undefined;
}

/**
 * The answer to a preflight for one of the routes: 204 with the CORS headers the stack configures,
 * or 204 without them for an origin not allowed (the browser then blocks the call). API Gateway
 * passes preflights to the function through `$default` and, in IAM mode, through the unauthorized
 * `OPTIONS /{proxy+}` route, so the function must answer them as API Gateway would.
 */
export function preflightResponse(request: HttpRequest, origins: readonly string[] = allowedOrigins()): HttpResponse {
  // A path the API does not serve gets the router's own 404, preflight or not.
  if (!Object.hasOwn(routes, request.path)) route(request);
  const headers: Record<string, string> = {};
  const allowOrigin = allowOriginFor(request, origins);
  if (allowOrigin !== undefined) {
    headers['access-control-allow-origin'] = allowOrigin;
    headers['access-control-allow-methods'] = CORS.allowMethods.join(', ');
    headers['access-control-allow-headers'] = CORS.allowHeaders.join(', ');
    headers['access-control-max-age'] = String(CORS.maxAgeSeconds);
  }
  if (allowOrigin !== '*') headers.vary = 'origin';
  return { statusCode: 204, headers, body: '', isBase64Encoded: false };
}

/**
 * The CORS headers of an actual cross-origin call, added to whatever the route answered (errors
 * too, so a browser script can read the problem details). Same-origin calls (no Origin) are left alone.
 */
export function withCorsHeaders(
  request: HttpRequest,
  response: HttpResponse,
  origins: readonly string[] = allowedOrigins(),
): HttpResponse {
  if (request.headers.origin === undefined || isPreflight(request)) return response;
  const allowOrigin = allowOriginFor(request, origins);
  const headers = { ...response.headers };
  if (allowOrigin !== undefined) {
    headers['access-control-allow-origin'] = allowOrigin;
    headers['access-control-expose-headers'] = CORS.exposeHeaders.join(', ');
  }
  if (allowOrigin !== '*') headers.vary = headers.vary ? `${headers.vary}, origin` : 'origin';
  return { ...response, headers };
}
