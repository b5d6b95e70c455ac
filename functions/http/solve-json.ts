import { recordSolves } from '../observability/powertools.js';
import type { BoardOutput, SolveStats } from '../sudoku/index.js';
import { boardFailure } from './board-failure.js';
import { type FailedBoardItem, failedBoardItem, solveRequestBoard } from './board-result.js';
import { locateProblems } from './problem-location.js';
import { ClientError } from './problems.js';
import { boardsArray, checkBoardCount } from './board-count.js';
import type { SolveBudget } from './solve-budget.js';
import { parseJsonObject } from './json-body.js';
import { jsonResponse } from './responses.js';
import type { HttpResponse } from './types.js';

export interface SolveResponse {
  solution: BoardOutput;
  unique: boolean;
  stats: SolveStats;
}

export type BoardsItem = ({ index: number } & SolveResponse) | FailedBoardItem;

export interface BoardsResponse {
  results: BoardsItem[];
  solved: number;
  failed: number;
}

const SHAPES_HINT =
  'a board is an 81-character string, a 9x9 array of one-character strings, or a 9x9 array of numbers';

/** POST /solve with a JSON body: `{"board": B}` or `{"boards": [B, ...]}`. */
export function solveJsonBody(text: string, budget: SolveBudget): HttpResponse {
  const body = parseJsonObject(
    text,
    `The body must be a JSON object {"board": ...} or {"boards": [...]}; ${SHAPES_HINT}.`,
  );
  const hasBoard = Object.hasOwn(body, 'board');
  const hasBoards = Object.hasOwn(body, 'boards');
  if (hasBoard && hasBoards) {
    throw new ClientError('invalidRequest', 'Send either "board" (one board) or "boards" (a list), not both.');
  }
  if (hasBoard) return solveOne((body as { board: unknown }).board, budget);
  if (hasBoards) return solveMany((body as { boards: unknown }).boards, budget);
  throw new ClientError('invalidRequest', `The body has no "board" or "boards" member; ${SHAPES_HINT}.`);
}

function solveOne(board: unknown, budget: SolveBudget): HttpResponse {
  const result = solveRequestBoard(board, budget.guessAllowance());
  if (!result.ok) {
    recordSolves(0, 1, result.micros);
    throw boardFailure(locateProblems(result.problems, '/board', board), result.problemsTotal);
  }
  recordSolves(1, 0, result.stats.micros);
  const answer: SolveResponse = { solution: result.solution, unique: result.unique, stats: result.stats };
  return jsonResponse(200, answer);
}

function solveMany(boards: unknown, budget: SolveBudget): HttpResponse {
  if (!Array.isArray(boards)) {
    throw new ClientError('invalidRequest', `"boards" must be an array of boards; ${SHAPES_HINT}.`);
  }
  checkBoardCount(boards.length, boardsArray);
  const results: BoardsItem[] = [];
  let solved = 0;
  let micros = 0;
  try {
    for (let index = 0; index < boards.length; index++) {
      if (index > 0) budget.check(index, boards.length);
      const result = solveRequestBoard(boards[index], budget.guessAllowance());
      if (result.ok) {
        solved++;
        micros += result.stats.micros;
        results.push({ index, solution: result.solution, unique: result.unique, stats: result.stats });
      } else {
        micros += result.micros;
        results.push(failedBoardItem(index, boards[index], result));
      }
    }
  } finally {
    // Also when the time budget stops the request: the boards solved so far were work done.
    recordSolves(solved, results.length - solved, micros);
  }
  const failed = boards.length - solved;
  const answer: BoardsResponse = { results, solved, failed };
  return jsonResponse(200, answer);
}
