import { formatBoard } from './format.js';
import { parseBoard } from './parse.js';
import { multipleSolutions, noSolution, searchLimit } from './problems.js';
import { countSolutions, countSolutionsOfText, MAX_GUESSES, type SearchResult } from './wasm-search.js';
import type { BoardShape, Cells, ParsedBoard, SolveOptions, SolveOutcome } from './types.js';
import { findConflicts } from './validate.js';

/** Reused by every call: the search fills it in place. */
const found: SearchResult = { count: 0, guesses: 0 };

/**
 * Each answer's cells are an 81-byte view into a shared slab. A Uint8Array of its own costs
 * about 0.5 µs (past V8's 64-byte limit for on-heap typed arrays it gets a separate backing
 * store), a view about 0.08 µs: 8% of a 17-clue puzzle. A kept answer keeps its 5 KB slab alive.
 */
const SLAB_BOARDS = 64;
let slab = new ArrayBuffer(81 * SLAB_BOARDS);
let slabUsed = 0;

function newCells(): Cells {
  if (slabUsed === SLAB_BOARDS) {
    slab = new ArrayBuffer(81 * SLAB_BOARDS);
    slabUsed = 0;
  }
  return new Uint8Array(slab, 81 * slabUsed++, 81);
}

/** Telling unique from multiple, or rejecting multiple, both need the search to go on to a second solution. */
function countsToTwo(options: SolveOptions): boolean {
  return (options.checkUnique ?? true) || options.rejectMultiple === true;
}

/**
 * The outcome of a search over `cells` (the solution when one was found, else the givens).
 * Conflicting givens are named here, after the search, rather than checked before every one:
 * they always make the search fail at once, so only failed searches need the check.
 */
function outcome(
  cells: Cells,
  shape: BoardShape,
  countToTwo: boolean,
  options: SolveOptions,
  start: number,
): SolveOutcome {
  const stats = { guesses: found.guesses, micros: Math.round((performance.now() - start) * 1000) };
  const count = found.count;
  if (count > 0) {
    if (count > 1 && options.rejectMultiple)
      return { ok: false, problems: [multipleSolutions()], problemsTotal: 1, stats };
    return {
      ok: true,
      solution: formatBoard(cells, shape),
      cells,
      unique: countToTwo ? count === 1 : undefined,
      stats,
    };
  }
  const conflicts = findConflicts(cells);
  if (conflicts.total) return { ok: false, problems: conflicts.problems, problemsTotal: conflicts.total };
  return { ok: false, problems: [count < 0 ? searchLimit(stats.guesses) : noSolution()], problemsTotal: 1, stats };
}

/** Solve a parsed board; equal givens in a unit are reported as such, not as a bare "no solution". */
export function solveParsed(board: ParsedBoard, options: SolveOptions = {}): SolveOutcome {
  const countToTwo = countsToTwo(options);
  const cells = newCells();
  const start = performance.now();
  countSolutions(board.cells, countToTwo ? 2 : 1, cells, options.maxGuesses ?? MAX_GUESSES, found);
  // On failure the search wrote nothing: name conflicts in the caller's givens.
  if (found.count <= 0) cells.set(board.cells);
  return outcome(cells, board.shape, countToTwo, options, start);
}

/** Parse, check and solve a board in any accepted shape; the answer comes back in the same shape. Never throws. */
export function solveBoard(input: unknown, options: SolveOptions = {}): SolveOutcome {
  // The commonest input, a bare 81-character line, skips the general parser and its allocations.
  if (typeof input === 'string' && input.length === 81) {
    const countToTwo = countsToTwo(options);
    const cells = newCells();
    const start = performance.now();
    if (countSolutionsOfText(input, countToTwo ? 2 : 1, cells, options.maxGuesses ?? MAX_GUESSES, found)) {
      return outcome(cells, 'string', countToTwo, options, start);
    }
  }
  const parsed = parseBoard(input);
  return parsed.ok ? solveParsed(parsed.board, options) : parsed;
}
