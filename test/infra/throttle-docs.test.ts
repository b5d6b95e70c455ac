// The throttle figures README.md and docs/infra.md quote are what infra/settings.ts derives: each
// is read from the text and recomputed, so a change to the pool, W or a small route's bucket that
// moves them fails here until the docs say the new figures.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_WORST_CASE_MS } from '../../functions/contract/api-capacity.js';
import {
  apiRouteThrottles,
  defaults,
  derivedThrottle,
  peakInFlight,
  type RouteThrottle,
  type SmallRouteSettings,
  smallRouteThrottles,
} from '../../infra/settings.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8').replace(/\s+/g, ' ');
const infraDoc = read('docs/infra.md');
const readme = read('README.md');

/** The numbers `pattern`'s groups capture in `text` (the docs' wrapping folded to single spaces). */
function figures(text: string, pattern: RegExp): number[] {
  const match = pattern.exec(text);
  expect(match, String(pattern)).not.toBeNull();
  return (match as RegExpExecArray).slice(1).map(Number);
}

const W = API_WORST_CASE_MS / 1000;
const none: SmallRouteSettings = defaults;
const iam: SmallRouteSettings = { ...defaults, apiAuth: 'iam' };
const inFlight = (t: RouteThrottle): number => t.burst + t.rate * W;
const solve = derivedThrottle(defaults.apiReservedConcurrency, none);
const solveIam = derivedThrottle(defaults.apiReservedConcurrency, iam);
const small = peakInFlight(smallRouteThrottles(none));
const smallIam = peakInFlight(smallRouteThrottles(iam));

/** The smallest pool that holds the small buckets and POST /solve's least throttle (rate 1, burst 1). */
const smallestPool = (s: SmallRouteSettings): number => Math.ceil(peakInFlight(smallRouteThrottles(s)) + 1 + W);

describe('throttle figures in the docs', () => {
  it("the defaults are derivedThrottle's at the default pool, and README.md quotes them", () => {
    expect({ rate: defaults.apiRateLimit, burst: defaults.apiBurstLimit }).toEqual(solve);
    expect(figures(readme, /POST \/solve (\d+) requests\/s, burst (\d+) at the defaults/)).toEqual([
      solve.rate,
      solve.burst,
    ]);
    expect(figures(readme, /so POST \/solve keeps its (\d+)\)/)).toEqual([solve.rate]);
  });

  it("docs/infra.md's settings table and route table give each route's bucket and what it holds", () => {
    expect(figures(infraDoc, /\| `apiRateLimit` \| derived: `(\d+)`/)).toEqual([solve.rate]);
    expect(figures(infraDoc, /\| `apiBurstLimit` \| derived: `(\d+)`/)).toEqual([solve.burst]);
    const routes = { ...apiRouteThrottles(defaults), ...smallRouteThrottles(iam) };
    const rows = [...infraDoc.matchAll(/\| [^|]*?`([A-Z]+ [^`]*|\$default)`[^|]*\| (\d+) \| (\d+) \| ([\d.]+) \|/g)];
    expect(rows.map((row) => row[1]).sort()).toEqual(Object.keys(routes).sort());
    for (const [, route, rate, burst, held] of rows) {
      const bucket = routes[route as string] as RouteThrottle;
      expect([Number(rate), Number(burst), Number(held)], route).toEqual([bucket.rate, bucket.burst, inFlight(bucket)]);
    }
    expect(
      figures(
        infraDoc,
        /\*\*total at the default pool of 100\*\* \| \| \| \*\*([\d.]+)\*\* \(iam mode: ([\d.]+), with POST \/solve (\d+)\/s, burst (\d+)\)/,
      ),
    ).toEqual([inFlight(solve) + small, inFlight(solveIam) + smallIam, solveIam.rate, solveIam.burst]);
  });

  it("docs/infra.md's derivation, examples and smallest pool are the code's", () => {
    const left = defaults.apiReservedConcurrency - small;
    expect(figures(infraDoc, /The small routes take ([\d.]+) executions \(([\d.]+) in iam mode\)/)).toEqual([
      small,
      smallIam,
    ]);
    expect(
      figures(
        infraDoc,
        /At the defaults: `rate = floor\(2 x ([\d.]+) \/ ([\d.]+)\) = (\d+)` requests\/s \(it was 10\), `burst = floor\(([\d.]+) - ([\d.]+)\) = (\d+)`, and `(\d+) \+ (\d+) x ([\d.]+) \+ ([\d.]+) = ([\d.]+)`/,
      ),
    ).toEqual([left, 3 * W, solve.rate, left, solve.rate * W, solve.burst, solve.burst, solve.rate, W, small, 99.5]);
    expect(inFlight(solve) + small).toBe(99.5);
    expect(figures(infraDoc, /POST \/solve keeps (\d+) requests\/s \((\d+) in iam mode\)/)).toEqual([
      solve.rate,
      solveIam.rate,
    ]);
    expect(figures(infraDoc, /\(e\.g\. rate (\d+), burst (\d+)\)/)).toEqual([solve.rate, solve.burst]);
    expect(figures(infraDoc, /A pool below (\d+) \((\d+) in iam mode\)/)).toEqual([
      smallestPool(none),
      smallestPool(iam),
    ]);
    const at400 = derivedThrottle(400, none);
    const at1000 = derivedThrottle(1000, none);
    expect(
      figures(
        infraDoc,
        /apiReservedConcurrency=400` gives POST \/solve (\d+) requests\/s, burst (\d+); 1000 gives (\d+)\/s, burst (\d+)/,
      ),
    ).toEqual([at400.rate, at400.burst, at1000.rate, at1000.burst]);
    const puzzleApp = derivedThrottle(200, { ...defaults, apiPuzzleRateLimit: 50 });
    expect(figures(infraDoc, /apiReservedConcurrency=200` leaves POST \/solve (\d+) requests\/s, burst (\d+)/)).toEqual(
      [puzzleApp.rate, puzzleApp.burst],
    );
  });

  it("docs/infra.md's worst case per hour counts every bucket's rate and burst, and docs/http.md quotes POST /solve's", () => {
    const buckets = Object.values(apiRouteThrottles(defaults));
    const match = /`\(([\d +]+)\) requests\/s x 3600 s \+ (\d+)` of bursts = ([\d,]+) requests/.exec(infraDoc);
    expect(match, 'the worst case per hour in docs/infra.md').not.toBeNull();
    const [, rateList, bursts, total] = match as RegExpExecArray;
    const rates = (rateList as string).split(' + ').map(Number);
    expect(rates[0]).toBe(solve.rate);
    const ascending = (a: number, b: number) => a - b;
    expect([...rates].sort(ascending)).toEqual(buckets.map((b) => b.rate).sort(ascending));
    const burstSum = buckets.reduce((sum, b) => sum + b.burst, 0);
    const rateSum = buckets.reduce((sum, b) => sum + b.rate, 0);
    expect([Number(bursts), Number((total as string).replaceAll(',', ''))]).toEqual([
      burstSum,
      rateSum * 3600 + burstSum,
    ]);
    expect(figures(read('docs/http.md'), /at the defaults: POST \/solve (\d+) requests\/s, burst (\d+);/)).toEqual([
      solve.rate,
      solve.burst,
    ]);
  });
});
