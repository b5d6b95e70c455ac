import { readBodyText } from './body.js';
import { ACCEPTED_CHARSETS, MEDIA_TYPE } from './constants.js';
import { parseMediaType } from './content-type.js';
import { ClientError } from './problems.js';
import type { HttpRequest } from './types.js';

const ACCEPTED = [MEDIA_TYPE.json];

/**
 * The JSON object body of a route that takes only application/json (POST /grade, POST /hint):
 * 415 for another content type or charset, 413/400 from the body reader, 400 for text that is
 * not JSON or JSON that is not an object. `shape` names what the route expects, for the 400s.
 */
export function readJsonObject(request: HttpRequest, route: string, shape: string): Record<string, unknown> {
  const header = request.headers['content-type'];
  const mediaType = parseMediaType(header);
  if (!mediaType || mediaType.essence !== MEDIA_TYPE.json) {
    const got = header ? `"${header.slice(0, 100)}"` : 'no content-type';
    const hint =
      mediaType?.essence === 'application/x-www-form-urlencoded'
        ? " (with curl, add -H 'content-type: application/json')"
        : '';
    throw new ClientError('unsupportedMediaType', `${route} takes ${MEDIA_TYPE.json}; got ${got}${hint}.`, {
      accept: ACCEPTED,
    });
  }
  const charset = mediaType.params.charset?.toLowerCase();
  if (charset !== undefined && !ACCEPTED_CHARSETS.includes(charset)) {
    throw new ClientError('unsupportedMediaType', `The body must be UTF-8; got charset "${charset.slice(0, 40)}".`, {
      accept: ACCEPTED,
    });
  }
  return parseJsonObject(readBodyText(request), `The body of ${route} must be a JSON object ${shape}.`);
}

/** A body's text as a JSON object: 400 malformed-json for text that is not JSON, 400 `notAnObject` for other JSON. */
export function parseJsonObject(text: string, notAnObject: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ClientError('malformedJson', `The body is not valid JSON: ${reason}.`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ClientError('invalidRequest', notAnObject);
  return body as Record<string, unknown>;
}
