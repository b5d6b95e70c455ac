/**
 * A typed client of the Sudoku API for Node.js 22+ and browsers: `fetch` only, no dependency.
 * Request and answer types come from the served OpenAPI document (api-types.ts); the routes and the
 * per-request limits from the contract the function itself reads (contract/api-routes.ts,
 * contract/api-limits.ts), so nothing here restates the API.
 */
import { API_ROUTES, type ApiRouteName, routeKey } from '../contract/api-routes.js';
import { ERROR_LINE_START, errorLine } from '../formats/error-line.js';
import type {
  Board,
  BoardsItem,
  BoardsResponse,
  GradeResponse,
  GradesItem,
  GradesResponse,
  Health,
  HintRequest,
  HintResponse,
  PuzzleQuery,
  PuzzleResponse,
  SolveResponse,
} from './api-types.js';
import { type Answer, answerError, oversizedBoard, oversizedLine, renumbered, unreadable } from './answers.js';
import { SudokuHttpError, SudokuNetworkError, SudokuUsageError } from './errors.js';
import { type BodyFraming, cutRequests, type Span, utf8Bytes } from './request-cutting.js';
import { runPool } from './request-pool.js';
import {
  type Clock,
  DEFAULT_MAX_RETRY_AFTER_SECONDS,
  DEFAULT_RETRY,
  isRetriedAnswer,
  type RetryPolicy,
  retryAfterMs,
  retryDelayMs,
  systemClock,
} from './retry-policy.js';

export interface SudokuClientOptions {
  /** Where the API is: `https://abc.execute-api.eu-west-1.amazonaws.com`, `http://127.0.0.1:3000`, or a stage's URL. */
  baseUrl: string | URL;
  /** The fetch to call (a signing fetch for an IAM-authorized API, a test's); the global one by default. */
  fetch?: typeof fetch;
  /** Requests of one solveMany, solveLines or gradeMany in flight at once (4: well under the stage's burst). */
  maxInFlight?: number;
  /** When and how often to send a throttled request again (DEFAULT_RETRY). */
  retry?: Partial<RetryPolicy>;
  /**
   * The longest Retry-After the client waits out (60 s): an answer asking for more is thrown at
   * once as a SudokuHttpError carrying `retryAfterMs`, instead of a call that sleeps for an hour.
   */
  maxRetryAfterSeconds?: number;
  /** Headers sent with every request (an API key, an authorization). */
  headers?: Readonly<Record<string, string>>;
  /** Time for the waits between attempts (tests pass one that records them). */
  clock?: Clock;
  /** The jitter's source, in [0, 1). */
  random?: () => number;
}

/** A request sent again: after which answer (`status`; undefined when none came) and how long it waits. */
export interface RetryEvent {
  route: string;
  /** The attempt that failed, 1 for the first. */
  attempt: number;
  status: number | undefined;
  delayMs: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  onRetry?: (event: RetryEvent) => void;
}

export interface BatchOptions<R> extends CallOptions {
  /** Results as they arrive: items [start, start + results.length), in any order of requests. */
  onResults?: (start: number, results: readonly R[]) => void;
}

const JSON_TYPE = 'application/json';
const TEXT_TYPE = 'text/plain; charset=utf-8';
/** `{"boards":[` and `]}` around a batch's boards, `,` between two. */
const BOARDS_FRAMING = { overhead: '{"boards":[]}'.length, separator: 1, counts: () => true };

export class SudokuClient {
  private readonly base: string;
  private readonly fetch: typeof fetch;
  private readonly maxInFlight: number;
  private readonly retry: RetryPolicy;
  private readonly maxRetryAfterMs: number;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly clock: Clock;
  private readonly random: () => number;

  constructor(options: SudokuClientOptions) {
    this.base = String(options.baseUrl).replace(/\/+$/, '');
    // Called unbound: a browser's fetch refuses to run with another `this` than the window.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.maxInFlight = options.maxInFlight ?? 4;
    if (!Number.isInteger(this.maxInFlight) || this.maxInFlight < 1) {
      throw new SudokuUsageError(
        'new SudokuClient',
        `maxInFlight must be a whole number from 1; it is ${this.maxInFlight}.`,
      );
    }
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    const maxRetryAfterSeconds = options.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS;
    if (!(maxRetryAfterSeconds >= 0)) {
      throw new SudokuUsageError(
        'new SudokuClient',
        `maxRetryAfterSeconds must be a number of seconds from 0; it is ${maxRetryAfterSeconds}.`,
      );
    }
    this.maxRetryAfterMs = maxRetryAfterSeconds * 1000;
    this.headers = options.headers ?? {};
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
  }

  /** POST /solve `{"board"}`: the solution in the shape sent; a bad board throws a SudokuProblemError (400, 422). */
  async solve(board: Board, options: CallOptions = {}): Promise<SolveResponse> {
    return this.json<SolveResponse>('solve', { body: JSON.stringify({ board }) }, options);
  }

  /**
   * POST /solve for any number of boards: cut into requests within the API's limits, a few in
   * flight, throttles waited out. One result per board, in order, each as one `{"boards"}` request
   * of them all would answer it (`index` and each problem's pointer count from the first board):
   * a bad board is a failed result, not a thrown error.
   */
  async solveMany(boards: readonly Board[], options: BatchOptions<BoardsItem> = {}): Promise<BoardsItem[]> {
    return this.many<BoardsItem>('solve', boards, options, (answer) => (answer as BoardsResponse).results);
  }

  /**
   * POST /solve as text/plain for lines of any number: one answer line per line, in order, as one
   * request of them all would answer (the solution, a blank line for a blank line, or
   * `error line N: CODE: message` numbered from the first line).
   */
  async solveLines(lines: readonly string[], options: BatchOptions<string> = {}): Promise<string[]> {
    const route = routeKey('solve');
    if (lines.some((line) => line.includes('\n'))) {
      throw new SudokuUsageError(route, 'solveLines takes one puzzle a line: a line holds a line break.');
    }
    const blank = (line: string) => line.trim() === '';
    const framing: BodyFraming<string> = { overhead: 0, separator: 1, bytes: utf8Bytes, counts: (l) => !blank(l) };
    const { spans, oversized } = cutRequests(lines, framing);
    return runPool<string>(
      {
        total: lines.length,
        spans,
        oversized,
        oversizedResult: (i) => oversizedLine(i, utf8Bytes(lines[i] ?? '')),
        send: async ([from, to], signal) => {
          const chunk = lines.slice(from, to);
          // A request of blank lines only is refused (no puzzle); its answer is blank lines.
          if (chunk.every(blank)) return chunk.map(() => '');
          const answer = await this.exchange(
            'solve',
            { body: chunk.join('\n'), contentType: TEXT_TYPE },
            { ...options, signal },
          );
          const out = this.accepted(route, answer).text.split('\n');
          if (out.length !== chunk.length) throw unreadable(route, answer, `${out.length} lines for ${chunk.length}`);
          return out.map((line) => {
            const start = ERROR_LINE_START.exec(line);
            return start ? errorLine(from + Number(start[1]), line.slice(start[0].length)) : line;
          });
        },
        onResults: options.onResults,
      },
      this.maxInFlight,
      options.signal,
    );
  }

  /** POST /grade `{"board"}`: its level, score, techniques and solution (only a board with one solution is graded). */
  async grade(board: Board, options: CallOptions = {}): Promise<GradeResponse> {
    return this.json<GradeResponse>('grade', { body: JSON.stringify({ board }) }, options);
  }

  /** POST /grade for any number of boards, as solveMany: one result per board, in order. */
  async gradeMany(boards: readonly Board[], options: BatchOptions<GradesItem> = {}): Promise<GradesItem[]> {
    return this.many<GradesItem>('grade', boards, options, (answer) => (answer as GradesResponse).results);
  }

  /** POST /hint: the next logical step on `board` (with `puzzle`, entries that are not the solution are named). */
  async hint(request: HintRequest, options: CallOptions = {}): Promise<HintResponse> {
    return this.json<HintResponse>('hint', { body: JSON.stringify(request) }, options);
  }

  /** GET /puzzle: a unique, minimal puzzle at a level, the same for the same seed. */
  async puzzle(query: PuzzleQuery, options: CallOptions = {}): Promise<PuzzleResponse> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
    return this.json<PuzzleResponse>('puzzle', { query: params.toString() }, options);
  }

  /** GET /health. */
  async health(options: CallOptions = {}): Promise<Health> {
    return this.json<Health>('health', {}, options);
  }

  private async many<R extends BoardsItem | GradesItem>(
    name: 'solve' | 'grade',
    boards: readonly Board[],
    options: BatchOptions<R>,
    results: (answer: unknown) => R[],
  ): Promise<R[]> {
    const route = routeKey(name);
    // Each board's JSON once: measured for the cut, then joined into the bodies as measured.
    const pieces = boards.map((board) => JSON.stringify(board) ?? 'null');
    const { spans, oversized } = cutRequests(pieces, { ...BOARDS_FRAMING, bytes: utf8Bytes });
    return runPool<R>(
      {
        total: boards.length,
        spans,
        oversized,
        oversizedResult: (i) => oversizedBoard(i, utf8Bytes(pieces[i] ?? '')) as R,
        send: async ([from, to]: Span, signal) => {
          const body = `{"boards":[${pieces.slice(from, to).join(',')}]}`;
          const answered = results(await this.json<unknown>(name, { body }, { ...options, signal }));
          if (!Array.isArray(answered) || answered.length !== to - from) {
            throw new SudokuHttpError(
              route,
              200,
              `${answered?.length} results for ${to - from} boards`,
              'unexpected-answer',
              1,
            );
          }
          return answered.map((item) => renumbered(item, from));
        },
        onResults: options.onResults,
      },
      this.maxInFlight,
      options.signal,
    );
  }

  /** A request whose answer is JSON: the parsed 2xx answer, or the error it is. */
  private async json<T>(
    name: ApiRouteName,
    request: { body?: string; query?: string },
    options: CallOptions,
  ): Promise<T> {
    const route = routeKey(name);
    const answer = this.accepted(route, await this.exchange(name, { ...request, contentType: JSON_TYPE }, options));
    try {
      return JSON.parse(answer.text) as T;
    } catch {
      throw unreadable(route, answer, 'not JSON');
    }
  }

  /** A 2xx answer as it is; any other is thrown as the error it says. */
  private accepted(route: string, answer: Answer): Answer {
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw answerError(route, answer, 1);
  }

  /**
   * Sends one request, again after a wait while the answer is a throttle (or none came), up to the
   * policy's attempts; the last such answer is thrown. Resolves with any other answer, read.
   */
  private async exchange(
    name: ApiRouteName,
    request: { body?: string; query?: string; contentType: string },
    options: CallOptions,
  ): Promise<Answer> {
    const { method, path } = API_ROUTES[name];
    const route = routeKey(name);
    const url = `${this.base}${path}${request.query ? `?${request.query}` : ''}`;
    const init: RequestInit = {
      method,
      headers: { ...this.headers, ...(request.body === undefined ? {} : { 'content-type': request.contentType }) },
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    for (let attempt = 1; ; attempt++) {
      let answer: Answer | undefined;
      let retryAfter: number | undefined;
      let failure: unknown;
      try {
        const response = await this.fetch(url, init);
        answer = {
          status: response.status,
          contentType: response.headers.get('content-type') ?? '',
          text: await response.text(),
        };
        retryAfter = retryAfterMs(response.headers.get('retry-after'), this.clock.now());
      } catch (error) {
        options.signal?.throwIfAborted();
        failure = error;
      }
      if (answer && !isRetriedAnswer(answer.status, answer.contentType)) return answer;
      if (answer && retryAfter !== undefined && retryAfter > this.maxRetryAfterMs) {
        throw answerError(route, answer, attempt, retryAfter);
      }
      if (attempt > this.retry.maxAttempts) {
        throw answer ? answerError(route, answer, attempt) : new SudokuNetworkError(route, attempt, failure);
      }
      const delayMs = retryDelayMs(this.retry, attempt - 1, retryAfter, this.random);
      options.onRetry?.({ route, attempt, status: answer?.status, delayMs });
      await this.clock.sleep(delayMs, options.signal);
    }
  }
}
