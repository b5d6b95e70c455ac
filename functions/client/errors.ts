import { ServiceError } from '../contract/service-error.js';
import type { Problem, ProblemDetails, ProblemSlug } from './api-types.js';

/**
 * The base of what SudokuClient throws. `route` is where it happened (`POST /solve`): the request
 * the client sent, as the API's route table names it.
 */
export class SudokuClientError<Code extends string = string> extends ServiceError<Code> {
  override readonly name: string = 'SudokuClientError';
  constructor(
    code: Code,
    message: string,
    readonly route: string,
    options?: ErrorOptions,
  ) {
    super(code, message, options);
  }
}

/**
 * The function's own error answer, an RFC 9457 problem document (application/problem+json):
 * `code` is the slug of its `type` (`invalid-board`), and `problems` lists each problem with its
 * place (a pointer into the body or the query parameter; row and col inside a board).
 */
export class SudokuProblemError extends SudokuClientError<ProblemSlug> {
  override readonly name = 'SudokuProblemError';
  readonly status: number;
  readonly type: ProblemDetails['type'];
  readonly title: ProblemDetails['title'];
  readonly detail: string;
  /** The first problems (at most 10 a board); `problemsTotal` counts them all. */
  readonly problems: readonly Problem[];
  readonly problemsTotal: number;

  constructor(
    route: string,
    status: number,
    /** The whole document, for its other members (`limit`, `allow`, `parameter`, `requestId`, ...). */
    readonly details: ProblemDetails,
  ) {
    const slug = String(details.type ?? '').replace(/^.*:problem:/, '') as ProblemSlug;
    const detail = typeof details.detail === 'string' ? details.detail : '';
    super(slug, `${route} answered ${status} ${details.title ?? ''}${detail ? `: ${detail}` : ''}`, route);
    this.status = status;
    this.type = details.type;
    this.title = details.title;
    this.detail = detail;
    this.problems = Array.isArray(details.problems) ? details.problems : [];
    this.problemsTotal = Math.max(Number(details.problemsTotal) || 0, this.problems.length);
  }
}

/**
 * An answer that is not the function's: API Gateway's own `{"message"}` (429 throttled and 500 of
 * a throttled Lambda still there after the retries, 403 of an IAM route, 413 over 10 MiB), or what
 * a proxy in front answered (`unexpected-answer`, as is a 2xx the client cannot read).
 */
export class SudokuHttpError extends SudokuClientError<'gateway-answer' | 'unexpected-answer'> {
  override readonly name = 'SudokuHttpError';
  constructor(
    route: string,
    readonly status: number,
    /** The gateway's message (`Too Many Requests`), or the answer's first characters. */
    readonly text: string,
    code: 'gateway-answer' | 'unexpected-answer',
    /** Requests sent, the first one included. */
    readonly attempts: number,
    /**
     * Set when the answer asked for a wait (Retry-After) longer than the client's
     * `maxRetryAfterSeconds`: the client stopped rather than wait that long; the caller may.
     */
    readonly retryAfterMs?: number,
  ) {
    const tries = attempts > 1 ? ` (after ${attempts} attempts)` : '';
    const wait =
      retryAfterMs === undefined
        ? ''
        : `; it asks to wait ${Math.ceil(retryAfterMs / 1000)} s before another try, longer than this client waits (maxRetryAfterSeconds)`;
    super(code, `${route} answered ${status}: ${text}${tries}${wait}`, route);
  }
}

/** No answer at all (fetch failed: no connection, DNS, CORS refused), still so after the retries. */
export class SudokuNetworkError extends SudokuClientError<'unreachable'> {
  override readonly name = 'SudokuNetworkError';
  constructor(
    route: string,
    readonly attempts: number,
    cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super('unreachable', `${route} could not be reached after ${attempts} attempts: ${why}`, route, { cause });
  }
}

/** A call the client refuses before sending anything (a line holding a line break, maxInFlight 0). */
export class SudokuUsageError extends SudokuClientError<'invalid-argument'> {
  override readonly name = 'SudokuUsageError';
  constructor(route: string, message: string) {
    super('invalid-argument', message, route);
  }
}
