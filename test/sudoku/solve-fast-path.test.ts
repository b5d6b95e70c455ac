import { describe, expect, it } from 'vitest';
import { type SolveOutcome, type SolveOptions, solveBoard } from '../../functions/sudoku/index.js';
import { readPuzzleSet, readTdokuVectors } from '../helpers/puzzle-sets.js';

// A bare 81-character line takes a fused parse-and-load path; anything else the general parser.
// Both must give the same outcome: the line with a trailing newline takes the general path.
const withoutTime = (o: SolveOutcome): unknown => (o.stats ? { ...o, stats: { ...o.stats, micros: 0 } } : o);

function bothPaths(puzzle: string, options: SolveOptions): [unknown, unknown] {
  return [withoutTime(solveBoard(puzzle, options)), withoutTime(solveBoard(`${puzzle}\n`, options))];
}

const TRAP = '.....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........';

describe('the fast path for bare 81-character lines', () => {
  const norvig = readPuzzleSet('norvig_top95');
  const [n0, n1] = [norvig[0]!, norvig[1]!];
  const boards = [
    ...readTdokuVectors().map((v) => v.puzzle),
    ...norvig.slice(0, 20),
    ...readPuzzleSet('puzzles7_serg_benchmark').slice(0, 20),
    TRAP,
  ];
  // '0' for empty, equal givens in a row, a column and a box, a bad character, all through the fast loader.
  boards.push(n0.replaceAll('.', '0'));
  boards.push(`11${n0.slice(2)}`);
  boards.push(`5${'.'.repeat(26)}5${'.'.repeat(53)}`);
  boards.push(`7${'.'.repeat(9)}7${'.'.repeat(70)}`);
  boards.push(`${n0.slice(0, 40)}x${n0.slice(41)}`);

  it.each([{ checkUnique: true }, { checkUnique: false }, { rejectMultiple: true }, { maxGuesses: 100 }])(
    'answers exactly as the general path with %o',
    (options) => {
      for (const board of boards) {
        const [fast, general] = bothPaths(board, options);
        expect(fast).toEqual(general);
      }
    },
  );

  it('reports the guess limit as SEARCH_LIMIT with the guesses made', () => {
    const outcome = solveBoard(TRAP, { maxGuesses: 100 });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.problems[0]!.code).toBe('SEARCH_LIMIT');
      expect(outcome.stats!.guesses).toBeLessThanOrEqual(100);
    }
  });

  it('returns a fresh cells array with every answer', () => {
    const [a, b] = [solveBoard(n0), solveBoard(n1)];
    expect(a.ok && b.ok && a.cells !== b.cells).toBe(true);
    if (a.ok) expect(Array.from(a.cells).join('')).toBe(a.solution);
  });
});
