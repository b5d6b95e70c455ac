import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shared puzzle sets live beside the repository (../shared/puzzles); never copied into it. */
export const puzzlesDir =
  process.env.SUDOKU_PUZZLES_DIR ??
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'puzzles');

/** One 81-character puzzle a line, as in every `puzzles*` file and `norvig_top95`. */
export function readPuzzleSet(name: string): string[] {
  return readFileSync(path.join(puzzlesDir, name), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

export interface TdokuVector {
  puzzle: string;
  count: number;
  solution?: string;
}

/** tdoku's test vectors: `puzzle:count[:solution]`. */
export function readTdokuVectors(): TdokuVector[] {
  return readPuzzleSet('tdoku_test_puzzles').map((line) => {
    const [puzzle, count, solution] = line.split(':');
    return { puzzle: puzzle!, count: Number(count), ...(solution ? { solution } : {}) };
  });
}

/** Sets in difficulty order, as the benchmark reports them. */
export const BENCH_SETS = [
  'puzzles2_17_clue',
  'puzzles3_magictour_top1465',
  'puzzles5_forum_hardest_1905_11+',
  'puzzles6_forum_hardest_1106',
  'puzzles7_serg_benchmark',
  'norvig_top95',
] as const;
