import { ServiceError } from '../contract/service-error.js';

/** Why a whole file could not be read as puzzles: retrying will not help, the file must change. */
export type FormatErrorCode =
  | 'UNKNOWN_EXTENSION'
  | 'NO_PUZZLE_COLUMN'
  | 'JSON_TOO_LARGE'
  | 'MALFORMED_JSON'
  | 'NOT_A_BOARD_LIST'
  | 'BAD_GZIP';

/**
 * A file-level error. Thrown inside the streaming pipeline (so the stream stops and the output
 * is discarded) and caught by adapters, which report it instead of retrying.
 */
export class FormatError extends ServiceError<FormatErrorCode> {
  override readonly name = 'FormatError';
  /** 1-based line the error was found on, when it has one. */
  readonly line: number | undefined;

  constructor(code: FormatErrorCode, message: string, line?: number) {
    super(code, message);
    this.line = line;
  }

  toJSON(): { code: FormatErrorCode; message: string; line?: number } {
    return { code: this.code, message: this.message, ...(this.line === undefined ? {} : { line: this.line }) };
  }
}

export function isFormatError(error: unknown): error is FormatError {
  return error instanceof FormatError;
}

/**
 * Whether a failure of a file's processing is the file's fault: the FormatError behind it, if
 * any, found on the error itself or on its `cause` chain (a stream stage destroyed with a
 * FormatError passes it on to the stages after it, and the S3 upload fails with it too). The one
 * place a failure is classified: the caller reports a FormatError and retries anything else.
 */
export function fileFault(...errors: unknown[]): FormatError | undefined {
  for (const error of errors) {
    let seen = error;
    for (let depth = 0; seen !== undefined && seen !== null && depth < 8; depth++) {
      if (seen instanceof FormatError) return seen;
      seen = (seen as { cause?: unknown }).cause;
    }
  }
  return undefined;
}
