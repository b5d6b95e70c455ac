import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/handler/index.js';
import { handleHttpEvent, MAX_SOLVE_MS, SolveBudget, type HttpResponse } from '../../functions/http/index.js';
import { ClientError } from '../../functions/http/problems.js';
import { buildHttpApiEvent } from '../../twin/gateway/http-api-event.js';
import { createLambdaContext } from '../../twin/lambda/lambda-context.js';
import { MAX_GUESSES } from '../../functions/sudoku/index.js';
import { EASY, EASY_SOLUTION, NO_SOLUTION_DEEP } from '../helpers/boards.js';
import { API_SOLVE_BUDGET_MS } from '../../functions/contract/api-capacity.js';
import { FUNCTION_TIMEOUT_DEFAULTS } from '../../functions/contract/service-layout.js';

describe('the solving time budget of one request', () => {
  it('lets work go on until the deadline, then throws a 413 naming how far it got and the limit', async () => {
    let now = 0;
    const budget = new SolveBudget(100, () => now);
    now = 100;
    expect(() => budget.check(5, 10)).not.toThrow();
    now = 101;
    const error = (() => {
      try {
        budget.check(6, 10);
      } catch (e) {
        return e;
      }
    })() as ClientError;
    expect(error).toBeInstanceOf(ClientError);
    expect(error.problemType).toBe('solveTimeExceeded');
    expect(error.detail).toContain('after 6 of 10 boards');
    expect(error.extra.limit).toBe(100);
  });

  it(`is ${MAX_SOLVE_MS} ms, far below the API function's timeout, or less when the function would time out first`, async () => {
    expect(MAX_SOLVE_MS).toBe(API_SOLVE_BUDGET_MS);
    expect(MAX_SOLVE_MS * 10).toBeLessThan(FUNCTION_TIMEOUT_DEFAULTS.api * 1000);
    expect(SolveBudget.forInvocation(undefined).limitMs).toBe(MAX_SOLVE_MS);
    expect(SolveBudget.forInvocation({ getRemainingTimeInMillis: () => 900_000 }).limitMs).toBe(MAX_SOLVE_MS);
    expect(SolveBudget.forInvocation({ getRemainingTimeInMillis: () => 5_000 }).limitMs).toBe(MAX_SOLVE_MS);
    expect(SolveBudget.forInvocation({ getRemainingTimeInMillis: () => 2_100 }).limitMs).toBe(100);
    expect(SolveBudget.forInvocation({ getRemainingTimeInMillis: () => 500 }).limitMs).toBe(0);
  });

  it('stops a request of 1000 boards that would each search for milliseconds at the budget, with 413', async () => {
    const event = buildHttpApiEvent({
      method: 'POST',
      url: '/solve',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ boards: Array(1000).fill(NO_SOLUTION_DEEP) }),
    });
    const result = (await handler(event, createLambdaContext({ timeoutMs: 5000 }))) as HttpResponse;
    expect(result.statusCode).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ limit: MAX_SOLVE_MS });
  });

  it('turns the time left into a guess allowance, so one pathological board cannot outlast the function', async () => {
    let now = 0;
    const budget = new SolveBudget(3_000, () => now);
    expect(budget.guessAllowance()).toBe(750_000);
    now = 2_999;
    expect(budget.guessAllowance()).toBe(1_000);
    now = 10_000;
    expect(budget.guessAllowance()).toBe(1_000);
    expect(new SolveBudget(MAX_SOLVE_MS * 1000).guessAllowance()).toBe(MAX_GUESSES);
  });

  it('answers a board that needs more guesses than the time left allows with 422 SEARCH_LIMIT, not a timeout', async () => {
    // Settled by the solver in 8,213 guesses: more than the allowance of a request with no time left.
    const trap = '.....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........';
    const solve = (timeoutMs: number) =>
      handler(
        buildHttpApiEvent({
          method: 'POST',
          url: '/solve',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ board: trap }),
        }),
        createLambdaContext({ timeoutMs }),
      ) as Promise<HttpResponse>;
    const nearlyOut = await solve(1000);
    expect(nearlyOut.statusCode).toBe(422);
    expect(JSON.parse(nearlyOut.body).problems[0]).toMatchObject({ code: 'SEARCH_LIMIT' });
    // With the API function's whole timeout, the same board is settled: it has no solution.
    const inTime = await solve(5000);
    expect(inTime.statusCode).toBe(422);
    expect(JSON.parse(inTime.body).problems[0]).toMatchObject({ code: 'NO_SOLUTION' });
  });

  it('answers a batch that outlasts the invocation with 413 solve-time-exceeded, not a timeout', async () => {
    const nearlyOut = createLambdaContext({ timeoutMs: 1000 });
    const event = buildHttpApiEvent({
      method: 'POST',
      url: '/solve',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ boards: [EASY, EASY, EASY] }),
    });
    const result = (await handler(event, nearlyOut)) as HttpResponse;
    expect(result.statusCode).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ type: expect.stringContaining('solve-time-exceeded'), limit: 0 });
  });

  it('does the same for text/plain lines, but always solves a single board', async () => {
    const nearlyOut = createLambdaContext({ timeoutMs: 1000 });
    const lines = buildHttpApiEvent({
      method: 'POST',
      url: '/solve',
      headers: { 'content-type': 'text/plain' },
      body: `${EASY}\n\n${EASY}\n`,
    });
    expect(((await handler(lines, nearlyOut)) as HttpResponse).statusCode).toBe(413);
    const one = buildHttpApiEvent({
      method: 'POST',
      url: '/solve',
      headers: { 'content-type': 'text/plain' },
      body: `\n${EASY}\n`,
    });
    expect(((await handler(one, nearlyOut)) as HttpResponse).body).toBe(`\n${EASY_SOLUTION}\n`);
  });
  it('runs on the budget it is handed, its clock included, for /solve and a /grade batch alike', async () => {
    // Each board read moves this clock on by a second: the second board finds the budget spent.
    let now = 0;
    const clock = () => now++ * 1000;
    for (const url of ['/solve', '/grade']) {
      const event = buildHttpApiEvent({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ boards: [EASY, EASY, EASY] }),
      });
      const stopped = await handleHttpEvent(event, undefined, new SolveBudget(MAX_SOLVE_MS, () => 0));
      expect(stopped.statusCode, url).toBe(200);
      const spent = await handleHttpEvent(event, undefined, new SolveBudget(MAX_SOLVE_MS, clock));
      expect(spent.statusCode, url).toBe(413);
      expect(JSON.parse(spent.body).type, url).toMatch(/solve-time-exceeded$/);
    }
  });
});
