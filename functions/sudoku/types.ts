/** A board: 81 cells, row-major, 0 = empty, 1-9 = digit. */
export type Cells = Uint8Array;

/** The shape a caller sent a board in; answers come back in the same shape. */
export type BoardShape = 'string' | 'chars' | 'numbers';

/** What a caller may send: an 81-character string, 9x9 one-character strings, or 9x9 numbers. */
export type BoardInput = string | string[][] | number[][];

/** A board formatted back in the caller's shape. */
export type BoardOutput = string | string[][] | number[][];

export type ProblemCode =
  | 'WRONG_TYPE'
  | 'WRONG_LENGTH'
  | 'WRONG_SHAPE'
  | 'BAD_CHARACTER'
  | 'DIGIT_OUT_OF_RANGE'
  | 'DUPLICATE_IN_ROW'
  | 'DUPLICATE_IN_COLUMN'
  | 'DUPLICATE_IN_BOX'
  | 'NO_SOLUTION'
  | 'MULTIPLE_SOLUTIONS'
  | 'SEARCH_LIMIT'
  | 'GIVEN_CHANGED'
  | 'CONTRADICTS_SOLUTION'
  | 'GENERATION_LIMIT';

/** A cell named by 1-based row and column, as a person counts them. */
export interface CellRef {
  row: number;
  col: number;
}

/**
 * One thing wrong with a board, with where it is. Rows and columns are 1-based.
 * Adapters add `line` (files, text bodies) or `index` (batches) to say which board.
 */
export interface Problem {
  code: ProblemCode;
  message: string;
  row?: number;
  col?: number;
  /** Both cells of a repeated given. */
  cells?: CellRef[];
  /** 1-based character of a board string where no cell is (a character past the 81st cell). */
  position?: number;
  line?: number;
  index?: number;
}

export interface ParsedBoard {
  cells: Cells;
  shape: BoardShape;
}

/**
 * A failure lists its first problems (at most MAX_LISTED_PROBLEMS of one kind, so a 100,000-character
 * string costs no more than a short one) and counts them all in `problemsTotal`.
 */
export type ParseResult = { ok: true; board: ParsedBoard } | { ok: false; problems: Problem[]; problemsTotal: number };

export interface SolveStats {
  /** Branching decisions the search made (0 = solved by propagation alone). */
  guesses: number;
  /** Wall time of the search in microseconds. */
  micros: number;
}

export interface SolveOptions {
  /**
   * Keep searching for a second solution to tell whether the solution is unique.
   * Default true: it costs well under a millisecond even on the hardest known puzzles.
   */
  checkUnique?: boolean;
  /** Report a board with more than one solution as MULTIPLE_SOLUTIONS instead of answering it. */
  rejectMultiple?: boolean;
  /** Give up (SEARCH_LIMIT) after this many guesses; default MAX_GUESSES, about 5 s of search. */
  maxGuesses?: number;
}

export type SolveOutcome =
  | {
      ok: true;
      /** The solution in the caller's shape. */
      solution: BoardOutput;
      cells: Cells;
      /** true: exactly one solution; false: more than one; undefined: not checked. */
      unique: boolean | undefined;
      stats: SolveStats;
    }
  | { ok: false; problems: Problem[]; problemsTotal: number; stats?: SolveStats };
