import { prefixes } from '../contract/service-layout.js';
import { MAX_RESPONSE_BYTES } from './constants.js';
import { problemDetails, problemResponse } from './responses.js';
import type { HttpResponse } from './types.js';

/**
 * The size Lambda gives a result: the whole object serialized as JSON, so the headers, the
 * escaping of the body string and any base64 encoding all count, in UTF-8 bytes.
 */
export function lambdaResultBytes(response: HttpResponse): number {
  // The body is most of it and is one string: its escaped size is counted, not built (serializing
  // a 2 MB answer a second time was a sixth of the slowest request's time).
  return Buffer.byteLength(JSON.stringify({ ...response, body: '' }), 'utf8') + jsonStringBytes(response.body) - 2;
}

/** The UTF-8 bytes of JSON.stringify(text), quotes included, counted without building it. */
export function jsonStringBytes(text: string): number {
  let bytes = 2;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      // '"' and '\\' take a backslash; of the controls, \b \t \n \f \r take one, the rest \u00XX.
      if (c >= 0x20) bytes += c === 0x22 || c === 0x5c ? 2 : 1;
      else bytes += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
    } else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      bytes += 6; // a lone surrogate is written as \uDXXX
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The response, or a 413 in its place when it would be over Lambda's limit for a synchronous
 * result (Lambda would fail the invocation and API Gateway would answer 500). The answer's CORS
 * headers are kept, so a browser script can read the 413.
 */
export function withinResponseLimit(
  response: HttpResponse,
  requestId: string,
  limit = MAX_RESPONSE_BYTES,
): HttpResponse {
  const bytes = lambdaResultBytes(response);
  if (bytes <= limit) return response;
  const tooLarge = problemResponse(
    problemDetails(
      'responseTooLarge',
      `The answer would be ${bytes} bytes; Lambda returns at most ${limit} bytes to API Gateway. Send fewer boards ` +
        `per request, or put the puzzles in a file under ${prefixes.incoming} in the bucket: files have no size limit ` +
        `and are answered under ${prefixes.solved} with a report under ${prefixes.reports}.`,
      requestId,
      { limit },
    ),
  );
  const cors = Object.entries(response.headers).filter(
    ([name]) => name.startsWith('access-control-') || name === 'vary',
  );
  return { ...tooLarge, headers: { ...tooLarge.headers, ...Object.fromEntries(cors) } };
}
