// The generator's unavoidable sets: each one found really has a second solution when emptied,
// and a removal they answer is one the search would also refuse. Grids are the solutions of
// shared puzzles and random carves of them, so the sets are those the generator meets.
import { describe, expect, it } from 'vitest';
import { countSolutions } from '../../functions/sudoku/index.js';
import { UnavoidableSets } from '../../functions/sudoku/logic/unavoidable.js';
import { mulberry32, shuffle } from '../../functions/sudoku/logic/random.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { cellsOf } from '../helpers/boards.js';

const count = (cells: Uint8Array) => countSolutions(cells, 2, new Uint8Array(81)).count;

function solutionsOf(set: string, n: number): Uint8Array[] {
  return readPuzzleSet(set)
    .slice(0, n)
    .map((line) => {
      const out = new Uint8Array(81);
      countSolutions(cellsOf(line), 1, out);
      return out;
    });
}

const grids = [...solutionsOf('puzzles2_17_clue', 40), ...solutionsOf('puzzles5_forum_hardest_1905_11+', 20)];

/** The three band masks of a puzzle's givens, unavoidable.ts's layout. */
function bandsOf(cells: Uint8Array): Int32Array {
  const bands = new Int32Array(3);
  for (let c = 0; c < 81; c++) if (cells[c]) bands[(c / 27) | 0]! |= 1 << (c % 27);
  return bands;
}

describe('UnavoidableSets', () => {
  it('finds only sets that, emptied, leave the grid a second solution', () => {
    const sets = new UnavoidableSets();
    let found = 0;
    for (const grid of grids) {
      sets.load(grid);
      for (const cells of sets.sets()) {
        const puzzle = grid.slice();
        for (const c of cells) puzzle[c] = 0;
        expect(count(puzzle), `set ${cells.join(',')}`).toBe(2);
        found++;
      }
    }
    // Not a test that passes on nothing: these grids hold dozens of sets each.
    expect(found).toBeGreaterThan(grids.length * 20);
  });

  it('finds both families: classes of two digits, and cycles of three or more digits between two lines', () => {
    const sets = new UnavoidableSets();
    const sizes = new Set<number>();
    let threeDigits = 0;
    for (const grid of grids) {
      sets.load(grid);
      for (const cells of sets.sets()) {
        sizes.add(cells.length);
        if (new Set(cells.map((c) => grid[c])).size >= 3) threeDigits++;
      }
    }
    expect(sizes.has(4)).toBe(true);
    expect(sizes.has(6)).toBe(true);
    expect(threeDigits).toBeGreaterThan(0);
  });

  it('says a removal leaves a set without a given only when the puzzle then has a second solution', () => {
    // Random carves: every removal is checked both ways, and kept only while the puzzle stays unique.
    const sets = new UnavoidableSets();
    const random = mulberry32(2026);
    let exposed = 0;
    let searched = 0;
    for (const grid of grids.slice(0, 30)) {
      sets.load(grid);
      const puzzle = grid.slice();
      for (const c of shuffle(
        random,
        Array.from({ length: 81 }, (_, i) => i),
      )) {
        puzzle[c] = 0;
        const unique = count(puzzle) === 1;
        if (sets.exposedAt(c, bandsOf(puzzle))) {
          expect(unique, `removal at ${c}`).toBe(false);
          exposed++;
        } else {
          searched++;
        }
        if (!unique) puzzle[c] = grid[c]!;
      }
    }
    // Both answers occur: the sets answer a good share of removals, never all of them.
    expect(exposed).toBeGreaterThan(100);
    expect(searched).toBeGreaterThan(exposed);
  });
});
