// The grade of a puzzle: its level (the hardest technique's level), its score (the hardest
// step's difficulty, Sudoku Explainer-like; docs/grading.md) and the techniques it took. The
// logical solve runs first: every technique keeps every solution, so a grid it finishes is the
// one solution and no search is needed. The fast search runs only when the techniques stall
// (a guess needs the solution) or the grid breaks, and then settles uniqueness with the same
// problems as solving reports.
import { parseBoard } from '../parse.js';
import { solveBoard, solveParsed } from '../solve-board.js';
import type { Cells, Problem, SolveOutcome } from '../types.js';
import { Grid } from './grid.js';
import { type RunResult, runLogic, type SolutionSource } from './run.js';
import type { Level, TechniqueName } from './names.js';
import { TECHNIQUES } from './techniques.js';

export interface Grade {
  level: Level;
  score: number;
  /** The hardest technique used; null for a board given full (nothing to solve: easy, score 0). */
  hardest: TechniqueName | null;
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
  return gradeOf(runLogic(grid, solution, maxLevel));
}

function gradeOf(run: RunResult): Grade {
  const techniques: Partial<Record<TechniqueName, number>> = {};
  for (let i = 0; i < TECHNIQUES.length; i++) if (run.counts[i]) techniques[TECHNIQUES[i]!.name] = run.counts[i]!;
  return {
    level: run.level,
    score: run.score,
    // A board given full took no technique: it rates as the easiest level, and names none.
    hardest: run.hardest < 0 ? null : TECHNIQUES[run.hardest]!.name,
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

/** The search's answer for the board being graded, found at most once and only when needed. */
let searched: SolveOutcome | null = null;
let search: () => SolveOutcome = () => {
  throw new Error('no board');
};
const lazySolution: SolutionSource = () => {
  searched ??= search();
  return searched.ok ? searched.cells : null;
};

/**
 * Grade `givens` (the parsed board), running `solve` only if the logic needs the solution.
 * The answer is the one solving first would give: a broken or stalled grid is handed to the
 * search, whose problems (no solution, several) are the answer.
 */
function gradeGivens(givens: Cells, solve: () => SolveOutcome): GradeOutcome {
  searched = null;
  search = solve;
  let grade: Grade | null = null;
  if (grid.load(givens)) {
    const run = runLogic(grid, lazySolution);
    if (!run.aborted) grade = gradeOf(run);
  }
  if (grade && !searched) return { ok: true, grade, givens, solution: grid.cells.slice(), unique: true };
  const solved = searched ?? solve();
  if (!solved.ok) return { ok: false, problems: solved.problems };
  // The logic gave up on a proper puzzle only if a technique were unsound: grade the old way.
  return { ok: true, grade: grade ?? gradeCells(givens, solved.cells), givens, solution: solved.cells, unique: true };
}

/** Parse, check and grade a board in any accepted shape. Never throws. */
export function gradePuzzle(input: unknown): GradeOutcome {
  // The commonest input, a bare line, takes the search's own fast path for text (no parser).
  const plain = typeof input === 'string' ? plainGivens(input) : null;
  if (plain) return gradeGivens(plain, () => solveBoard(input, { rejectMultiple: true }));
  const parsed = parseBoard(input);
  if (!parsed.ok) return parsed;
  return gradeGivens(parsed.board.cells, () => solveParsed(parsed.board, { rejectMultiple: true }));
}
