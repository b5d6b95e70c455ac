import { MAX_BOARDS } from './constants.js';
import { ClientError } from './problems.js';

/**
 * Refuses a request of more than MAX_BOARDS boards with 413 too-many-boards, worded the same by
 * every route that takes many (`POST /solve` as JSON or text, `POST /grade`): `counted` says how
 * the request holds them, e.g. `"boards" holds 1001 boards`.
 */
export function checkBoardCount(count: number, counted: (count: number) => string): void {
  if (count <= MAX_BOARDS) return;
  throw new ClientError(
    'tooManyBoards',
    `${counted(count)}; the limit is ${MAX_BOARDS} per request. Split them over several requests.`,
    { limit: MAX_BOARDS },
  );
}

/** How a JSON body's `boards` array is counted in the answer. */
export const boardsArray = (count: number): string => `"boards" holds ${count} boards`;
