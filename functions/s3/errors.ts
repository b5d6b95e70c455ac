/**
 * Thrown when some records of an S3 event failed for a reason a retry may cure (S3 unavailable,
 * the connection dropped mid-file). Throwing makes Lambda retry the whole event; the records
 * already done are skipped then, by their output's source ETag.
 */
export class S3RecordsFailedError extends Error {
  override readonly name = 'S3RecordsFailedError';
  constructor(
    readonly failedKeys: readonly string[],
    readonly causes: readonly unknown[],
  ) {
    super(
      `${failedKeys.length} object(s) could not be processed and will be retried: ${failedKeys.slice(0, 5).join(', ')}` +
        (failedKeys.length > 5 ? ', ...' : ''),
      { cause: causes[0] },
    );
  }
}
