// The level histogram a report carries: rows graded at each level, counted as the rows go by.
import { LEVELS, type Level } from '../sudoku/logic/names.js';

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
