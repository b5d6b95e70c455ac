import { ClientError } from './problems.js';
import { jsonResponse } from './responses.js';
import type { SolveBudget } from './solve-budget.js';
import { solveRoute } from './solve-route.js';
import { gradeRoute } from './grade-route.js';
import { hintRoute } from './hint-route.js';
import { puzzleRoute } from './puzzle-route.js';
import type { HttpRequest, HttpResponse } from './types.js';
import { API_ROUTE_NAMES, API_ROUTES, type ApiRouteName } from '../contract/api-routes.js';

/**
 * One route's answer. The toolkit routes (/grade, /hint, /puzzle), the page and the OpenAPI
 * document are asynchronous only to load what they need on first use (`await import()`: the logical
 * solver, the page, the document): a cold start that serves /solve or /health reads none of them.
 */
export type RouteHandler = (request: HttpRequest, budget: SolveBudget) => HttpResponse | Promise<HttpResponse>;

/** What answers each route of the contract (contract/api-routes.ts). */
const handlers: Readonly<Record<ApiRouteName, RouteHandler>> = {
  // The page (23 KB of the bundle, precompressed) is read on its first request, as the document is.
  page: async (request) => ({
    statusCode: 200,
    ...(await import('../web/index.js')).pageResponse(request.headers['accept-encoding']),
  }),
  solve: solveRoute,
  grade: gradeRoute,
  hint: hintRoute,
  puzzle: puzzleRoute,
  health: () => jsonResponse(200, { status: 'ok' }),
  // The document (18 KB of the bundle) is read on its first request, not on every cold start.
  openapi: async () => jsonResponse(200, (await import('./openapi.js')).openApiDocument),
};

/** Every route: path -> method -> handler. The OpenAPI document describes exactly these. */
export const routes: Readonly<Record<string, Readonly<Record<string, RouteHandler>>>> = (() => {
  const table: Record<string, Record<string, RouteHandler>> = {};
  for (const name of API_ROUTE_NAMES) {
    const { method, path } = API_ROUTES[name];
    table[path] = { ...table[path], [method]: handlers[name] };
  }
  return table;
})();

/**
 * HEAD on a GET route: the GET answer's status and headers without its body (RFC 9110 §9.3.2).
 * API Gateway passes HEAD to the function like any method, so the function answers it.
 */
function headOf(get: RouteHandler): RouteHandler {
  return async (request, budget) => ({ ...(await get(request, budget)), body: '', isBase64Encoded: false });
}

/** The methods a route answers (HEAD wherever GET is), as the Allow header and the OpenAPI document list them. */
export function allowedMethods(path: string): string[] {
  const methods = Object.keys(routes[path] ?? {});
  return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
}

/** Find the handler for a request, or throw the 404 or 405 that says why there is none. */
export function route(request: HttpRequest): RouteHandler {
  const methods = Object.hasOwn(routes, request.path) ? routes[request.path]! : undefined;
  if (!methods) {
    const meant = request.path.length > 1 ? request.path.replace(/\/+$/, '') : request.path;
    const hint =
      meant !== request.path && Object.hasOwn(routes, meant) ? ` (without the trailing slash: ${meant})` : '';
    throw new ClientError(
      'notFound',
      `No route ${JSON.stringify(request.path.slice(0, 200))}${hint}; the API serves ${Object.keys(routes).join(', ')}.`,
    );
  }
  const handler = Object.hasOwn(methods, request.method)
    ? methods[request.method]
    : request.method === 'HEAD' && Object.hasOwn(methods, 'GET')
      ? headOf(methods.GET!)
      : undefined;
  if (!handler) {
    const allow = allowedMethods(request.path);
    throw new ClientError(
      'methodNotAllowed',
      `${request.path} does not accept ${request.method.slice(0, 20)}; it accepts ${allow.join(', ')}.`,
      { allow },
    );
  }
  return handler;
}
