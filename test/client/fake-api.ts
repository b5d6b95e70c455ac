/**
 * What the client's unit tests give it instead of the network and the wall clock: a fetch that
 * answers each request with what the test says (and records it), and a clock whose sleeps return at
 * once, recorded.
 */
import type { Clock } from '../../functions/client/index.js';

export interface SentRequest {
  url: string;
  method: string;
  contentType: string | undefined;
  body: string | undefined;
}

export type Reply = (request: SentRequest, n: number) => Response | Promise<Response>;

/** A fetch that answers request n (0-based) with `reply`, recording every request sent. */
export function fakeFetch(reply: Reply): { fetch: typeof fetch; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}) => {
    init.signal?.throwIfAborted();
    const headers = new Headers(init.headers);
    const request: SentRequest = {
      url: String(input),
      method: init.method ?? 'GET',
      contentType: headers.get('content-type') ?? undefined,
      body: typeof init.body === 'string' ? init.body : undefined,
    };
    sent.push(request);
    return reply(request, sent.length - 1);
  };
  return { fetch: fetch as typeof globalThis.fetch, sent };
}

/** A clock at `start` ms whose sleeps advance it and return at once; `sleeps` lists them. */
export function fakeClock(start = Date.UTC(2026, 11, 5, 12)): Clock & { sleeps: number[] } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      now += ms;
    },
  };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export const problem = (status: number, body: Record<string, unknown>) =>
  new Response(JSON.stringify({ status, ...body }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });

/** API Gateway's own answers, as the twin gives them (functions/http/gateway-answers.ts). */
export const throttled = (headers: Record<string, string> = {}) => json(429, { message: 'Too Many Requests' }, headers);
export const poolFull = () => json(500, { message: 'Internal Server Error' });

/** The fake API's answer to `{"boards": [...]}`: every board "solved" to itself, numbered from 0. */
export function solvedEcho(request: SentRequest): Response {
  const { boards } = JSON.parse(request.body ?? '{}') as { boards: unknown[] };
  const results = boards.map((board, index) => ({
    index,
    solution: board,
    unique: true,
    stats: { guesses: 0, micros: 1 },
  }));
  return json(200, { results, solved: boards.length, failed: 0 });
}
