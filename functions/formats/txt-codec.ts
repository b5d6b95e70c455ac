import { MAX_LISTED_PROBLEMS } from '../sudoku/index.js';
import { errorLine } from './error-line.js';
import { OVERLONG_LINE } from './line-splitting.js';
import type { LineCodec } from './line-codec.js';
import { overlongRow } from './row-result.js';
import { solveRow } from './row-result.js';
import type { RowResult } from './row-result.js';
import type { RowGrader } from './row-grade.js';

/**
 * Problems listed per board, in an HTTP problem document and on a `.txt` error line; the rest are
 * counted. The core's own cap: it lists no more than this of a board's bad characters or conflicts.
 */
export const MAX_PROBLEMS_PER_BOARD = MAX_LISTED_PROBLEMS;

/**
 * A failed row in a .txt output (a file or an HTTP text/plain answer):
 * `error line N: CODE: message[; CODE: message][; and K more problems]`, the first
 * MAX_PROBLEMS_PER_BOARD problems with the rest counted (all of them: `problemsTotal` counts the
 * bad characters the core does not list). It starts with a word, so it can never be
 * mistaken for a grid.
 */
export function txtAnswer(result: RowResult, lineNo: number): string {
  if (!result.problems) return result.solution as string;
  const listed = result.problems.slice(0, MAX_PROBLEMS_PER_BOARD);
  const more = result.problemsTotal - listed.length;
  const text = listed.map((p) => `${p.code}: ${p.message.replace(/\.$/, '')}`).join('; ');
  return errorLine(lineNo, `${text}${more > 0 ? `; and ${more} more problems` : ''}`);
}

export interface TxtCodecOptions {
  /** Also grade each row with one solution, with this grader (files whose source asks for it; row-grade.ts). */
  grade?: RowGrader | undefined;
  /**
   * The guesses the next row may search before it gives up with SEARCH_LIMIT, asked before each
   * row (the HTTP route's time budget); the core's own limit by default.
   */
  maxGuesses?: () => number;
}

/** `.txt`: one puzzle a line in; the 81-digit solution, or an `error line N: ...` line (`txtAnswer`), a line out. */
export function createTxtCodec(options: TxtCodecOptions = {}): LineCodec {
  const { grade } = options;
  return {
    line(line, lineNo, tally) {
      if (line === OVERLONG_LINE) {
        const result = overlongRow(lineNo);
        tally.record(result);
        return txtAnswer(result, lineNo);
      }
      if (line.trim() === '') {
        tally.blank();
        return '';
      }
      const result = solveRow(line, { line: lineNo }, { grade, maxGuesses: options.maxGuesses?.() });
      tally.record(result);
      return txtAnswer(result, lineNo);
    },
    end: () => undefined,
  };
}
