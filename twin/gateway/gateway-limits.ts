/**
 * What stands between a client and the API function in AWS, modelled for the local twin: the
 * request size API Gateway reads (over it, it answers itself), the stage's token bucket per route
 * (over it, 429) and the function's reserved concurrency (an invocation over it is throttled by
 * Lambda, which API Gateway turns into a 500). A load test against `npm start` then sees the
 * answers AWS would give.
 */
import type { Invocation } from '../lambda/runtime.js';

/** One route's token bucket, as the stage's RouteSettings give it. */
export interface RouteBucket {
  /** Steady rate, requests per second. */
  readonly rate: number;
  /** Size of the bucket: requests admitted at once after a quiet spell. */
  readonly burst: number;
}

export interface GatewayLimits {
  /** Route key (`POST /solve`, `$default`, ...) -> its bucket. A request matching no key is `$default`'s. */
  readonly routeThrottles: Readonly<Record<string, RouteBucket>>;
  /** The API function's reserved concurrency; 0 = no reservation (no pool limit here). */
  readonly reservedConcurrency: number;
}

export type Clock = () => number;

export type { Invocation } from '../lambda/runtime.js';

/**
 * Runs the API function for the local gateway. It takes an execution from the pool when the
 * invocation starts (in arrival order), and gives it back when the invocation ends.
 */
export interface Invoker {
  invoke(event: unknown, admittedAt: number, pool: ExecutionPool): Promise<Invocation>;
}

/**
 * API Gateway's token bucket: full at the start, one token per request, refilled at `rate` per
 * second up to `burst`. A request that finds no whole token is throttled.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly bucket: RouteBucket,
    private readonly now: Clock = () => performance.now(),
  ) {
    this.tokens = bucket.burst;
    this.last = now();
  }

  /** Takes a token if there is one; false means 429. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.bucket.burst, this.tokens + ((now - this.last) / 1000) * this.bucket.rate);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** The stage's buckets, one per route key, as API Gateway keeps them. */
export class StageThrottle {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(routeThrottles: Readonly<Record<string, RouteBucket>>, now?: Clock) {
    for (const [key, bucket] of Object.entries(routeThrottles)) this.buckets.set(key, new TokenBucket(bucket, now));
  }

  /** The route key API Gateway would match: an explicit `METHOD /path` route, else `$default`. */
  routeKey(method: string, path: string): string {
    const key = `${method} ${path}`;
    return this.buckets.has(key) ? key : '$default';
  }

  /** True when the request's route has a token for it; false means 429. A route without a bucket is not throttled. */
  admit(method: string, path: string): boolean {
    return this.buckets.get(this.routeKey(method, path))?.take() ?? true;
  }
}

/** How long finished invocations are remembered for the count (far longer than any request runs). */
const HORIZON_MS = 120_000;

/**
 * The API function's reserved executions, counted as Lambda counts them. In AWS every admitted
 * request gets an execution of its own at once and holds it for its own duration; here the
 * handler runs in one process, so requests may wait for each other. The count therefore follows
 * AWS's timeline, not the twin's queue: an invocation admitted at time a and measured running d ms
 * holds an execution over [a, a + d], and a new invocation admitted at time t finds busy every
 * invocation still running here plus every finished one whose interval covers t. Over the pool, it
 * gets no execution: Lambda's throttle, API Gateway's 500.
 */
export class ExecutionPool {
  private readonly running = new Set<object>();
  private finished: number[] = [];
  /** Most executions busy at once, counting the one just started. */
  peak = 0;
  /** Invocations refused because the pool was full. */
  throttled = 0;

  constructor(
    readonly size: number,
    private readonly now: Clock = () => performance.now(),
  ) {}

  /**
   * Takes an execution for an invocation the gateway admitted at `admittedAt` (by this pool's
   * clock); returns the function to call when the invocation ends (with the time it ran, when it
   * ran elsewhere; else the time since it started here), or undefined when the pool is full.
   */
  acquire(admittedAt: number): ((ranMs?: number) => void) | undefined {
    const started = this.now();
    this.finished = this.finished.filter((end) => end > started - HORIZON_MS);
    const busy = this.running.size + this.finished.filter((end) => end > admittedAt).length;
    if (this.size > 0 && busy >= this.size) {
      this.throttled++;
      return undefined;
    }
    this.peak = Math.max(this.peak, busy + 1);
    const token = {};
    this.running.add(token);
    return (ranMs) => {
      if (!this.running.delete(token)) return;
      this.finished.push(admittedAt + (ranMs ?? this.now() - started));
    };
  }
}

/**
 * What API Gateway counts against its 10,240-byte header quota: the request line
 * (`METHOD target HTTP/1.1`) and every header value, in bytes; names and line ends do not count.
 * Node gives the values latin1-decoded, one character a byte, as they came.
 */
export function requestLineAndHeaderBytes(request: {
  method: string;
  url: string;
  httpVersion: string;
  rawHeaders: readonly string[];
}): number {
  let bytes = Buffer.byteLength(`${request.method} ${request.url} HTTP/${request.httpVersion}`, 'latin1');
  for (let i = 1; i < request.rawHeaders.length; i += 2) bytes += Buffer.byteLength(request.rawHeaders[i]!, 'latin1');
  return bytes;
}
