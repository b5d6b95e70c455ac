import { type FailedBoardItem, failedBoardItem } from './board-result.js';
import type { Grade, gradeCells } from '../sudoku/logic/index.js';
import { routeKey } from '../contract/api-routes.js';
import type { BoardOutput } from '../sudoku/index.js';
import { boardFailure } from './board-failure.js';
import { locateProblems } from './problem-location.js';
import { boardsArray, checkBoardCount } from './board-count.js';
import { gradeRequestBoard } from './grade-board.js';
import { readJsonObject } from './json-body.js';
import { ClientError } from './problems.js';
import { jsonResponse } from './responses.js';
import type { SolveBudget } from './solve-budget.js';
import type { HttpRequest, HttpResponse } from './types.js';

export interface GradeResponse {
  grade: Grade;
  solution: BoardOutput;
  unique: true;
}

export type GradeItem = ({ index: number } & GradeResponse) | FailedBoardItem;

export interface GradesResponse {
  results: GradeItem[];
  graded: number;
  failed: number;
}

/**
 * Time kept back from the request's budget before a batch starts another board. One grade cannot
 * be interrupted, and the slowest single grades measured take ~80 ms (top1465 and forum-hardest
 * puzzles that need long chains, on a loaded x86 core; a 17-clue puzzle averages ~40 µs); keeping
 * 100 ms back ends a batch inside the budget instead of one slow board past it.
 */
export const GRADE_RESERVE_MS = 100;

const SHAPE = '{"board": B} or {"boards": [B, ...]}';

/** POST /grade: `{"board": B}` or `{"boards": [...]}`, each graded by the techniques it needs. */
export async function gradeRoute(request: HttpRequest, budget: SolveBudget): Promise<HttpResponse> {
  const body = readJsonObject(request, routeKey('grade'), SHAPE);
  const hasBoard = Object.hasOwn(body, 'board');
  const hasBoards = Object.hasOwn(body, 'boards');
  if (hasBoard && hasBoards) {
    throw new ClientError('invalidRequest', 'Send either "board" (one board) or "boards" (a list), not both.');
  }
  if (!hasBoard && !hasBoards) {
    throw new ClientError('invalidRequest', `The body has no "board" or "boards" member; send ${SHAPE}.`);
  }
  const { gradeCells } = await import('../sudoku/logic/grade.js');
  if (hasBoard) return gradeOne(body.board, budget, gradeCells);
  return gradeMany(body.boards, budget.shortenedBy(GRADE_RESERVE_MS), gradeCells);
}

function gradeOne(board: unknown, budget: SolveBudget, grade: typeof gradeCells): HttpResponse {
  const result = gradeRequestBoard(board, budget.guessAllowance(), grade);
  if (!result.ok) throw boardFailure(locateProblems(result.problems, '/board', board), result.problemsTotal);
  const answer: GradeResponse = { grade: result.grade, solution: result.solution, unique: true };
  return jsonResponse(200, answer);
}

function gradeMany(boards: unknown, budget: SolveBudget, grade: typeof gradeCells): HttpResponse {
  if (!Array.isArray(boards)) throw new ClientError('invalidRequest', `"boards" must be an array; send ${SHAPE}.`);
  checkBoardCount(boards.length, boardsArray);
  const results: GradeItem[] = [];
  let graded = 0;
  for (let index = 0; index < boards.length; index++) {
    if (index > 0) budget.check(index, boards.length, 'grading');
    const result = gradeRequestBoard(boards[index], budget.guessAllowance(), grade);
    if (result.ok) {
      graded++;
      results.push({ index, grade: result.grade, solution: result.solution, unique: true });
    } else results.push(failedBoardItem(index, boards[index], result));
  }
  const answer: GradesResponse = { results, graded, failed: boards.length - graded };
  return jsonResponse(200, answer);
}
