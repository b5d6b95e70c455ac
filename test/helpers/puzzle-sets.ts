import { fixtureSets, type TdokuVector } from '../../bench/puzzle-sets.js';

// Tests read the committed samples only (test/fixtures/puzzles): a clone passes with nothing
// beside it. The full sets are the benchmark's (bench/puzzle-sets.ts).
export { BENCH_SETS, cycled, type TdokuVector } from '../../bench/puzzle-sets.js';

/** The fixtures' folder, for a command that reads a set by its file name. */
export const puzzlesDir: string = fixtureSets.dir;

/** One 81-character puzzle a line, as in every `puzzles*` file and `norvig_top95`. */
export const readPuzzleSet = (name: string): string[] => fixtureSets.read(name);

/** tdoku's test vectors: `puzzle:count[:solution]`. */
export const readTdokuVectors = (): TdokuVector[] => fixtureSets.tdokuVectors();
