// `sudoku grade`'s answer to a row: its grade as JSON, in place of its solution. Rows of .txt and
// .jsonl are lines (one puzzle a line in, one line out), so a file is graded by the same batches
// and solver threads that solve one (functions/parallel/), in order, on every CPU; a .json
// document's boards are graded in json-document.ts with gradeBoardRow and gradeJson.
import { formatBoardString } from '../sudoku/index.js';
import { gradePuzzle } from '../sudoku/logic/index.js';
import type { BatchFormat } from './types.js';
import type { LineCodec } from './line-codec.js';
import { OVERLONG_LINE } from './line-splitting.js';
import { readJsonLine } from './jsonl-codec.js';
import { failedRow, overlongRow } from './row-result.js';
import type { RowPlace, RowResult } from './row-result.js';
import { MAX_PROBLEMS_PER_BOARD } from './txt-codec.js';

/**
 * `{"level","score","hardest","techniques"}` for a board with exactly one solution, else its
 * place and its first MAX_PROBLEMS_PER_BOARD problems, each with the place:
 * `{"line","problems"}` (a line of .txt or .jsonl) or `{"index","problems"}` (a .json board).
 */
export function gradeJson(result: RowResult, place: RowPlace): string {
  if (result.grade) return JSON.stringify(result.grade);
  return JSON.stringify({ ...place, problems: (result.problems ?? []).slice(0, MAX_PROBLEMS_PER_BOARD) });
}

/**
 * Grades one board in any accepted shape: `gradePuzzle` (which skips the uniqueness search when
 * the techniques finish the grid), so a board without exactly one solution fails with the
 * problems `/solve` gives it.
 */
export function gradeBoardRow(board: unknown, place: RowPlace): RowResult {
  const outcome = gradePuzzle(typeof board === 'string' ? board.trim() : board);
  if (!outcome.ok) return failedRow(outcome.problems, place);
  return { status: 'unique', solution: formatBoardString(outcome.solution), grade: outcome.grade };
}

function gradeJsonLine(line: string, lineNo: number): RowResult {
  const read = readJsonLine(line, lineNo);
  return 'failed' in read ? read.failed : gradeBoardRow(read.board, { line: lineNo });
}

/**
 * One board a line in (.txt: the puzzle's text; .jsonl: a board in any accepted shape, or
 * `{"board": ...}`), its grade (or problems) as a JSON line out; a blank line stays blank.
 */
export function createGradeCodec(format: BatchFormat): LineCodec {
  return {
    line(line, lineNo, tally) {
      if (line !== OVERLONG_LINE && line.trim() === '') {
        tally.blank();
        return '';
      }
      let result: RowResult;
      if (line === OVERLONG_LINE) result = overlongRow(lineNo);
      else if (format === 'jsonl') result = gradeJsonLine(line, lineNo);
      else result = gradeBoardRow(line, { line: lineNo });
      tally.record(result);
      return gradeJson(result, { line: lineNo });
    },
    end: () => undefined,
  };
}
