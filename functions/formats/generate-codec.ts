// `sudoku generate` as rows: each line a seed in, the puzzle generated from it out. Puzzles are
// independent of each other, so the batches and solver threads that answer a file's rows
// (functions/parallel/) make them on every CPU, and the order of the seeds is the output's.
import { generatePuzzle } from '../sudoku/logic/index.js';
import type { Level } from '../sudoku/logic/index.js';
import type { LineCodec } from './line-codec.js';
import { OVERLONG_LINE } from './line-splitting.js';
import { failedRow, overlongRow } from './row-result.js';
import type { RowResult } from './row-result.js';
import { txtAnswer } from './txt-codec.js';

/** What each seed makes: a puzzle at `generate`, half-turn symmetric when `symmetric`. */
export interface GenerateRows {
  generate: Level;
  symmetric: boolean;
  /** Attempts before a seed gives GENERATION_LIMIT (the core's default). */
  maxAttempts?: number;
}

/** A line's seed: a decimal integer as a number (taken as uint32), anything else as text (hashed). */
function seedOf(line: string): number | string {
  const text = line.trim();
  return /^\d{1,15}$/.test(text) ? Number(text) : text;
}

/**
 * One seed a line in; out, the 81-character puzzle (`.` empty) generated from it, or an
 * `error line N: GENERATION_LIMIT: ...` line when no puzzle of the level came in the attempts
 * allowed. The result's solution is the puzzle (what the line is answered with).
 */
export function createGenerateCodec(rows: GenerateRows): LineCodec {
  return {
    line(line, lineNo, tally) {
      let result: RowResult;
      if (line === OVERLONG_LINE) result = overlongRow(lineNo);
      else {
        const { generate: level, symmetric, maxAttempts } = rows;
        const made = generatePuzzle({ level, seed: seedOf(line), symmetric, ...(maxAttempts ? { maxAttempts } : {}) });
        result = made.ok ? { status: 'unique', solution: made.puzzle } : failedRow(made.problems, { line: lineNo });
      }
      tally.record(result);
      return txtAnswer(result, lineNo);
    },
    end: () => undefined,
  };
}
