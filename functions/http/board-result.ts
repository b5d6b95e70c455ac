import { PROBLEM_CLASS, solveBoard, type BoardOutput, type Problem, type SolveStats } from '../sudoku/index.js';
import { MAX_PROBLEMS_PER_BOARD } from './constants.js';
import { type ApiProblem, locateProblems } from './problem-location.js';

export type BoardResult =
  | { ok: true; solution: BoardOutput; unique: boolean; stats: SolveStats }
  | { ok: false; status: 400 | 422; problems: Problem[]; problemsTotal: number; micros: number };

/**
 * The first MAX_PROBLEMS_PER_BOARD problems of a board, and how many there are in all: the core
 * counts what it does not list (a string of 100,000 bad characters lists 10 and counts 100,000).
 */
export function listedProblems<P extends Problem>(result: {
  problems: readonly P[];
  problemsTotal: number;
}): {
  problems: P[];
  problemsTotal: number;
} {
  return {
    problems: result.problems.slice(0, MAX_PROBLEMS_PER_BOARD),
    problemsTotal: Math.max(result.problemsTotal, result.problems.length),
  };
}

/** Solve one board from a request and classify a failure as 400 (invalid) or 422 (every problem `unsolvable`). */
export function solveRequestBoard(input: unknown, maxGuesses?: number): BoardResult {
  const outcome = solveBoard(input, maxGuesses === undefined ? {} : { maxGuesses });
  if (outcome.ok) {
    return { ok: true, solution: outcome.solution, unique: outcome.unique === true, stats: outcome.stats };
  }
  const unsolvable =
    outcome.problems.length > 0 && outcome.problems.every((p) => PROBLEM_CLASS[p.code] === 'unsolvable');
  return {
    ok: false,
    status: unsolvable ? 422 : 400,
    problems: outcome.problems,
    problemsTotal: outcome.problemsTotal,
    micros: outcome.stats?.micros ?? 0,
  };
}

/** One board of a batch that failed: its place in the batch, its status and its problems (counted in full). */
export interface FailedBoardItem {
  index: number;
  status: 400 | 422;
  problems: ApiProblem[];
  problemsTotal: number;
}

/** The result of `boards[index]` that failed, its first problems pointing into it (`/boards/3/...`). */
export function failedBoardItem(
  index: number,
  board: unknown,
  failure: { status: 400 | 422; problems: readonly Problem[]; problemsTotal: number },
): FailedBoardItem {
  const listed = listedProblems(failure);
  return {
    index,
    status: failure.status,
    problems: locateProblems(listed.problems, `/boards/${index}`, board).map((p) => ({ ...p, index })),
    problemsTotal: listed.problemsTotal,
  };
}
