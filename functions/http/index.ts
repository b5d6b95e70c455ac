/** The API Gateway HTTP API adapter: public surface. */
export { httpEventKind, isHttpApiEvent } from './event-kind.js';
export { handleHttpEvent } from './handle-event.js';
export { openApiDocument } from './openapi.js';
export { MAX_BODY_BYTES, MAX_BOARDS, MAX_SOLVE_MS, MEDIA_TYPE } from './constants.js';
export { SolveBudget } from './solve-budget.js';
export { allowedOrigins } from './cors.js';
export { PROBLEM_TYPES, PROBLEM_TYPE_URI_PREFIX, problemTypeUri } from './problems.js';
export type { HttpResponse, ProblemDetails } from './types.js';
export type { BoardsItem, BoardsResponse, SolveResponse } from './solve-json.js';
