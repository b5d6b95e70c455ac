import { PROBLEM_CLASS, parseBoard, solveBoard, solveParsed } from '../sudoku/index.js';
import type { BoardOutput, Problem, ProblemCode } from '../sudoku/index.js';
import type { Grade } from '../sudoku/logic/index.js';
import type { RowGrader } from './row-grade.js';
import type { RowProblem, RowStatus } from './types.js';
import { MAX_LINE_CHARS } from './line-splitting.js';

/** Where a row sits in its file: a 1-based line (line formats) or a 0-based index (.json). */
export type RowPlace = { line: number } | { index: number };

/** The answer to one row: a solution in the shape the row was given in, or its problems. */
export type RowResult =
  | { status: 'unique' | 'multiple'; solution: BoardOutput; problems?: undefined; grade?: Grade }
  | {
      status: Exclude<RowStatus, 'unique' | 'multiple'>;
      solution?: undefined;
      problems: RowProblem[];
      /** All the row's problems, listed or not (the core lists the first bad characters and counts the rest). */
      problemsTotal: number;
      grade?: undefined;
    };

/** A row's status from its first problem: the core's class for its codes, `malformed` for the formats' own. */
function statusOf(problem: RowProblem): Exclude<RowStatus, 'unique' | 'multiple'> {
  const problemClass = Object.hasOwn(PROBLEM_CLASS, problem.code)
    ? PROBLEM_CLASS[problem.code as ProblemCode]
    : 'malformed';
  // SEARCH_LIMIT is 'no-solution' too: none was found within the search limit; the code says which.
  return problemClass === 'unsolvable' ? 'no-solution' : problemClass;
}

/** A row that failed for the given problems, each stamped with the row's place. */
export function failedRow(
  problems: readonly (Problem | RowProblem)[],
  place: RowPlace,
  problemsTotal: number = problems.length,
): RowResult {
  const placed = problems.map((p) => ({ ...p, ...place }));
  return { status: statusOf(placed[0]!), problems: placed, problemsTotal: Math.max(problemsTotal, placed.length) };
}

export interface SolveRowOptions {
  /** Also grade a row with one solution, with this grader (opt-in: 8-12x the solving; row-grade.ts). */
  grade?: RowGrader | undefined;
  /** Give up (SEARCH_LIMIT) after this many guesses; the core's limit by default. */
  maxGuesses?: number;
}

/**
 * Solve one board of a file, counting to two solutions so reports can tell unique from multiple;
 * with `grade`, a unique one is also graded by the techniques it needs; `maxGuesses` bounds its
 * search (the core's limit by default). Never throws.
 */
export function solveRow(input: unknown, place: RowPlace, options: SolveRowOptions = {}): RowResult {
  const { grade, maxGuesses } = options;
  const solveOptions = maxGuesses === undefined ? { checkUnique: true } : { checkUnique: true, maxGuesses };
  if (!grade) {
    // The search's own fast path for text rows; the givens are only needed for a grade.
    const outcome = solveBoard(input, solveOptions);
    if (!outcome.ok) return failedRow(outcome.problems, place, outcome.problemsTotal);
    return { status: outcome.unique === false ? 'multiple' : 'unique', solution: outcome.solution };
  }
  const parsed = parseBoard(input);
  if (!parsed.ok) return failedRow(parsed.problems, place, parsed.problemsTotal);
  const outcome = solveParsed(parsed.board, solveOptions);
  if (!outcome.ok) return failedRow(outcome.problems, place, outcome.problemsTotal);
  if (outcome.unique === false) return { status: 'multiple', solution: outcome.solution };
  return { status: 'unique', solution: outcome.solution, grade: grade(parsed.board.cells, outcome.cells) };
}

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
