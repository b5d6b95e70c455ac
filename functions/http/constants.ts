import { API_SOLVE_BUDGET_MS } from '../contract/api-capacity.js';
import { LAMBDA_MAX_SYNC_PAYLOAD_BYTES } from '../contract/aws-quotas.js';

// In the contract (no imports), so the web page's script takes them from the same place.
export { MAX_BOARDS, MAX_BODY_BYTES } from '../contract/api-limits.js';

/**
 * Most time one request may spend solving: the per-request budget, far below the function's timeout,
 * so every request's work is bounded by construction and the stage throttle can be sized from it
 * (functions/contract/api-capacity.ts). A function whose time left is shorter stops sooner.
 */
export const MAX_SOLVE_MS = API_SOLVE_BUDGET_MS;

/** Time kept back from the function's own timeout for shaping and returning the answer. */
export const SOLVE_SAFETY_MARGIN_MS = 2_000;

/**
 * Problems listed per board in an answer (the first ones found; `problemsTotal` counts them all).
 * A board of 81 equal digits has over 200 duplicate pairs: listed in full, 1000 such boards made a
 * 43 MB answer, far over what Lambda can return. Written with the .txt format, whose error lines
 * list the same number.
 */
export { MAX_PROBLEMS_PER_BOARD } from '../formats/txt-codec.js';

/**
 * Largest answer the function returns, counted as Lambda counts it: the whole result serialized as
 * JSON (headers, escaping, base64 included). Lambda refuses a synchronous result over 6 MB
 * (6,291,556 bytes) and API Gateway then answers 500; 6 MiB stays under it, and a larger answer
 * becomes a 413 that tells the client what to do instead.
 */
export const MAX_RESPONSE_BYTES = LAMBDA_MAX_SYNC_PAYLOAD_BYTES;

export const MEDIA_TYPE = {
  json: 'application/json',
  problem: 'application/problem+json',
  text: 'text/plain',
} as const;

/** Charsets accepted in a request's content-type (JSON is UTF-8 by RFC 8259; ASCII is a subset). */
export const ACCEPTED_CHARSETS: readonly string[] = ['utf-8', 'utf8', 'us-ascii'];
