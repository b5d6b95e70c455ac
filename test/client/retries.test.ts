// When the client sends a request again and how long it waits, on an injected fetch and clock (no
// wall time): API Gateway's 429 and the 500 of a throttled Lambda are waited out (by Retry-After
// when one is sent, else backoff with full jitter), a bounded number of times; the function's own
// problem documents are thrown at once; a 413 too much for one request is cut in two.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_RETRY_AFTER_SECONDS,
  DEFAULT_RETRY,
  SudokuClient,
  SudokuHttpError,
  SudokuNetworkError,
  SudokuProblemError,
} from '../../functions/client/index.js';
import { retryAfterMs } from '../../functions/client/retry-policy.js';
import { EASY, EASY_SOLUTION } from '../helpers/boards.js';
import { fakeClock, fakeFetch, json, poolFull, problem, type Reply, solvedEcho, throttled } from './fake-api.js';

const solved = () => json(200, { solution: EASY_SOLUTION, unique: true, stats: { guesses: 0, micros: 3 } });

function setup(reply: Reply, options: { maxInFlight?: number; random?: () => number } = {}) {
  const api = fakeFetch(reply);
  const clock = fakeClock();
  const client = new SudokuClient({
    baseUrl: 'http://api.test',
    fetch: api.fetch,
    clock,
    random: () => 0.5,
    ...options,
  });
  return { api, clock, client };
}

describe('the retry policy', () => {
  it('waits out 429s with exponential backoff and full jitter (no Retry-After), then answers', async () => {
    const { api, clock, client } = setup((_, n) => (n < 4 ? throttled() : solved()));
    const retried: Array<number | undefined> = [];
    const answer = await client.solve(EASY, { onRetry: (event) => retried.push(event.status) });
    expect(answer.solution).toBe(EASY_SOLUTION);
    expect(api.sent).toHaveLength(5);
    // random() = 0.5 of 0.25 s x 2^attempt: 125, 250, 500, 1000 ms.
    expect(clock.sleeps).toEqual([125, 250, 500, 1000]);
    expect(retried).toEqual([429, 429, 429, 429]);
  });

  it('caps the backoff at maxDelaySeconds', async () => {
    const { clock, client } = setup((_, n) => (n < 8 ? poolFull() : solved()), { random: () => 0.999999 });
    await client.solve(EASY);
    expect(clock.sleeps.map(Math.round)).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('waits what Retry-After says, in seconds or as an HTTP date', async () => {
    const { clock, client } = setup((_, n) =>
      n === 0
        ? throttled({ 'retry-after': '3' })
        : n === 1
          ? throttled({ 'retry-after': new Date(clock.now() + 7000).toUTCString() })
          : solved(),
    );
    await client.solve(EASY);
    expect(clock.sleeps).toEqual([3000, 7000]);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
    expect(retryAfterMs(null, 0)).toBeUndefined();
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:00 GMT', 5000)).toBe(0);
  });

  it('stops at once, naming the wait, when Retry-After asks for more than maxRetryAfterSeconds (60 s by default)', async () => {
    const hour = setup(() => throttled({ 'retry-after': '3600' }));
    const error = await hour.client.solve(EASY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SudokuHttpError);
    expect(error).toMatchObject({ status: 429, attempts: 1, retryAfterMs: 3_600_000 });
    expect((error as Error).message).toMatch(/asks to wait 3600 s before another try, longer than this client waits/);
    expect(hour.clock.sleeps).toEqual([]);
    expect(hour.api.sent).toHaveLength(1);
    expect(DEFAULT_MAX_RETRY_AFTER_SECONDS).toBe(60);

    // The limit itself is waited out; a caller may allow more, or none.
    const minute = setup((_, n) => (n === 0 ? throttled({ 'retry-after': '60' }) : solved()));
    await expect(minute.client.solve(EASY)).resolves.toMatchObject({ solution: EASY_SOLUTION });
    expect(minute.clock.sleeps).toEqual([60_000]);
    const patient = new SudokuClient({
      baseUrl: 'http://api.test',
      fetch: fakeFetch((_, n) => (n === 0 ? throttled({ 'retry-after': '3600' }) : solved())).fetch,
      clock: fakeClock(),
      maxRetryAfterSeconds: 7200,
    });
    await expect(patient.solve(EASY)).resolves.toMatchObject({ solution: EASY_SOLUTION });
    expect(() => new SudokuClient({ baseUrl: 'http://api.test', maxRetryAfterSeconds: -1 })).toThrow(
      /maxRetryAfterSeconds must be a number of seconds from 0/,
    );
  });

  it('waits out the 500 of a throttled Lambda (API Gateway {"message"}) but throws the function\'s own 500 problem at once', async () => {
    const gateway = setup((_, n) => (n === 0 ? poolFull() : solved()));
    await expect(gateway.client.solve(EASY)).resolves.toMatchObject({ solution: EASY_SOLUTION });
    expect(gateway.api.sent).toHaveLength(2);

    const own = setup(() =>
      problem(500, { type: 'tag:sudoku-serverless,2026:problem:internal-error', title: 'Internal error', detail: 'x' }),
    );
    const error = await own.client.solve(EASY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SudokuProblemError);
    expect(error).toMatchObject({ code: 'internal-error', status: 500, route: 'POST /solve' });
    expect(own.api.sent).toHaveLength(1);
  });

  it(`gives up after ${DEFAULT_RETRY.maxAttempts} retries with a typed error naming the answer and the attempts`, async () => {
    const { api, client } = setup(() => throttled());
    const error = await client.solve(EASY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SudokuHttpError);
    expect(error).toMatchObject({
      code: 'gateway-answer',
      status: 429,
      text: 'Too Many Requests',
      attempts: DEFAULT_RETRY.maxAttempts + 1,
      route: 'POST /solve',
    });
    expect(api.sent).toHaveLength(DEFAULT_RETRY.maxAttempts + 1);
  });

  it('sends again when no answer came (fetch failed), then says it could not reach the API', async () => {
    const once = setup((_, n) => {
      if (n === 0) throw new TypeError('fetch failed');
      return solved();
    });
    await expect(once.client.solve(EASY)).resolves.toMatchObject({ unique: true });
    const never = setup(() => {
      throw new TypeError('fetch failed');
    });
    const error = await never.client.solve(EASY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SudokuNetworkError);
    expect(error).toMatchObject({ code: 'unreachable', attempts: DEFAULT_RETRY.maxAttempts + 1 });
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('stops waiting, and sends nothing more, once the signal aborts', async () => {
    const controller = new AbortController();
    const { api, client } = setup(() => {
      controller.abort(new Error('cancelled by the user'));
      return throttled();
    });
    await expect(client.solve(EASY, { signal: controller.signal })).rejects.toThrow('cancelled by the user');
    expect(api.sent).toHaveLength(1);
  });

  it('does not retry an answer of the function: a 422 is thrown with its problems and their places', async () => {
    const { api, client } = setup(() =>
      problem(422, {
        type: 'tag:sudoku-serverless,2026:problem:unsolvable-board',
        title: 'Board has no solution',
        detail: 'No solution.',
        problems: [
          { code: 'NO_SOLUTION', message: 'No digit fits at row 1, column 9.', row: 1, col: 9, pointer: '/board' },
        ],
      }),
    );
    const error = (await client.solve(EASY).catch((e: unknown) => e)) as SudokuProblemError;
    expect(error).toBeInstanceOf(SudokuProblemError);
    expect(error.problems).toEqual([expect.objectContaining({ row: 1, col: 9, pointer: '/board' })]);
    expect(api.sent).toHaveLength(1);
  });
});

describe('solveMany over an injected fetch', () => {
  it('cuts a request the function finds too much (413 solve-time-exceeded) in two, and numbers the results as one batch', async () => {
    const { api, client } = setup((request) => {
      const { boards } = JSON.parse(request.body!) as { boards: unknown[] };
      if (boards.length > 300)
        return problem(413, {
          type: 'tag:sudoku-serverless,2026:problem:solve-time-exceeded',
          title: 'Too much solving for one request',
          detail: 'Solving stopped.',
          limit: 250,
        });
      return solvedEcho(request);
    });
    const boards = Array.from({ length: 1000 }, (_, i) => `${i}`);
    const results = await client.solveMany(boards);
    expect(results.map((r) => r.index)).toEqual(boards.map((_, i) => i));
    expect(results.map((r) => ('solution' in r ? r.solution : undefined))).toEqual(boards);
    // The halves go out as workers free up, so in no fixed order.
    const sizes = api.sent.map((r) => (JSON.parse(r.body!) as { boards: unknown[] }).boards.length);
    expect(sizes.sort((a, b) => b - a)).toEqual([1000, 500, 500, 250, 250, 250, 250]);
  });

  it('keeps input order when later requests answer first, and keeps maxInFlight requests in flight at most', async () => {
    let inFlight = 0;
    let peak = 0;
    const { client } = setup(
      async (request, n) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        // Later requests answer sooner.
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 20 - n * 2)));
        inFlight--;
        return solvedEcho(request);
      },
      { maxInFlight: 3 },
    );
    const boards = Array.from({ length: 10_000 }, (_, i) => `b${i}`);
    const seen: number[] = [];
    const results = await client.solveMany(boards, { onResults: (start, part) => seen.push(start, part.length) });
    expect(results.map((r) => ('solution' in r ? r.solution : r.index))).toEqual(boards);
    expect(peak).toBe(3);
    expect(seen.filter((_, i) => i % 2 === 1).reduce((a, b) => a + b, 0)).toBe(10_000);
  });

  it("renumbers a failed board of a later request: its index and its problems' pointer count from the first board", async () => {
    const { client } = setup((request) => {
      const { boards } = JSON.parse(request.body!) as { boards: string[] };
      const results = boards.map((board, index) =>
        board === 'bad'
          ? {
              index,
              status: 400,
              problems: [{ code: 'BAD_CHARACTER', message: 'b', row: 1, col: 1, pointer: `/boards/${index}`, index }],
              problemsTotal: 1,
            }
          : { index, solution: board, unique: true, stats: { guesses: 0, micros: 1 } },
      );
      return json(200, { results, solved: 0, failed: 0 });
    });
    const boards = Array.from({ length: 1500 }, (_, i) => (i === 1234 ? 'bad' : `b${i}`));
    const results = await client.solveMany(boards);
    expect(results[1234]).toEqual({
      index: 1234,
      status: 400,
      problems: [{ code: 'BAD_CHARACTER', message: 'b', row: 1, col: 1, pointer: '/boards/1234', index: 1234 }],
      problemsTotal: 1,
    });
  });

  it("stops every request of the run at the first error that is not the API's throttle, and throws it", async () => {
    const { client } = setup((request, n) =>
      n === 2
        ? problem(415, {
            type: 'tag:sudoku-serverless,2026:problem:unsupported-media-type',
            title: 'Unsupported media type',
            detail: 'no',
          })
        : solvedEcho(request),
    );
    await expect(client.solveMany(Array.from({ length: 5000 }, () => EASY))).rejects.toBeInstanceOf(SudokuProblemError);
  });
});
