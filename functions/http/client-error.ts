import type { Problem } from '../sudoku/index.js';
import type { ProblemTypeName } from './problem-types.js';

/**
 * Something wrong with what the client sent. Thrown from anywhere below the router and turned
 * into a problem+json 4xx at the top; any other exception is our bug and becomes a 500.
 */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  constructor(
    readonly problemType: ProblemTypeName,
    readonly detail: string,
    readonly extra: { problems?: Problem[]; limit?: number; allow?: string[]; accept?: string[] } = {},
  ) {
    super(detail);
  }
}
