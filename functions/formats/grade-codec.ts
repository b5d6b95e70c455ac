// `sudoku grade`'s answer to a line: its grade as one JSON line, in place of its solution. A line
// format like .txt (one puzzle a line in, one line out), so a file is graded by the same batches
// and solver threads that solve one (functions/parallel/), in order, on every CPU.
import { formatBoardString } from '../sudoku/index.js';
import { gradePuzzle } from '../sudoku/logic/index.js';
import type { LineCodec } from './line-codec.js';
import { OVERLONG_LINE } from './line-splitting.js';
import { failedRow, overlongRow } from './row-result.js';
import type { RowResult } from './row-result.js';
import { MAX_PROBLEMS_PER_BOARD } from './txt-codec.js';

/**
 * `{"level","score","hardest","techniques"}` for a puzzle with exactly one solution, else
 * `{"line","problems"}` with its first MAX_PROBLEMS_PER_BOARD problems, each with the line.
 */
function gradeAnswer(result: RowResult, lineNo: number): string {
  if (result.grade) return JSON.stringify(result.grade);
  return JSON.stringify({ line: lineNo, problems: (result.problems ?? []).slice(0, MAX_PROBLEMS_PER_BOARD) });
}

/**
 * Grades one line: `gradePuzzle` (which skips the uniqueness search when the techniques finish
 * the grid), so a puzzle without exactly one solution fails with the problems `/solve` gives it.
 */
function gradeLine(line: string, lineNo: number): RowResult {
  const outcome = gradePuzzle(line.trim());
  if (!outcome.ok) return failedRow(outcome.problems, { line: lineNo });
  return { status: 'unique', solution: formatBoardString(outcome.solution), grade: outcome.grade };
}

/** One puzzle a line in, its grade (or problems) as a JSON line out; a blank line stays blank. */
export function createGradeCodec(): LineCodec {
  return {
    line(line, lineNo, tally) {
      if (line === OVERLONG_LINE) {
        const result = overlongRow(lineNo);
        tally.record(result);
        return gradeAnswer(result, lineNo);
      }
      if (line.trim() === '') {
        tally.blank();
        return '';
      }
      const result = gradeLine(line, lineNo);
      tally.record(result);
      return gradeAnswer(result, lineNo);
    },
    end: () => undefined,
  };
}
