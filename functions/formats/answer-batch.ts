import { countSolutions } from '../sudoku/index.js';
import { codecFor } from './codecs.js';
import { createGenerateCodec } from './generate-codec.js';
import type { GenerateRows } from './generate-codec.js';
import { createGradeCodec } from './grade-codec.js';
import { countLevel, emptyLevelCounts } from './level-counts.js';
import { gradeRow } from './row-grade.js';
import { OVERLONG_LINE } from './line-splitting.js';
import type { Line } from './line-splitting.js';
import { FileTally } from './tally.js';
import type { BatchFormat, RowCounts, RowFailure } from './types.js';

/**
 * A run of whole lines of a file as raw UTF-8 bytes: what a worker thread is handed. Bytes, not
 * strings, so the reading thread never decodes a row and the batch crosses threads as one copy.
 */
export interface RowBatch {
  format: BatchFormat;
  /** 1-based line number of the first line. */
  firstLine: number;
  /** The lines, each ended by `\n` except possibly the last line of the file. */
  bytes: Uint8Array;
  /** How many lines `bytes` holds (counted once, by the cutter). */
  lines: number;
  /** Lines (0-based within the batch) too long to be rows; their bytes were dropped and they stand empty here. */
  overlong: number[];
  /** Longest line answered as a row (MAX_LINE_CHARS unless a test says otherwise). */
  maxLineChars: number;
  /** Grade the rows with exactly one solution (counted in the answer's `levels`). */
  grade?: boolean;
  /**
   * What a row's output line is: its solution (the default); `'grade'`: its grade as a JSON line,
   * or its problems (what `sudoku grade` writes; grade-codec.ts); or for `.txt` rows that
   * are seeds, `{ generate: level, symmetric }`: the puzzle made from each (`sudoku generate`).
   */
  answer?: RowAnswer;
}

/** What each row of a batch is answered with: see RowBatch's `answer`. */
export type RowAnswer = 'solution' | 'grade' | GenerateRows;

/** The answer to a batch: the output lines, and what the file's tally must add. */
export interface BatchAnswer {
  /** UTF-8 output, one line per input line (`\n`-terminated), in order. */
  text: Uint8Array;
  counts: RowCounts;
  /** Every failed row of the batch, in order (a batch is bounded, so this is too). */
  failures: RowFailure[];
  /** Graded rows per level (as LEVELS), when the batch asked for grades. */
  levels?: number[];
}

const NEWLINE = 10;
const CR = 13;
const DOT = 46;
const ZERO = 48;

/** Output bytes grown by doubling: one allocation per batch in the common case. */
class ByteWriter {
  bytes: Uint8Array;
  length = 0;
  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(capacity, 256));
  }
  reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
  text(s: string): void {
    // A UTF-16 unit never takes more than 3 UTF-8 bytes.
    this.reserve(s.length * 3 + 1);
    this.length += encoder.encodeInto(s, this.bytes.subarray(this.length)).written;
    this.bytes[this.length++] = NEWLINE;
  }
  done(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

const encoder = new TextEncoder();
// ignoreBOM: a byte-order mark is dropped only at the start of the file (by the batcher), as before.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The fast path's search budget: 250x what the hardest shared puzzles need. A row beyond it (a
 * pathological board that may end in SEARCH_LIMIT) goes the general way with the full budget, so
 * it costs a tenth more search (500,000 of 5,000,000 guesses), not twice the search.
 */
const FAST_PATH_GUESSES = 500_000;

/** A byte's cell on the fast path: `1`-`9` its digit, `.` and `0` empty, any other byte NOT_A_CELL. */
const NOT_A_CELL = 0x80;
const CELL_OF_BYTE = new Uint8Array(256).fill(NOT_A_CELL);
for (let digit = 1; digit <= 9; digit++) CELL_OF_BYTE[ZERO + digit] = digit;
CELL_OF_BYTE[DOT] = 0;
CELL_OF_BYTE[ZERO] = 0;

/** `0` in each byte of a word: a word of four digits 1-9 becomes their four characters. */
const ZEROS = 0x30303030;

/** Per-thread scratch: the fast path allocates nothing per row. */
const givens = new Uint8Array(81);
// 84 bytes seen as 21 words, so a solution is turned into characters a word at a time.
const solutionWords = new Uint32Array(21);
const solution = new Uint8Array(solutionWords.buffer, 0, 81);
const search = { count: 0, guesses: 0 };

/**
 * The common row, answered without a string or an object: exactly 81 characters of `1`-`9`, `.`
 * or `0` (what the shared sets and most files hold). Only a board with a solution is answered
 * here (a board with a solution has no two equal givens in a unit, so there is nothing else to
 * report); any other row returns false and goes the general way, which names its problems.
 * Per row this is glue around the search, about a sixth of a worker's time on 17-clue rows when
 * it tested each byte and wrote the answer a byte at a time; so the bytes are mapped by a table
 * with no branch to mispredict (givens fall at random places), and the answer is copied whole.
 */
function answerPlainRow(
  bytes: Uint8Array,
  start: number,
  out: ByteWriter,
  counts: RowCounts,
  levels: number[] | undefined,
): boolean {
  let seen = 0;
  for (let i = 0; i < 81; i++) {
    const cell = CELL_OF_BYTE[bytes[start + i]!]!;
    givens[i] = cell;
    seen |= cell;
  }
  if (seen & NOT_A_CELL) return false;
  const { count } = countSolutions(givens, 2, solution, FAST_PATH_GUESSES, search);
  if (count !== 1 && count !== 2) return false;
  if (levels && count === 1) countLevel(levels, gradeRow(givens, solution).level);
  for (let w = 0; w < 21; w++) solutionWords[w]! |= ZEROS;
  out.reserve(82);
  out.bytes.set(solution, out.length);
  out.bytes[out.length + 81] = NEWLINE;
  out.length += 82;
  counts.rows++;
  counts.solved++;
  if (count === 1) counts.unique++;
  else counts.multiple++;
  return true;
}

/**
 * Where the next line starts if the line at `start` is 81 bytes long (a `\r` before its end
 * allowed), or -1: the common row is found without searching for its end.
 */
function afterPlainLength(bytes: Uint8Array, start: number): number {
  const end = start + 81;
  if (end >= bytes.length) return end === bytes.length ? end : -1;
  const c = bytes[end];
  if (c === NEWLINE) return end + 1;
  if (c !== CR) return -1;
  if (end + 1 === bytes.length) return end + 1;
  return bytes[end + 1] === NEWLINE ? end + 2 : -1;
}

/**
 * Answers every line of a batch, exactly as the line codec of its format would one line at a
 * time (same output, same tally), with a fast path for plain 81-character rows of `.txt`.
 * Pure and synchronous: the same code runs in-thread (one CPU) and in each worker thread.
 */
export function answerBatch(batch: RowBatch): BatchAnswer {
  const { bytes, format } = batch;
  const tally = new FileTally({ failureCap: Number.POSITIVE_INFINITY });
  const counts = tally.counts;
  const grade = batch.grade === true;
  const { answer = 'solution' } = batch;
  const codec =
    answer === 'solution'
      ? codecFor(format, grade)
      : answer === 'grade'
        ? createGradeCodec(format)
        : createGenerateCodec(answer);
  // The fast path counts its levels here; the general one in the tally (merged below).
  const levels = grade ? emptyLevelCounts() : undefined;
  const out = new ByteWriter(bytes.length + 1024);
  const overlong = new Set(batch.overlong);
  const txt = format === 'txt' && answer === 'solution';
  let start = 0;
  for (let index = 0; start < bytes.length; index++) {
    if (txt) {
      const after = afterPlainLength(bytes, start);
      if (after >= 0 && answerPlainRow(bytes, start, out, counts, levels)) {
        start = after;
        continue;
      }
    }
    let end = bytes.indexOf(NEWLINE, start);
    const next = end < 0 ? bytes.length : end + 1;
    if (end < 0) end = bytes.length;
    const plainEnd = bytes[end - 1] === CR ? end - 1 : end;
    let line: Line;
    if (overlong.has(index)) {
      line = OVERLONG_LINE;
    } else {
      const text = decoder.decode(bytes.subarray(start, end));
      if (text.length > batch.maxLineChars) line = OVERLONG_LINE;
      else line = plainEnd < end ? text.slice(0, -1) : text;
    }
    const answer = codec.line(line, batch.firstLine + index, tally);
    if (answer !== undefined) out.text(answer);
    start = next;
  }
  if (!levels) return { text: out.done(), counts, failures: tally.failures };
  for (let i = 0; i < levels.length; i++) levels[i]! += tally.levels[i]!;
  return { text: out.done(), counts, failures: tally.failures, levels };
}
