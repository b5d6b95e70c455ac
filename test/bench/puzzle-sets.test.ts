// Where the benchmark finds the full puzzle sets (they are not in the repository), and what it
// says when they are not there; and the tests' fixtures, the same names in the repository.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BENCH_SETS,
  cycled,
  DEFAULT_FULL_SETS_DIR,
  FIXTURES_DIR,
  fullPuzzleSets,
  PUZZLES_DIR_ENV,
  PuzzleSetsMissingError,
  puzzleSetsIn,
  TDOKU_VECTORS,
} from '../../bench/puzzle-sets.js';

/** A folder holding `names`, each with one puzzle line. */
function folderWith(names: readonly string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-sets-'));
  for (const name of names) writeFileSync(path.join(dir, name), `${'.'.repeat(81)}\n`);
  return dir;
}

const ALL = [...BENCH_SETS, TDOKU_VECTORS];

describe('the full sets of npm run bench', () => {
  it('come from --puzzles DIR (or --puzzles=DIR) first, then the environment variable', () => {
    const byOption = folderWith(ALL);
    const byEnv = folderWith(ALL);
    const env = { [PUZZLES_DIR_ENV]: byEnv };
    expect(fullPuzzleSets(['solver', '--puzzles', byOption], env).dir).toBe(byOption);
    expect(fullPuzzleSets([`--puzzles=${byOption}`], env).dir).toBe(byOption);
    expect(fullPuzzleSets(['solver'], env).dir).toBe(byEnv);
    expect(fullPuzzleSets(['solver'], env).read('norvig_top95')).toEqual(['.'.repeat(81)]);
  });

  it('default to ../shared/puzzles beside the repository', () => {
    expect(DEFAULT_FULL_SETS_DIR).toBe(path.resolve(FIXTURES_DIR, '..', '..', '..', '..', 'shared', 'puzzles'));
  });

  it('when missing, stop the run naming the folder, every set it lacks, and how to point at the sets', () => {
    const partial = folderWith(['norvig_top95']);
    let thrown: unknown;
    try {
      fullPuzzleSets([], { [PUZZLES_DIR_ENV]: partial });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PuzzleSetsMissingError);
    const error = thrown as PuzzleSetsMissingError;
    expect(error.code).toBe('PUZZLE_SETS_MISSING');
    expect(error.missing).toEqual(ALL.filter((name) => name !== 'norvig_top95'));
    expect(error.message).toContain(partial);
    expect(error.message).toContain('npm run bench -- --puzzles DIR');
    expect(error.message).toContain(`${PUZZLES_DIR_ENV}=DIR`);
  });
});

describe("the tests' fixtures", () => {
  it('hold every set the bench measures, tdoku vectors with 0, 1 and several solutions, within a few hundred KB', () => {
    const fixtures = puzzleSetsIn(FIXTURES_DIR);
    for (const name of BENCH_SETS) expect(fixtures.read(name).length, name).toBeGreaterThan(90);
    const counts = new Set(fixtures.tdokuVectors().map((v) => Math.min(v.count, 2)));
    expect(counts).toEqual(new Set([0, 1, 2]));
    const bytes = ALL.reduce((sum, name) => sum + fixtures.read(name).join('\n').length, 0);
    expect(bytes).toBeLessThan(400_000);
  });

  it('are repeated round-robin when a test needs more rows than a sample has', () => {
    expect(cycled(['a', 'b', 'c'], 7)).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a']);
  });
});
