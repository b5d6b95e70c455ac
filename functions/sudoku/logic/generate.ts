// Puzzles at a level from a seed. Each attempt: a random complete grid (three independent
// boxes on the diagonal shuffled from the seed, the rest completed by the fast search, which is
// deterministic), then givens removed in a random order (in 180-degree pairs when symmetric)
// while the fast search still finds exactly one solution (the solution's unavoidable sets answer
// a quarter of those questions without it), which leaves the puzzle minimal; then
// the grade, cut short as soon as a technique above the level is needed. Attempts repeat until
// one lands on the level. Nothing here depends on the machine: the same seed, the same puzzle.
import { formatBoardString } from '../format.js';
import { generationLimit } from '../problems.js';
import { countSolutions, countSolutionsWithout, type SearchResult } from '../wasm-search.js';
import type { Problem } from '../types.js';
import { BOX, COL, ROW, UNIT_CELLS } from './geometry.js';
import { checkGenerateOptions } from './generate-options.js';
import { type Grade, gradeCells } from './grade.js';
import { mulberry32, type Random, seedOf, shuffle } from './random.js';
import type { Level } from './names.js';
import { UnavoidableSets } from './unavoidable.js';

export interface GenerateOptions {
  level: Level;
  /** Any integer (taken as uint32) or text. */
  seed: number | string;
  /** Givens symmetric under a half turn of the board. Default false. */
  symmetric?: boolean;
  /** Attempts before giving up (GENERATION_LIMIT); default 20,000 (extreme needs the most). */
  maxAttempts?: number;
}

export type GenerateOutcome =
  | { ok: true; puzzle: string; solution: string; grade: Grade; seed: number; attempts: number }
  | { ok: false; problems: Problem[] };

const found: SearchResult = { count: 0, guesses: 0 };

function randomGrid(random: Random, out: Uint8Array): void {
  out.fill(0);
  const digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  for (let b = 0; b < 3; b++) {
    shuffle(random, digits);
    for (let k = 0; k < 9; k++) out[(b * 3 + ((k / 3) | 0)) * 9 + b * 3 + (k % 3)] = digits[k]!;
  }
  // Any three diagonal boxes extend to a full grid, so this always finds one.
  countSolutions(out, 1, out, undefined, found);
}

/**
 * Whether `cells` still has one solution, `solution`, after its givens at `c` (and `twin`, when
 * not -1) were removed from a puzzle that had only that one: any other solution differs there.
 */
function stillUnique(cells: Uint8Array, solution: Uint8Array, c: number, twin: number): boolean {
  if (countSolutionsWithout(cells, c, solution[c]!) !== 0) return false;
  if (twin < 0) return true;
  // Another solution that agrees at c differs at the twin.
  cells[c] = solution[c]!;
  const none = countSolutionsWithout(cells, twin, solution[twin]!) === 0;
  cells[c] = 0;
  return none;
}

// The digits given in each row, column and box of the puzzle being carved: with them, most
// removals are seen to keep the solution unique without a search (the removed cell is forced).
const inRow = new Uint16Array(9);
const inCol = new Uint16Array(9);
const inBox = new Uint16Array(9);
/** The given cells, one 27-bit mask per band (unavoidable.ts's layout). */
const givenCells = new Int32Array(3);
/** The solution's unavoidable sets (unavoidable.ts): a removal that empties one fails without a search. */
const unavoidable = new UnavoidableSets();

function setGiven(c: number, d: number, on: boolean): void {
  const bit = 1 << (d - 1);
  const cellBit = 1 << (c % 27);
  if (on) {
    inRow[ROW[c]!]! |= bit;
    inCol[COL[c]!]! |= bit;
    inBox[BOX[c]!]! |= bit;
    givenCells[(c / 27) | 0]! |= cellBit;
  } else {
    inRow[ROW[c]!]! &= ~bit;
    inCol[COL[c]!]! &= ~bit;
    inBox[BOX[c]!]! &= ~bit;
    givenCells[(c / 27) | 0]! &= ~cellBit;
  }
}

/**
 * Whether the puzzle, its givens at c (and twin, when not -1) just removed, still has one solution.
 * An unavoidable set left without a given says no at once; else the search decides.
 */
function removalKeepsUnique(puzzle: Uint8Array, solution: Uint8Array, c: number, twin: number): boolean {
  if (unavoidable.exposedAt(c, givenCells) || (twin >= 0 && unavoidable.exposedAt(twin, givenCells))) return false;
  return stillUnique(puzzle, solution, c, twin);
}

const seen = (c: number): number => inRow[ROW[c]!]! | inCol[COL[c]!]! | inBox[BOX[c]!]!;

/**
 * Whether the remaining givens alone force digit d at the empty cell c: every other digit sees
 * it (a naked single), or no other cell of one of its units can take d (a hidden single). Then
 * every solution has d there, and removing the given cannot add a solution.
 */
function forced(puzzle: Uint8Array, c: number, d: number): boolean {
  const bit = 1 << (d - 1);
  if ((seen(c) | bit) === 0x1ff) return true;
  for (let i = 0; i < 3; i++) {
    const u = i === 0 ? ROW[c]! : i === 1 ? 9 + COL[c]! : 18 + BOX[c]!;
    let alone = true;
    for (let k = 0; k < 9 && alone; k++) {
      const o = UNIT_CELLS[u * 9 + k]!;
      if (o !== c && puzzle[o] === 0 && !(seen(o) & bit)) alone = false;
    }
    if (alone) return true;
  }
  return false;
}

/** Remove givens in a random order while the solution stays unique; the result is minimal. */
function carve(random: Random, solution: Uint8Array, symmetric: boolean, out: Uint8Array): boolean {
  out.set(solution);
  inRow.fill(0x1ff);
  inCol.fill(0x1ff);
  inBox.fill(0x1ff);
  givenCells.fill(0x7ffffff);
  unavoidable.load(solution);
  const order = shuffle(
    random,
    Array.from({ length: symmetric ? 41 : 81 }, (_, i) => i),
  );
  for (const c of order) {
    const twin = 80 - c;
    const pair = symmetric && twin !== c;
    out[c] = 0;
    setGiven(c, solution[c]!, false);
    if (pair) {
      out[twin] = 0;
      setGiven(twin, solution[twin]!, false);
    }
    const kept =
      (forced(out, c, solution[c]!) && (!pair || forced(out, twin, solution[twin]!))) ||
      removalKeepsUnique(out, solution, c, pair ? twin : -1);
    if (!kept) {
      out[c] = solution[c]!;
      setGiven(c, solution[c]!, true);
      if (pair) {
        out[twin] = solution[twin]!;
        setGiven(twin, solution[twin]!, true);
      }
    }
  }
  if (!symmetric) return true;
  // Pairs came off together: a lone given may still be removable, and then the puzzle is not minimal.
  for (let c = 0; c < 81; c++) {
    if (!out[c]) continue;
    out[c] = 0;
    setGiven(c, solution[c]!, false);
    const removable = removalKeepsUnique(out, solution, c, -1);
    out[c] = solution[c]!;
    setGiven(c, solution[c]!, true);
    if (removable) return false;
  }
  return true;
}

/** Throws a GenerateOptionError (code, message, the option) for an option missing or of the wrong type. */
export function generatePuzzle(options: GenerateOptions): GenerateOutcome {
  checkGenerateOptions(options);
  const seed = seedOf(options.seed);
  const random = mulberry32(seed);
  const maxAttempts = options.maxAttempts ?? 20_000;
  const symmetric = options.symmetric ?? false;
  const solution = new Uint8Array(81);
  const puzzle = new Uint8Array(81);
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    randomGrid(random, solution);
    if (!carve(random, solution, symmetric, puzzle)) continue;
    const grade = gradeCells(puzzle, solution, options.level);
    if (grade.level !== options.level) continue;
    return {
      ok: true,
      puzzle: formatBoardString(puzzle),
      solution: formatBoardString(solution),
      grade,
      seed,
      attempts: attempt,
    };
  }
  return { ok: false, problems: [generationLimit(options.level, maxAttempts)] };
}
