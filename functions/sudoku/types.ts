/** A board: 81 cells, row-major, 0 = empty, 1-9 = digit. */
export type Cells = Uint8Array;

/** The shape a caller sent a board in; answers come back in the same shape. */
export type BoardShape = 'string' | 'chars' | 'numbers';

/** What a caller may send: an 81-character string, 9x9 one-character strings, or 9x9 numbers. */
export type BoardInput = string | string[][] | number[][];

/** A board formatted back in the caller's shape. */
export type BoardOutput = string | string[][] | number[][];

/**
 * What a problem says about a board, for a caller deciding what to do with it: `malformed`, it is
 * not a board; `contradictory`, two givens break a rule; `unsolvable`, a well-formed board with no
 * single answer to give. HTTP answers the first two 400 and the last 422; files report the rows as
 * `malformed`, `contradictory` and `no-solution`.
 */
export type ProblemClass = 'malformed' | 'contradictory' | 'unsolvable';

/** Every problem code the core raises, with its class: the one list OpenAPI, HTTP and the formats read. */
export const PROBLEM_CLASS = {
  WRONG_TYPE: 'malformed',
  WRONG_LENGTH: 'malformed',
  WRONG_SHAPE: 'malformed',
  BAD_CHARACTER: 'malformed',
  DIGIT_OUT_OF_RANGE: 'malformed',
  DUPLICATE_IN_ROW: 'contradictory',
  DUPLICATE_IN_COLUMN: 'contradictory',
  DUPLICATE_IN_BOX: 'contradictory',
  NO_SOLUTION: 'unsolvable',
  MULTIPLE_SOLUTIONS: 'unsolvable',
  SEARCH_LIMIT: 'unsolvable',
  /** A graded or hinted board changed one of its puzzle's givens. */
  GIVEN_CHANGED: 'malformed',
  /** A person's entry that is not the solution's digit: the board as filled has no solution. */
  CONTRADICTS_SOLUTION: 'unsolvable',
  /** No puzzle of the level asked for was found in the attempts allowed. */
  GENERATION_LIMIT: 'unsolvable',
} as const satisfies Record<string, ProblemClass>;

export type ProblemCode = keyof typeof PROBLEM_CLASS;

/** The codes, in the order above. */
export const PROBLEM_CODES = Object.keys(PROBLEM_CLASS) as ProblemCode[];

/** Each code by its own name (`PROBLEM_CODE.SEARCH_LIMIT`), for an adapter that tests for one. */
export const PROBLEM_CODE = Object.fromEntries(PROBLEM_CODES.map((code) => [code, code])) as {
  readonly [Code in ProblemCode]: Code;
};

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
