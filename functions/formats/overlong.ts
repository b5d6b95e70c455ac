import { MAX_LINE_CHARS } from './line-splitting.js';
import { failedRow } from './row-result.js';
import type { RowResult } from './row-result.js';

/** The answer to a line longer than any row can be. */
export function overlongRow(line: number): RowResult {
  return failedRow(
    [
      {
        code: 'LINE_TOO_LONG',
        message: `The line is longer than ${MAX_LINE_CHARS} characters; a row holds one board.`,
      },
    ],
    { line },
  );
}
