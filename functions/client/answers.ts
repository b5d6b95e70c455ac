/**
 * What an answer of the API becomes: the error it is (the function's problem document, API
 * Gateway's own `{"message"}`, or something else), and a batch's results numbered as in the whole
 * list the client was given.
 */
import { MAX_BODY_BYTES } from '../contract/api-limits.js';
import { errorLine } from '../formats/error-line.js';
import { PROBLEM_CODE } from '../sudoku/types.js';
import type { BoardsItem, BoardsItemFailed, GradesItem, ProblemDetails } from './api-types.js';
import { SudokuHttpError, SudokuProblemError } from './errors.js';

/** What came back from one request, read. */
export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * The error an answer that is not 2xx is: the function's problem document, or another's answer
 * (with the wait it asked for, when the client stopped rather than wait that long).
 */
export function answerError(route: string, answer: Answer, attempts: number, retryAfterMs?: number): Error {
  if (/^application\/problem\+json\b/i.test(answer.contentType)) {
    try {
      return new SudokuProblemError(route, answer.status, JSON.parse(answer.text) as ProblemDetails);
    } catch {
      // Not JSON after all: reported as the unexpected answer it is, below.
    }
  }
  const gateway = gatewayMessage(answer);
  return gateway === undefined
    ? new SudokuHttpError(route, answer.status, answer.text.slice(0, 200), 'unexpected-answer', attempts, retryAfterMs)
    : new SudokuHttpError(route, answer.status, gateway, 'gateway-answer', attempts, retryAfterMs);
}

/** API Gateway's `{"message": "..."}`, when the answer is one. */
function gatewayMessage(answer: Answer): string | undefined {
  if (!/json/i.test(answer.contentType)) return undefined;
  try {
    const body = JSON.parse(answer.text) as { message?: unknown };
    return typeof body?.message === 'string' ? body.message : undefined;
  } catch {
    return undefined;
  }
}

export function unreadable(route: string, answer: Answer, why: string): SudokuHttpError {
  return new SudokuHttpError(route, answer.status, `${why}: ${answer.text.slice(0, 200)}`, 'unexpected-answer', 1);
}

function tooLarge(bytes: number, what: 'board' | 'line'): string {
  return `this ${what} is ${bytes} bytes, over the ${MAX_BODY_BYTES} bytes of a whole request: not a puzzle`;
}

/** A text/plain line no request can carry, answered as the API answers a line that is not a puzzle. */
export function oversizedLine(index: number, bytes: number): string {
  return errorLine(index + 1, `${PROBLEM_CODE.WRONG_LENGTH}: ${tooLarge(bytes, 'line')}`);
}

/** A board no request can carry, answered as the API answers a malformed board of a batch. */
export function oversizedBoard(index: number, bytes: number): BoardsItemFailed {
  const message = `${tooLarge(bytes, 'board')}.`;
  return {
    index,
    status: 400,
    problems: [{ code: PROBLEM_CODE.WRONG_LENGTH, message, pointer: `/boards/${index}`, index }],
    problemsTotal: 1,
  };
}

/** A result of a request that began at item `offset`, numbered as in the whole list. */
export function renumbered<R extends BoardsItem | GradesItem>(item: R, offset: number): R {
  if (offset === 0) return item;
  const index = item.index + offset;
  if (!('problems' in item)) return { ...item, index };
  const problems = item.problems.map((problem) => ({
    ...problem,
    ...(problem.index === undefined ? {} : { index: problem.index + offset }),
    ...(problem.pointer === undefined
      ? {}
      : { pointer: problem.pointer.replace(/^\/boards\/\d+/, `/boards/${index}`) }),
  })) as BoardsItemFailed['problems'];
  return { ...item, index, problems };
}
