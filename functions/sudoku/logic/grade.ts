// The grade of a puzzle: its level (the hardest technique's level), its score (the hardest
// step's difficulty, Sudoku Explainer-like; docs/grading.md) and the techniques it took. The
// fast search settles first whether there is exactly one solution, with the same problems as
// solving reports, so the logical solve only ever runs on a proper puzzle.
import { parseBoard } from '../parse.js';
import { solveBoard, solveParsed } from '../solve.js';
import type { Cells, Problem } from '../types.js';
import { Grid } from './grid.js';
import { runLogic } from './run.js';
import type { Level, TechniqueName } from './step.js';
import { TECHNIQUES } from './techniques.js';

export interface Grade {
  level: Level;
  score: number;
  hardest: TechniqueName;
  /** Uses per technique, only those used, easiest first. */
  techniques: Partial<Record<TechniqueName, number>>;
}

export type GradeOutcome =
  | { ok: true; grade: Grade; givens: Cells; solution: Cells; unique: true }
  | { ok: false; problems: Problem[] };

const grid = new Grid();

/**
 * Grade givens already known to have exactly one solution, `solution`. With `maxLevel`, a
 * puzzle that needs more is cut short and graded one level above it (what the generator needs).
 */
export function gradeCells(givens: ArrayLike<number>, solution: ArrayLike<number>, maxLevel?: Level): Grade {
  if (!grid.load(givens)) throw new Error('gradeCells: the givens contradict each other');
  const run = runLogic(grid, solution, maxLevel);
  const techniques: Partial<Record<TechniqueName, number>> = {};
  for (let i = 0; i < TECHNIQUES.length; i++) if (run.counts[i]) techniques[TECHNIQUES[i]!.name] = run.counts[i]!;
  return {
    level: run.level,
    score: run.score,
    // A board given full has nothing to solve: it rates as the easiest possible.
    hardest: run.hardest < 0 ? 'hidden-single' : TECHNIQUES[run.hardest]!.name,
    techniques,
  };
}

/** The givens of an 81-character line of 1-9, '.' and '0' only, else null (then the parser decides). */
function plainGivens(text: string): Cells | null {
  if (text.length !== 81) return null;
  const cells = new Uint8Array(81);
  for (let i = 0; i < 81; i++) {
    const code = text.charCodeAt(i);
    if (code >= 49 && code <= 57) cells[i] = code - 48;
    else if (code !== 46 && code !== 48) return null;
  }
  return cells;
}

/** Parse, check and grade a board in any accepted shape. Never throws. */
export function gradePuzzle(input: unknown): GradeOutcome {
  // The commonest input, a bare line, takes the search's own fast path for text (no parser).
  const plain = typeof input === 'string' ? plainGivens(input) : null;
  if (plain) {
    const solved = solveBoard(input, { rejectMultiple: true });
    if (!solved.ok) return { ok: false, problems: solved.problems };
    return { ok: true, grade: gradeCells(plain, solved.cells), givens: plain, solution: solved.cells, unique: true };
  }
  const parsed = parseBoard(input);
  if (!parsed.ok) return parsed;
  const solved = solveParsed(parsed.board, { rejectMultiple: true });
  if (!solved.ok) return { ok: false, problems: solved.problems };
  const givens = parsed.board.cells;
  return { ok: true, grade: gradeCells(givens, solved.cells), givens, solution: solved.cells, unique: true };
}
