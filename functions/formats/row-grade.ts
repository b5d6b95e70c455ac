// The grade of one row in the file path. Files grade only when their caller asks (the S3 pipeline
// does; `sudoku solve` does not, so its output and speed are unchanged): a grade costs ~40 µs a
// 17-clue row against ~3 µs to solve it. The codecs that may grade take it as a `RowGrader`, so
// the text codec behind POST /solve (which never grades) does not load the logical solver: the HTTP
// function's cold start reads it only when /grade, /hint or /puzzle first asks.
import { type Grade, gradeCells } from '../sudoku/logic/grade.js';

/** Grades a row already known to have exactly one solution. */
export type RowGrader = (givens: ArrayLike<number>, solution: ArrayLike<number>) => Grade;

/** The grade of a row already known to have exactly one solution. */
export const gradeRow: RowGrader = gradeCells;
