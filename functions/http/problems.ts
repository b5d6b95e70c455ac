import { ServiceError } from '../contract/service-error.js';
import type { ProblemExtra } from './types.js';

/**
 * Every problem type the API answers with (RFC 9457 `type`, `title`, `status`). The type URIs are
 * tag URIs (RFC 4151): stable identifiers that need no registered domain; they are listed in the
 * OpenAPI document so clients can switch on them.
 */
export const PROBLEM_TYPES = {
  malformedJson: { slug: 'malformed-json', title: 'Malformed JSON', status: 400 },
  invalidEncoding: { slug: 'invalid-encoding', title: 'Body is not valid UTF-8', status: 400 },
  invalidRequest: { slug: 'invalid-request', title: 'Invalid request', status: 400 },
  invalidBoard: { slug: 'invalid-board', title: 'Invalid board', status: 400 },
  invalidParameter: { slug: 'invalid-parameter', title: 'Invalid query parameter', status: 400 },
  notFound: { slug: 'not-found', title: 'Not found', status: 404 },
  methodNotAllowed: { slug: 'method-not-allowed', title: 'Method not allowed', status: 405 },
  bodyTooLarge: { slug: 'body-too-large', title: 'Body too large', status: 413 },
  responseTooLarge: { slug: 'response-too-large', title: 'Answer too large', status: 413 },
  tooManyBoards: { slug: 'too-many-boards', title: 'Too many boards', status: 413 },
  solveTimeExceeded: { slug: 'solve-time-exceeded', title: 'Too much solving for one request', status: 413 },
  unsupportedMediaType: { slug: 'unsupported-media-type', title: 'Unsupported media type', status: 415 },
  unsupportedContentEncoding: {
    slug: 'unsupported-content-encoding',
    title: 'Unsupported content encoding',
    status: 415,
  },
  unsolvableBoard: { slug: 'unsolvable-board', title: 'Board has no solution', status: 422 },
  notUniqueBoard: { slug: 'not-unique-board', title: 'Board has more than one solution', status: 422 },
  generationLimit: { slug: 'generation-limit', title: 'No puzzle found in the attempts allowed', status: 422 },
  internalError: { slug: 'internal-error', title: 'Internal error', status: 500 },
} as const;

export type ProblemTypeName = keyof typeof PROBLEM_TYPES;

export const PROBLEM_TYPE_URI_PREFIX = 'tag:sudoku-serverless,2026:problem:';

export function problemTypeUri(name: ProblemTypeName): string {
  return PROBLEM_TYPE_URI_PREFIX + PROBLEM_TYPES[name].slug;
}

/**
 * Something wrong with what the client sent. Thrown from anywhere below the router and turned
 * into a problem+json 4xx at the top; any other exception is our bug and becomes a 500.
 */
export class ClientError extends ServiceError<ProblemTypeName> {
  override readonly name = 'ClientError';
  constructor(
    readonly problemType: ProblemTypeName,
    readonly detail: string,
    readonly extra: ProblemExtra = {},
  ) {
    super(problemType, detail);
  }
}
