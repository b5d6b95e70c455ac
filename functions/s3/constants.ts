/** Files dropped here are solved. The bucket notification is filtered on this prefix too. */
export const INCOMING_PREFIX = 'incoming/';
/** Solved files, at the same path as their source under incoming/. Never a trigger prefix. */
export const SOLVED_PREFIX = 'solved/';
/** One JSON report per source file: `reports/<path>.json`. Never a trigger prefix. */
export const REPORTS_PREFIX = 'reports/';

/** Object metadata on outputs and reports naming the source version they answer (x-amz-meta-source-etag). */
export const SOURCE_ETAG_METADATA = 'source-etag';
/** Object metadata naming the source key, URL-encoded (metadata is sent as HTTP headers: ASCII only). */
export const SOURCE_KEY_METADATA = 'source-key';

/**
 * Multipart part size. S3's minimum is 5 MiB; 8 MiB keeps a 1M-puzzle output (about 82 MB) at
 * ten parts while the buffered parts (size x queue) stay far below the function's memory.
 */
export const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
/** Parts uploaded at once. */
export const DEFAULT_QUEUE_SIZE = 2;
