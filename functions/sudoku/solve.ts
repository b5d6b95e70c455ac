import { formatBoard } from './format.js';
import { parseBoard } from './parse.js';
import { multipleSolutions, noSolution, searchLimit } from './problems.js';
import { countSolutions, lastGuessCount } from './solver.js';
import type { Cells, ParsedBoard, SolveOptions, SolveOutcome } from './types.js';
import { findConflicts } from './validate.js';

/** Solve a parsed board: conflicts first (so they are named), then the search. */
export function solveParsed(board: ParsedBoard, options: SolveOptions = {}): SolveOutcome {
  const conflicts = findConflicts(board.cells);
  if (conflicts.length) return { ok: false, problems: conflicts };
  // Telling unique from multiple, or rejecting multiple, both need the search to go on to a second solution.
  const countToTwo = (options.checkUnique ?? true) || options.rejectMultiple === true;
  const cells: Cells = new Uint8Array(81);
  const start = performance.now();
  const count = countSolutions(board.cells, countToTwo ? 2 : 1, cells, options.maxGuesses);
  const stats = { guesses: lastGuessCount(), micros: Math.round((performance.now() - start) * 1000) };
  if (count < 0) return { ok: false, problems: [searchLimit(stats.guesses)], stats };
  if (count === 0) return { ok: false, problems: [noSolution()], stats };
  if (count > 1 && options.rejectMultiple) return { ok: false, problems: [multipleSolutions()], stats };
  return {
    ok: true,
    solution: formatBoard(cells, board.shape),
    cells,
    unique: countToTwo ? count === 1 : undefined,
    stats,
  };
}

/** Parse, check and solve a board in any accepted shape; the answer comes back in the same shape. Never throws. */
export function solveBoard(input: unknown, options: SolveOptions = {}): SolveOutcome {
  const parsed = parseBoard(input);
  return parsed.ok ? solveParsed(parsed.board, options) : parsed;
}
