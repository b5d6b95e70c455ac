import type { CellRef, Problem } from './types.js';

/** Constructors for every problem code, so messages read the same wherever they are raised. */

/**
 * More problems of one kind than this in one board is noise; the first few tell the caller what is
 * wrong. The rest are counted (`problemsTotal`), not listed, so a board of 81 bad characters or 81
 * equal digits costs no more than one with a single mistake.
 */
export const MAX_LISTED_PROBLEMS = 10;

const at = (row: number, col: number): string => `row ${row}, column ${col}`;

export const wrongType = (got: string): Problem => ({
  code: 'WRONG_TYPE',
  message: `A board must be an 81-character string or a 9x9 array of digits; got ${got}.`,
});

export const wrongLength = (got: number): Problem => ({
  code: 'WRONG_LENGTH',
  message: `A board has 81 cells; this one has ${got}. Use 1-9 for givens and '.' or '0' for empty cells.`,
});

export const wrongShape = (detail: string, row?: number): Problem => ({
  code: 'WRONG_SHAPE',
  message: `A board array must be 9 rows of 9 cells: ${detail}.`,
  ...(row === undefined ? {} : { row }),
});

export const badCharacter = (row: number, col: number, shown: string): Problem => ({
  code: 'BAD_CHARACTER',
  message: `Cell at ${at(row, col)} is ${shown}; expected a digit 1-9, or '.' or '0' for an empty cell.`,
  row,
  col,
});

export const badCharacterBeyondBoard = (position: number, shown: string): Problem => ({
  code: 'BAD_CHARACTER',
  message: `Character ${position} of the text is ${shown}, past the 81 cells of a board; expected only digits 1-9, '.' or '0', whitespace and | - +.`,
  position,
});

export const digitOutOfRange = (row: number, col: number, shown: string): Problem => ({
  code: 'DIGIT_OUT_OF_RANGE',
  message: `Cell at ${at(row, col)} is ${shown}; expected an integer from 1 to 9, or 0 for an empty cell.`,
  row,
  col,
});

export type Unit = 'row' | 'column' | 'box';

const duplicateCode = { row: 'DUPLICATE_IN_ROW', column: 'DUPLICATE_IN_COLUMN', box: 'DUPLICATE_IN_BOX' } as const;

export const duplicateGiven = (unit: Unit, digit: number, first: CellRef, second: CellRef): Problem => ({
  code: duplicateCode[unit],
  message: `Digit ${digit} is given twice in the same ${unit}: at ${at(first.row, first.col)} and at ${at(second.row, second.col)}.`,
  row: second.row,
  col: second.col,
  cells: [first, second],
});

export const noSolution = (): Problem => ({
  code: 'NO_SOLUTION',
  message: 'The givens do not break any rule on their own, but no way of filling the board satisfies them all.',
});

export const searchLimit = (guesses: number): Problem => ({
  code: 'SEARCH_LIMIT',
  message: `The search gave up after ${guesses.toLocaleString('en-US')} guesses without settling whether this board has a solution. Boards like this are extremely rare; please report it.`,
});

export const multipleSolutions = (): Problem => ({
  code: 'MULTIPLE_SOLUTIONS',
  message: 'The board has more than one solution; a proper puzzle has exactly one. Add givens to make it unique.',
});

export const givenChanged = (row: number, col: number, given: number, shown: number): Problem => ({
  code: 'GIVEN_CHANGED',
  message: `Cell at ${at(row, col)} is a given ${given} of the puzzle, but the board has ${shown === 0 ? 'it empty' : shown} there.`,
  row,
  col,
});

export const contradictsSolution = (row: number, col: number, digit: number): Problem => ({
  code: 'CONTRADICTS_SOLUTION',
  message: `The ${digit} at ${at(row, col)} is not the puzzle's solution there: every way of going on from it ends in a contradiction.`,
  row,
  col,
});

export const generationLimit = (level: string, attempts: number): Problem => ({
  code: 'GENERATION_LIMIT',
  message: `No ${level} puzzle was found in ${attempts.toLocaleString('en-US')} attempts from this seed; try another seed.`,
});
