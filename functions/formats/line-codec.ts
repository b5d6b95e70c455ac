import type { Line } from './line-splitting.js';
import type { FileTally } from './tally.js';

/**
 * How one line-based format turns input lines into output lines. Stateful (a CSV header, a
 * quoted field spanning lines), so each file gets a fresh codec.
 */
export interface LineCodec {
  /**
   * The output for input line `lineNo` (1-based), without its terminator; `undefined` when the
   * line only continues a record that ends on a later line (that record's output then spans as
   * many lines). Records the row's outcome in `tally`.
   */
  line(line: Line, lineNo: number, tally: FileTally): string | undefined;
  /** Output still owed at the end of the input (a record left open). */
  end(tally: FileTally): string | undefined;
}

/** Runs a codec over batches of lines, numbered from `firstLine`; one output chunk per input batch. */
export async function* solveLines(
  batches: AsyncIterable<Line[]>,
  codec: LineCodec,
  tally: FileTally,
  firstLine = 1,
): AsyncGenerator<string> {
  let lineNo = firstLine - 1;
  for await (const batch of batches) {
    let out = '';
    for (const line of batch) {
      const answer = codec.line(line, ++lineNo, tally);
      if (answer !== undefined) out += `${answer}\n`;
    }
    if (out.length > 0) yield out;
  }
  const last = codec.end(tally);
  if (last !== undefined) yield `${last}\n`;
}
