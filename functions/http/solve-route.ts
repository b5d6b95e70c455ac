import { readBodyText } from './body.js';
import { ClientError } from './problems.js';
import { ACCEPTED_CHARSETS, MEDIA_TYPE } from './constants.js';
import { parseMediaType } from './content-type.js';
import { solveJsonBody } from './solve-json.js';
import { solveTextBody } from './solve-text.js';
import type { SolveBudget } from './solve-budget.js';
import type { HttpRequest, HttpResponse } from './types.js';

const ACCEPTED = [MEDIA_TYPE.json, MEDIA_TYPE.text];

/** POST /solve: checks the content type, then the size, then hands the text to the JSON or line solver. */
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
  const text = readBodyText(request);
  return mediaType.essence === MEDIA_TYPE.json ? solveJsonBody(text, budget) : solveTextBody(text, budget);
}
