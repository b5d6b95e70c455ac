/**
 * The load generator of `npm run bench -- load`, run in a process of its own so its work (building
 * and writing up to 1 MiB bodies) does not compete with the local gateway's thread: autocannon
 * against URL with the mix named, at RATE requests/s for SECONDS, printing what came back as JSON.
 *
 *   tsx bench/load-client.ts URL mixed|attack RATE SECONDS
 */
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { type BenchRequest, hostileRequests, puzzleSet } from './hostile-requests.js';

/** Ordinary traffic: what apps, scripts and the web page send, good and bad. */
export function mixedRequests(): BenchRequest[] {
  const easy = puzzleSet('puzzles2_17_clue');
  const hard = puzzleSet('puzzles5_forum_hardest_1905_11+');
  const json = (body: unknown): BenchRequest => ({
    name: 'json',
    method: 'POST',
    path: '/solve',
    contentType: 'application/json',
    body: JSON.stringify(body),
  });
  const text = (lines: string[]): BenchRequest => ({
    name: 'text',
    method: 'POST',
    path: '/solve',
    contentType: 'text/plain',
    body: `${lines.join('\n')}\n`,
  });
  const rows = (b: string) => Array.from({ length: 9 }, (_, r) => [...b.slice(r * 9, r * 9 + 9)]);
  const numbers = (b: string) => rows(b).map((row) => row.map((c) => (c === '.' ? 0 : Number(c))));
  const requests: BenchRequest[] = [];
  for (let i = 0; i < 20; i++) {
    requests.push(
      json({ board: easy[i]! }),
      json({ board: rows(hard[i]!) }),
      json({ board: numbers(easy[100 + i]!) }),
      json({ boards: easy.slice(i * 50, i * 50 + 50) }),
      json({ boards: hard.slice(i * 20, i * 20 + 20) }),
      text(easy.slice(1000 + i * 20, 1000 + i * 20 + 20)),
      text(hard.slice(500 + i * 5, 500 + i * 5 + 5)),
      json({ board: `55${easy[i]!.slice(2)}` }), // repeated givens: 400
      { name: 'malformed', method: 'POST', path: '/solve', contentType: 'application/json', body: '{"board":' }, // 400
      { name: 'wrong type', method: 'POST', path: '/solve', contentType: 'text/csv', body: easy[i]! }, // 415
    );
  }
  return requests;
}

export interface Phase {
  label: string;
  requests: BenchRequest[];
  rate: number;
  seconds: number;
  /**
   * Open loop: every request on a connection of its own, TICKS_PER_SECOND batches a second, so slow
   * answers never delay the next requests (as independent attackers do not wait). Otherwise a
   * connection per instance sends its quota back to back (fast answers).
   */
  openLoop: boolean;
}

/**
 * autocannon paces `overallRate` as a quota per connection per second, sent at the top of each
 * second: a burst of the whole second's requests, which any token bucket answers with 429s. So the
 * rate is split over INSTANCES long-lived instances started 1/INSTANCES s apart: a burst of
 * rate/INSTANCES every 1/INSTANCES s, smooth at the bucket's scale. Each instance's connections
 * divide its rate exactly (autocannon splits rate and amount over them), every connection starting
 * at a different request of the mix.
 */
const INSTANCES = 10;

export interface Offered {
  statuses: Map<number, number>;
  latencies: number[];
  errors: number;
  timeouts: number;
  seconds: number;
}

export async function offer(url: string, phase: Phase): Promise<Offered> {
  if (phase.openLoop) return offerOpenLoop(url, phase);
  const offered: Offered = { statuses: new Map(), latencies: [], errors: 0, timeouts: 0, seconds: 0 };
  const requests = phase.requests.map((r) => ({
    method: r.method,
    path: r.path,
    ...(r.contentType ? { headers: { 'content-type': r.contentType } } : {}),
    ...(r.body !== undefined ? { body: r.body } : {}),
  }));
  const rates = Array.from(
    { length: INSTANCES },
    (_, i) => Math.floor(((i + 1) * phase.rate) / INSTANCES) - Math.floor((i * phase.rate) / INSTANCES),
  );
  let next = 0;
  const start = performance.now();
  await Promise.all(
    rates.map(async (rate, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i * 1000) / INSTANCES));
      const result = await autocannon({
        url,
        connections: 1,
        overallRate: rate,
        amount: rate * phase.seconds,
        duration: phase.seconds * 100, // a bound; `amount` ends the run first
        timeout: 300,
        requests,
        setupClient: (client) => {
          const first = next++ % requests.length;
          client.setRequests([...requests.slice(first), ...requests.slice(0, first)]);
          client.on('response', (status: number, _bytes: number, ms: number) => {
            offered.statuses.set(status, (offered.statuses.get(status) ?? 0) + 1);
            offered.latencies.push(ms);
          });
        },
      });
      offered.errors += result.errors;
      offered.timeouts += result.timeouts;
    }),
  );
  offered.seconds = (performance.now() - start) / 1000;
  return offered;
}

const TICKS_PER_SECOND = 10;

/** Each tick, an autocannon run of one request on each of rate / TICKS_PER_SECOND fresh connections. */
async function offerOpenLoop(url: string, phase: Phase): Promise<Offered> {
  const offered: Offered = { statuses: new Map(), latencies: [], errors: 0, timeouts: 0, seconds: 0 };
  const requests = phase.requests.map((r) => ({
    method: r.method,
    path: r.path,
    ...(r.contentType ? { headers: { 'content-type': r.contentType } } : {}),
    ...(r.body !== undefined ? { body: r.body } : {}),
  }));
  const perTick = phase.rate / TICKS_PER_SECOND;
  let next = 0;
  const start = performance.now();
  const runs: Promise<void>[] = [];
  for (let k = 0; k < phase.seconds * TICKS_PER_SECOND; k++) {
    const due = start + (k * 1000) / TICKS_PER_SECOND;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    const count = Math.floor((k + 1) * perTick) - Math.floor(k * perTick);
    runs.push(
      autocannon({
        url,
        connections: count,
        amount: count,
        timeout: 300,
        requests: [requests[0]!],
        setupClient: (client) => {
          // Its one request only: autocannon builds every request of a client's list up front.
          client.setRequests([requests[next++ % requests.length]!]);
          client.on('response', (status: number, _bytes: number, ms: number) => {
            offered.statuses.set(status, (offered.statuses.get(status) ?? 0) + 1);
            offered.latencies.push(ms);
          });
        },
      }).then((result) => {
        offered.errors += result.errors;
        offered.timeouts += result.timeouts;
      }),
    );
  }
  await Promise.all(runs);
  offered.seconds = (performance.now() - start) / 1000;
  return offered;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [url, mix, rate, seconds] = process.argv.slice(2);
  const phase: Phase = {
    label: mix!,
    requests: mix === 'attack' ? hostileRequests() : mixedRequests(),
    rate: Number(rate),
    seconds: Number(seconds),
    openLoop: mix === 'attack',
  };
  const offered = await offer(url!, phase);
  process.stdout.write(JSON.stringify({ ...offered, statuses: [...offered.statuses] }));
}
