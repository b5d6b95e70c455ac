/**
 * The HTTP API's routes, written once: the function's router and its OpenAPI document serve and
 * describe exactly these, and the stack creates one API Gateway route (with its own throttle) for
 * each. A route key is API Gateway's `METHOD /path`.
 */
export const API_ROUTES = {
  /** The web page. */
  page: { method: 'GET', path: '/' },
  /** The route that solves. */
  solve: { method: 'POST', path: '/solve' },
  /** The toolkit: grade boards by the techniques they need, hint the next step, generate a puzzle. */
  grade: { method: 'POST', path: '/grade' },
  hint: { method: 'POST', path: '/hint' },
  puzzle: { method: 'GET', path: '/puzzle' },
  health: { method: 'GET', path: '/health' },
  openapi: { method: 'GET', path: '/openapi.json' },
} as const;

export type ApiRouteName = keyof typeof API_ROUTES;
export type ApiRoute = (typeof API_ROUTES)[ApiRouteName];

/** API Gateway's route key of a route: `POST /solve`. */
export function routeKey(name: ApiRouteName): string {
  const { method, path } = API_ROUTES[name];
  return `${method} ${path}`;
}

/** The route names, in the order above. */
export const API_ROUTE_NAMES = Object.keys(API_ROUTES) as ApiRouteName[];
