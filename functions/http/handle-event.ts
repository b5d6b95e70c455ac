import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { logger } from '../observability/powertools.js';
import { isPreflight, preflightResponse, withCorsHeaders } from './cors.js';
import { ClientError } from './problems.js';
import { toHttpRequest } from './request.js';
import { problemDetails, problemResponse } from './responses.js';
import { withinResponseLimit } from './response-size.js';
import { route } from './routes.js';
import { SolveBudget } from './solve-budget.js';
import type { HttpResponse } from './types.js';

/**
 * Answer one HTTP API request. Whatever the client sent, the answer is a response, never an
 * exception: client mistakes are 4xx problem+json; anything else is our bug, logged, and a 500.
 * `budget` is the invocation's own unless given: a test of what an answer holds passes one whose
 * clock it controls, so a loaded machine cannot turn the answer into a 413 solve-time-exceeded.
 */
export async function handleHttpEvent(
  event: APIGatewayProxyEventV2,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
  budget: SolveBudget = SolveBudget.forInvocation(context),
): Promise<HttpResponse> {
  const start = performance.now();
  const request = toHttpRequest(event);
  let response: HttpResponse;
  try {
    response = isPreflight(request) ? preflightResponse(request) : await route(request)(request, budget);
  } catch (error) {
    if (error instanceof ClientError) {
      response = problemResponse(problemDetails(error.problemType, error.detail, request.requestId, error.extra));
    } else {
      logger.error('Unexpected error answering a request', { error: error as Error, path: request.path });
      response = problemResponse(
        problemDetails(
          'internalError',
          'The service failed to answer; the error is logged with this request id.',
          request.requestId,
        ),
      );
    }
  }
  response = withinResponseLimit(withCorsHeaders(request, response), request.requestId);
  logger.info('HTTP request', {
    method: request.method,
    path: request.path.slice(0, 200),
    status: response.statusCode,
    apiRequestId: request.requestId,
    durationMs: Math.round((performance.now() - start) * 1000) / 1000,
  });
  return response;
}
