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
