import type { Problem } from '../sudoku/index.js';

/**
 * A problem as the API answers it: the core's problem (its `row`/`col`, `cells`, `position` kept)
 * and where it sits in the request, in a field a program can follow without reading the message.
 * A body's value is named by a JSON pointer (RFC 6901, as RFC 9457's own example does), a query's by
 * its parameter name, as JSON:API's `source.pointer` and `source.parameter` do. One of the two is
 * always there, so a whole-board problem (WRONG_LENGTH, NO_SOLUTION, ...) has a place too.
 */
export type ApiProblem = Problem & ({ pointer: string; parameter?: never } | { parameter: string; pointer?: never });

/**
 * The problems of the board found at `pointer` in the body, each pointing at the deepest value it is
 * about that the sent board has: a cell of a 9x9 array (`/board/3/6`, 0-based as pointers count),
 * a row of it (`/board/3`), or the board itself. A pointer cannot reach into a string, so a string
 * board's cell problems point at the string, and `row`/`col` or `position` place them inside it.
 */
export function locateProblems(problems: readonly Problem[], pointer: string, board: unknown): ApiProblem[] {
  return problems.map((problem) => ({ ...problem, pointer: pointerTo(problem, pointer, board) }));
}

/** The problems of a query, all about one parameter. */
export function locateInQuery(problems: readonly Problem[], parameter: string): ApiProblem[] {
  return problems.map((problem) => ({ ...problem, parameter }));
}

function pointerTo(problem: Problem, pointer: string, board: unknown): string {
  if (problem.row === undefined || !Array.isArray(board) || problem.row > board.length) return pointer;
  const rowPointer = `${pointer}/${problem.row - 1}`;
  const row: unknown = board[problem.row - 1];
  if (problem.col === undefined || !Array.isArray(row) || problem.col > row.length) return rowPointer;
  return `${rowPointer}/${problem.col - 1}`;
}
