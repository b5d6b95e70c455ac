import { INCOMING_PREFIX, REPORTS_PREFIX, SOLVED_PREFIX } from './constants.js';

/**
 * An object key as it appears in an S3 event: form-URL-encoded, so a space is `+` and a `+` is
 * `%2B`. A malformed escape is kept literally rather than failing the whole event.
 */
export function decodeEventKey(encoded: string): string {
  const spaced = encoded.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The inverse of `decodeEventKey`, as S3 writes keys into events (slashes kept). */
export function encodeEventKey(key: string): string {
  return encodeURIComponent(key).replace(/%20/g, '+').replace(/%2F/g, '/');
}

export interface OutputKeys {
  outputKey: string;
  reportKey: string;
}

/** Where the answer and the report of `incoming/<path>` go; undefined for a key outside incoming/. */
export function outputKeysFor(sourceKey: string): OutputKeys | undefined {
  if (!sourceKey.startsWith(INCOMING_PREFIX) || sourceKey.length === INCOMING_PREFIX.length) return undefined;
  const path = sourceKey.slice(INCOMING_PREFIX.length);
  return { outputKey: SOLVED_PREFIX + path, reportKey: `${REPORTS_PREFIX}${path}.json` };
}
