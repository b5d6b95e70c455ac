import { prefixes } from '../contract/service-layout.js';
import { MAX_RESPONSE_BYTES } from './constants.js';
import { problemDetails, problemResponse } from './responses.js';
import type { HttpResponse } from './types.js';

/**
 * The size Lambda gives a result: the whole object serialized as JSON, so the headers, the
 * escaping of the body string and any base64 encoding all count, in UTF-8 bytes.
 */
export function lambdaResultBytes(response: HttpResponse): number {
  return Buffer.byteLength(JSON.stringify(response), 'utf8');
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
