import { APIGW_MAX_PAYLOAD_BYTES, APIGW_MAX_REQUEST_LINE_AND_HEADER_BYTES } from '../contract/aws-quotas.js';

/**
 * What API Gateway HTTP API answers itself, before (or instead of) the function: its own JSON
 * `{"message": ...}`, not problem details. The OpenAPI document lists them per route, marked
 * `x-answered-by: gateway`, and the local twin (twin/gateway/http-server.ts) gives the same.
 */
export const GATEWAY_ANSWERS = {
  malformedRequest: {
    status: 400,
    message: 'Bad Request',
    when: 'HTTP it cannot read as one request: two Content-Length headers, Content-Length with Transfer-Encoding, a NUL or other control character in a header, a bare LF line end',
  },
  bodyTooLarge: { status: 413, message: 'Request Entity Too Large', when: 'a body over 10 MiB (10485760 bytes)' },
  headersTooLarge: {
    status: 431,
    message: 'Request Header Fields Too Large',
    when: "a request line and header values over 10240 bytes together (API Gateway's quota)",
  },
  throttled: {
    status: 429,
    message: 'Too Many Requests',
    when: "over the route's throttle (token bucket)",
    retry: true,
  },
  functionFailed: {
    status: 500,
    message: 'Internal Server Error',
    when: "the function could not answer: its reserved concurrency was all in use, it failed, or its result was over Lambda's 6 MB",
    retry: true,
  },
} as const;

export type GatewayAnswerName = keyof typeof GATEWAY_ANSWERS;

/**
 * How a client should treat an answer marked `retry` (the route's throttle, the 500 of a throttled
 * Lambda): every route is safe to send again, so send the same request again after a wait. API
 * Gateway sends no Retry-After with them; a proxy or CDN in front of the API may, and then it says
 * the wait. functions/client/ (SudokuClient) does this; the OpenAPI document says it per answer.
 */
export const GATEWAY_RETRY_ADVICE =
  'Send the same request again after a wait (every route is idempotent): the Retry-After header when one is sent ' +
  '(API Gateway itself sends none; a proxy in front may), else exponential backoff with jitter, a bounded number of times.';

/** API Gateway refuses a request body over 10 MiB itself (a quota that cannot be raised). */
export const GATEWAY_MAX_BODY_BYTES = APIGW_MAX_PAYLOAD_BYTES;

/**
 * API Gateway HTTP API's quota on the "total combined size of request line and header values"
 * (its quotas page; it cannot be raised): header names and line ends do not count.
 */
export const GATEWAY_MAX_REQUEST_LINE_AND_HEADER_BYTES = APIGW_MAX_REQUEST_LINE_AND_HEADER_BYTES;
