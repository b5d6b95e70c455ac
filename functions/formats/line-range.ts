/**
 * One byte range of a line-based file, as a file solved in ranges reads it: the lines (for .csv,
 * the records) that START at `start` <= offset < `end`. So every line belongs to exactly one
 * range, whatever the cut: a range skips the line it starts inside (the range before owns it)
 * and reads through the line that crosses its end.
 *
 * The reader is given the file from offset `start - 1` (from 0 for the first range): byte
 * `start - 1` tells whether `start` begins a line (it does if that byte ends one). A .csv record
 * may span lines inside a quoted field, so there a line end only ends a record outside quotes,
 * which needs the quote parity at `start - 1`: known on a second pass (`inQuotes`), assumed
 * even on a first. To learn it, and to number its lines, each range counts the line ends and
 * quotes of its window [start - 1, end - 1): the windows of consecutive ranges tile the file, so
 * the sums over the ranges before one give its line-end count and parity at `start - 1`.
 */

const NEWLINE = 10;
const QUOTE = 34;

export interface LineRangeCut {
  start: number;
  end: number;
  /** Records end only at line ends outside quotes (.csv). */
  csv: boolean;
  /** .csv: offset `start - 1` is inside a quoted field. */
  inQuotes?: boolean;
  /**
   * Asked before each read: once true, the range ends at the next record end instead of at
   * `end` (an invocation running out of time hands the rest over: `stoppedAt`).
   */
  stop?: () => boolean;
}

/** Line ends and quotes in the range's window [start - 1, end - 1). */
export interface RangeWindow {
  newlines: number;
  quotes: number;
}

export interface OpenedLineRange {
  /** Line ends from `start - 1` through the end of the line the range starts inside: the first owned line is `newlinesBefore + skipped + 1`. */
  skipped: number;
  /** The bytes of the owned lines, in order; ends at the line end that crosses `end`, or at the end of the file. */
  owned: AsyncGenerator<Uint8Array>;
  /** The window's counts, complete once `owned` is done. */
  window(): RangeWindow;
  /** Where the range stopped when `stop` cut it short: the start of its first line not read (the rest's `start`). */
  stoppedAt(): number | undefined;
}

/** Occurrences of `byte` in bytes[from, to): searched within the slice only, never past `to`. */
function countByte(bytes: Uint8Array, byte: number, from: number, to: number): number {
  const slice = bytes.subarray(from, to);
  let n = 0;
  for (let i = slice.indexOf(byte); i >= 0; i = slice.indexOf(byte, i + 1)) n++;
  return n;
}

/**
 * Opens a range over `source` (the file's bytes from `start - 1`, or 0): reads until the first
 * owned line begins, so the caller knows its number before the first row is read.
 */
export async function openLineRange(source: AsyncIterable<Uint8Array>, cut: LineRangeCut): Promise<OpenedLineRange> {
  const from = cut.start > 0 ? cut.start - 1 : 0;
  let windowEnd = cut.end - 1;
  let stopping = false;
  let stoppedAt: number | undefined;
  const window: RangeWindow = { newlines: 0, quotes: 0 };
  const iterator = source[Symbol.asyncIterator]();
  let pos = from;
  /** Quote parity at the scan position (csv only). */
  let quoted = cut.inQuotes === true;
  let skipped = 0;
  let phase: 'skip' | 'own' | 'done' = cut.start > 0 ? 'skip' : 'own';

  /**
   * Scans one chunk (at file offset `pos`), counting the window and moving through the phases;
   * returns the part of it the range owns (empty when none).
   */
  const scan = (chunk: Uint8Array): Uint8Array => {
    let ownFrom = phase === 'own' ? 0 : -1;
    let ownTo = chunk.length;
    let at = 0;
    while (at < chunk.length && phase !== 'done') {
      const nl = chunk.indexOf(NEWLINE, at);
      const segmentEnd = nl < 0 ? chunk.length : nl;
      if (cut.csv) {
        const quotes = countByte(chunk, QUOTE, at, segmentEnd);
        if (quotes & 1) quoted = !quoted;
        const inWindow = Math.max(0, Math.min(segmentEnd, windowEnd - pos) - at);
        window.quotes += inWindow === segmentEnd - at ? quotes : countByte(chunk, QUOTE, at, at + inWindow);
      }
      if (nl < 0) break;
      const offset = pos + nl;
      const endsRecord = !cut.csv || !quoted;
      // Cut short: this record end ends the range, and the next range's window starts here.
      if (stopping && phase === 'own' && endsRecord && offset < cut.end - 1) {
        windowEnd = offset;
        stoppedAt = offset + 1;
      }
      if (offset < windowEnd) window.newlines++;
      if (phase === 'skip') {
        skipped++;
        if (endsRecord) {
          if (offset >= cut.end - 1) phase = 'done';
          else {
            phase = 'own';
            ownFrom = nl + 1;
          }
        }
      } else if ((offset >= cut.end - 1 || stoppedAt !== undefined) && endsRecord) {
        phase = 'done';
        ownTo = nl + 1;
      }
      at = nl + 1;
    }
    pos += chunk.length;
    return ownFrom < 0 ? chunk.subarray(0, 0) : chunk.subarray(ownFrom, ownTo);
  };

  let first: Uint8Array | undefined;
  while (phase === 'skip') {
    const next = await iterator.next();
    if (next.done) {
      phase = 'done';
      break;
    }
    const owned = scan(next.value);
    if (owned.length > 0) first = owned;
  }

  async function* owned(): AsyncGenerator<Uint8Array> {
    try {
      if (first) yield first;
      while (phase === 'own') {
        if (cut.stop?.()) stopping = true;
        const next = await iterator.next();
        if (next.done) break;
        const piece = scan(next.value);
        if (piece.length > 0) yield piece;
      }
    } finally {
      // Past the range (or given up): the rest of the file is not this range's to read.
      await iterator.return?.();
    }
  }

  return { skipped, owned: owned(), window: () => ({ ...window }), stoppedAt: () => stoppedAt };
}
