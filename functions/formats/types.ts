import type { Problem, ProblemCode } from '../sudoku/index.js';

/** The puzzle file formats, chosen by file extension. */
export type FileFormat = 'txt' | 'csv' | 'jsonl' | 'json';

/** The line formats whose rows are independent of each other, so any run of lines can be answered alone. */
export type BatchFormat = 'txt' | 'jsonl';

/** What a file name says about its content: the format, and whether it is gzipped on top. */
export interface FileKind {
  format: FileFormat;
  gzip: boolean;
}

/** Row-level problems that only exist in files (a row that is not even a board). */
export type RowFormatCode = 'MALFORMED_JSON' | 'MALFORMED_CSV_ROW' | 'MISSING_PUZZLE_FIELD' | 'LINE_TOO_LONG';

/**
 * One thing wrong with one row of a file. `line` is the 1-based line of a line-based file
 * (txt, csv, jsonl); `index` is the 0-based position of the board in a .json file.
 */
export interface RowProblem extends Omit<Problem, 'code'> {
  code: ProblemCode | RowFormatCode;
}

/**
 * How one row ended. `unique` and `multiple` are solved rows; `contradictory` means two equal
 * givens in a unit; `malformed` means the row is not a board at all.
 */
export type RowStatus = 'unique' | 'multiple' | 'no-solution' | 'contradictory' | 'malformed';

/** A failed row as listed in reports and on the CLI's stderr. */
export interface RowFailure {
  status: Exclude<RowStatus, 'unique' | 'multiple'>;
  /** The first problem of the row, with its place (line or index, and cell when it has one). */
  problem: RowProblem;
  /** All problems of the row beyond the first. */
  more: number;
}

/** Counts of one file's rows, by outcome. Blank lines are kept in the output and counted apart. */
export interface RowCounts {
  rows: number;
  blank: number;
  solved: number;
  unique: number;
  multiple: number;
  noSolution: number;
  contradictory: number;
  malformed: number;
}
