/**
 * Cutting a list of any length into requests the API takes: at most MAX_BOARDS boards and
 * MAX_BODY_BYTES of body each (the limits the function enforces, read from the contract it reads
 * them from), counted exactly as the body will be sent, so a request at the edge is never refused.
 */
import { MAX_BOARDS, MAX_BODY_BYTES } from '../contract/api-limits.js';

export interface RequestLimits {
  /** Items counted per request (the API's boards, or non-blank text/plain lines). */
  readonly maxItems: number;
  /** Bytes of one request's body (UTF-8). */
  readonly maxBytes: number;
}

export const API_REQUEST_LIMITS: RequestLimits = { maxItems: MAX_BOARDS, maxBytes: MAX_BODY_BYTES };

/** How items are framed in a body: `{"boards":[` a `,` b `]}`, or lines joined by `\n`. */
export interface BodyFraming<T> {
  /** Bytes around the items (`{"boards":[` and `]}`: 13). */
  readonly overhead: number;
  /** Bytes between two items. */
  readonly separator: number;
  /** One item's bytes in the body. */
  bytes(item: T): number;
  /** Whether the item counts against maxItems (text/plain: a blank line does not). */
  counts(item: T): boolean;
}

/** Items [from, to) of the list, sent in one request. */
export type Span = readonly [from: number, to: number];

export interface Cut {
  /** The requests, in order; together with `oversized` they hold every item once. */
  readonly spans: Span[];
  /** Items too large for any request even alone: answered as failures without being sent. */
  readonly oversized: number[];
}

/** The fewest requests in order (each as full as the limits allow) for `items`. */
export function cutRequests<T>(
  items: readonly T[],
  framing: BodyFraming<T>,
  limits: RequestLimits = API_REQUEST_LIMITS,
): Cut {
  const spans: Span[] = [];
  const oversized: number[] = [];
  let from = 0;
  let count = 0;
  let bytes = framing.overhead;
  const close = (to: number) => {
    if (to > from) spans.push([from, to]);
  };
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as T;
    const size = framing.bytes(item);
    const counted = framing.counts(item) ? 1 : 0;
    if (framing.overhead + size > limits.maxBytes) {
      close(i);
      oversized.push(i);
      from = i + 1;
      count = 0;
      bytes = framing.overhead;
      continue;
    }
    const first = i === from;
    if (!first && (count + counted > limits.maxItems || bytes + framing.separator + size > limits.maxBytes)) {
      close(i);
      from = i;
      count = 0;
      bytes = framing.overhead;
    }
    bytes += (i === from ? 0 : framing.separator) + size;
    count += counted;
  }
  close(items.length);
  return { spans, oversized };
}

/** Bytes of `text` in UTF-8 (a lone surrogate as the 3 bytes of U+FFFD, as fetch encodes it). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
