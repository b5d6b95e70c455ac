/** One request's limits on the HTTP API: the router enforces them, the page splits files by them. */

/**
 * Largest request body accepted, in bytes after base64 decoding. 1 MiB holds 1000 boards in the
 * widest shape (9x9 strings, ~400 bytes each) with room to spare and keeps well under Lambda's
 * 6 MB synchronous payload limit, so the client gets our precise 413 instead of a gateway error.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Most boards in one request (`boards` array items or non-blank text/plain lines). Bounds the
 * time of one request: even at the slowest known puzzles this stays far inside the timeout.
 */
export const MAX_BOARDS = 1000;
