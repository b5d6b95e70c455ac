import { ClientError } from './problems.js';
import { openApiDocument } from './openapi.js';
import { jsonResponse } from './responses.js';
import type { SolveBudget } from './solve-budget.js';
import { solveRoute } from './solve-route.js';
import type { HttpRequest, HttpResponse } from './types.js';
import { pageResponse } from '../web/index.js';
import { API_ROUTE_NAMES, API_ROUTES, type ApiRouteName } from '../contract/api-routes.js';

export type RouteHandler = (request: HttpRequest, budget: SolveBudget) => HttpResponse;

/** What answers each route of the contract (contract/api-routes.ts). */
const handlers: Readonly<Record<ApiRouteName, RouteHandler>> = {
  page: (request) => ({ statusCode: 200, ...pageResponse(request.headers['accept-encoding']) }),
  solve: solveRoute,
  health: () => jsonResponse(200, { status: 'ok' }),
  openapi: () => jsonResponse(200, openApiDocument),
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

/** Find the handler for a request, or throw the 404 or 405 that says why there is none. */
export function route(request: HttpRequest): RouteHandler {
  const methods = Object.hasOwn(routes, request.path) ? routes[request.path]! : undefined;
  if (!methods) {
    throw new ClientError(
      'notFound',
      `No route ${JSON.stringify(request.path.slice(0, 200))}; the API serves ${Object.keys(routes).join(', ')}.`,
    );
  }
  const handler = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
  if (!handler) {
    const allow = Object.keys(methods);
    throw new ClientError(
      'methodNotAllowed',
      `${request.path} does not accept ${request.method.slice(0, 20)}; it accepts ${allow.join(', ')}.`,
      { allow },
    );
  }
  return handler;
}
