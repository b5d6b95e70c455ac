// The client's promise under load: 100,000 boards through the twin's gateway with the stage
// throttle and the API function's pool set low enough that API Gateway's 429s and the 500s of a
// throttled Lambda really happen (counted on the twin's side), every board answered in order,
// each answer a solution of its own board, and no error thrown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeKey } from '../../functions/contract/api-routes.js';
import { MAX_BOARDS } from '../../functions/contract/api-limits.js';
import { type RetryEvent, SudokuClient } from '../../functions/client/index.js';
import { type RunningHttpServer, startHttpServer } from '../../twin/gateway/http-server.js';
import { type HandlerThreads, startHandlerThreads } from '../../twin/lambda/handler-threads.js';
import { cycled, readPuzzleSet } from '../helpers/puzzle-sets.js';
import { isSolutionOf } from '../helpers/sudoku-rules.js';

const BOARDS = 100_000;
let threads: HandlerThreads;
let server: RunningHttpServer;

beforeAll(async () => {
  // The built bundle on worker threads, as `npm start` runs it.
  threads = startHandlerThreads();
  server = await startHttpServer({
    port: 0,
    handler: threads,
    // POST /solve admits 20 requests/s after a burst of 3, and one execution serves them: four
    // requests in flight find the bucket empty (429) and the one execution busy (500).
    limits: { routeThrottles: { [routeKey('solve')]: { rate: 20, burst: 3 } }, reservedConcurrency: 1 },
    onHandlerError: () => undefined,
  });
});
afterAll(async () => {
  await server?.close();
  await threads?.close();
});

describe("solveMany through the twin's throttles", () => {
  it("solves 100,000 boards through the twin's throttles in order with no error", { timeout: 240_000 }, async () => {
    // The 17-clue set: easy for the solver, so the run's CPU goes to the HTTP path, not the search.
    const boards = cycled(readPuzzleSet('puzzles2_17_clue'), BOARDS);
    const client = new SudokuClient({ baseUrl: server.url, maxInFlight: 4 });
    const retries: RetryEvent[] = [];
    let answered = 0;
    const results = await client.solveMany(boards, {
      onRetry: (event) => retries.push(event),
      onResults: (_start, part) => {
        answered += part.length;
      },
    });

    expect(results).toHaveLength(BOARDS);
    expect(answered).toBe(BOARDS);
    const wrong = results.flatMap((result, i) =>
      result.index === i && 'solution' in result && isSolutionOf(boards[i]!, result.solution as string) ? [] : [i],
    );
    expect(wrong).toEqual([]);
    // Both throttles happened, on the twin's side, and the client waited each out.
    const stats = server.stats();
    expect(stats.throttled).toBeGreaterThan(0);
    expect(stats.poolFull).toBeGreaterThan(0);
    expect(retries.filter((r) => r.status === 429)).toHaveLength(stats.throttled);
    expect(retries.filter((r) => r.status === 500)).toHaveLength(stats.poolFull);
    console.info(
      `100,000 boards in ${BOARDS / MAX_BOARDS} requests: ${stats.throttled} answered 429 and ${stats.poolFull} 500 ` +
        `(pool full) by the twin, all waited out; ${stats.arrivalSeconds.toFixed(1)} s from first to last request`,
    );
  });
});
