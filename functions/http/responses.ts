import { MEDIA_TYPE } from './constants.js';
import { PROBLEM_TYPES, problemTypeUri, type ProblemTypeName } from './problems.js';
import type { HttpResponse, ProblemDetails, ProblemExtra } from './types.js';

export function jsonResponse(statusCode: number, value: unknown): HttpResponse {
  return {
    statusCode,
    headers: { 'content-type': MEDIA_TYPE.json },
    body: JSON.stringify(value),
    isBase64Encoded: false,
  };
}

export function textResponse(statusCode: number, text: string, headers: Record<string, string> = {}): HttpResponse {
  return {
    statusCode,
    headers: { 'content-type': `${MEDIA_TYPE.text}; charset=utf-8`, ...headers },
    body: text,
    isBase64Encoded: false,
  };
}

export function problemDetails(
  name: ProblemTypeName,
  detail: string,
  requestId: string,
  extra: ProblemExtra = {},
): ProblemDetails {
  const { title, status } = PROBLEM_TYPES[name];
  return { type: problemTypeUri(name), title, status, detail, ...extra, requestId };
}

export function problemResponse(details: ProblemDetails): HttpResponse {
  const headers: Record<string, string> = { 'content-type': MEDIA_TYPE.problem };
  if (details.allow) headers.allow = details.allow.join(', ');
  if (details.accept && details.status === 415) headers['accept-post'] = details.accept.join(', ');
  if (details.type === problemTypeUri('unsupportedContentEncoding')) headers['accept-encoding'] = 'identity';
  return { statusCode: details.status, headers, body: JSON.stringify(details), isBase64Encoded: false };
}
