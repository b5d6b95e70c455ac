import { readBodyText } from './body.js';
import { ClientError } from './problems.js';
import { ACCEPTED_CHARSETS, MEDIA_TYPE } from './constants.js';
import { parseMediaType } from './content-type.js';
import { solveJsonBody } from './solve-json.js';
import { solveTextBody } from './solve-text.js';
import type { SolveBudget } from './solve-budget.js';
import type { HttpRequest, HttpResponse } from './types.js';

const ACCEPTED = [MEDIA_TYPE.json, MEDIA_TYPE.text];

/**
 * A body sent compressed (Content-Encoding other than identity). API Gateway HTTP APIs pass request
 * bytes through as sent, so the function sees the compressed bytes: refused with 415, and
 * `Accept-Encoding: identity` says what is taken (RFC 9110 §15.5.16).
 */
function refuseContentEncoding(request: HttpRequest): void {
  const codings = (request.headers['content-encoding'] ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return;
  throw new ClientError(
    'unsupportedContentEncoding',
    `POST /solve takes an uncompressed body; got Content-Encoding "${codings.join(', ').slice(0, 60)}". Send the body without Content-Encoding.`,
    { accept: ACCEPTED },
  );
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** POST /solve: checks the content type and coding, then the size, then hands the text to the JSON or line solver. */
export function solveRoute(request: HttpRequest, budget: SolveBudget): HttpResponse {
  const header = request.headers['content-type'];
  const mediaType = parseMediaType(header);
  if (!mediaType || !(ACCEPTED as string[]).includes(mediaType.essence)) {
    const got = header ? `"${header.slice(0, 100)}"` : 'no content-type';
    // curl -d sends a form content type unless told otherwise: the commonest way to get here.
    const hint =
      mediaType?.essence === 'application/x-www-form-urlencoded'
        ? " (with curl, add -H 'content-type: application/json')"
        : '';
    throw new ClientError('unsupportedMediaType', `POST /solve takes ${ACCEPTED.join(' or ')}; got ${got}${hint}.`, {
      accept: ACCEPTED,
    });
  }
  const charset = mediaType.params.charset?.toLowerCase();
  if (charset !== undefined && !ACCEPTED_CHARSETS.includes(charset)) {
    throw new ClientError('unsupportedMediaType', `The body must be UTF-8; got charset "${charset.slice(0, 40)}".`, {
      accept: ACCEPTED,
    });
  }
  refuseContentEncoding(request);
  const text = readBodyText(request);
  // US-ASCII is a subset of UTF-8: taken, but the bytes must then be ASCII, as labelled.
  if (charset === 'us-ascii' && !isAscii(text)) {
    throw new ClientError(
      'invalidEncoding',
      'The body is labelled charset "us-ascii" but holds characters outside US-ASCII; label it UTF-8.',
    );
  }
  return mediaType.essence === MEDIA_TYPE.json ? solveJsonBody(text, budget) : solveTextBody(text, budget);
}
