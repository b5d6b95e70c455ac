// Grading in the file path: the level histogram a report carries, and the grade of one row.
// Files grade only when their caller asks (the S3 pipeline does; `sudoku solve` does not, so its
// output and speed are unchanged): a grade costs ~40 µs a 17-clue row against ~3 µs to solve it.
import { type Grade, gradeCells, LEVELS, type Level } from '../sudoku/logic/index.js';

/** Rows graded at each level, indexed as LEVELS. */
export type LevelCounts = number[];

export function emptyLevelCounts(): LevelCounts {
  return LEVELS.map(() => 0);
}

export function countLevel(counts: LevelCounts, level: Level): void {
  counts[LEVELS.indexOf(level)]!++;
}

export function addLevelCounts(into: LevelCounts, from: readonly number[]): void {
  for (let i = 0; i < into.length; i++) into[i]! += from[i] ?? 0;
}

/** `{easy: n, medium: n, ...}`, every level present, for a report. */
export function levelHistogram(counts: readonly number[]): Record<Level, number> {
  return Object.fromEntries(LEVELS.map((level, i) => [level, counts[i] ?? 0])) as Record<Level, number>;
}

/** The grade of a row already known to have exactly one solution. */
export function gradeRow(givens: ArrayLike<number>, solution: ArrayLike<number>): Grade {
  return gradeCells(givens, solution);
}
