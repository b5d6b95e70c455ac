import { type BoardOutput, parseBoard, type Problem, solveParsed } from '../sudoku/index.js';
import type { Grade, gradeCells } from '../sudoku/logic/index.js';
import { failureStatus } from './board-failure.js';

export type GradeResult =
  | { ok: true; grade: Grade; solution: BoardOutput; unique: true }
  | { ok: false; status: 400 | 422; problems: Problem[]; problemsTotal: number };

/**
 * Grade one board of a request: parsed and checked as /solve does, then the fast search (bounded
 * by the request's guess allowance, as /solve's) settles that it has exactly one solution, and only
 * then the logical solver (`grade`, loaded by the route on first use) grades it. Never throws.
 */
export function gradeRequestBoard(input: unknown, maxGuesses: number, grade: typeof gradeCells): GradeResult {
  const parsed = parseBoard(input);
  if (!parsed.ok) return { ok: false, status: 400, problems: parsed.problems, problemsTotal: parsed.problemsTotal };
  const solved = solveParsed(parsed.board, { rejectMultiple: true, maxGuesses });
  if (!solved.ok)
    return {
      ok: false,
      status: failureStatus(solved.problems),
      problems: solved.problems,
      problemsTotal: solved.problemsTotal,
    };
  return { ok: true, grade: grade(parsed.board.cells, solved.cells), solution: solved.solution, unique: true };
}
