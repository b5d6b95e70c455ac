// The next step for a person filling a board: the eliminations (if any are needed) that lead
// to a digit they can write, then that digit. Every step is checked against the unique solution
// before it is shown, so a fault in a technique could cost a hint its elegance (it falls back to
// the solution's digit) but never its truth.
import { parseBoard } from '../parse.js';
import { contradictsSolution, givenChanged } from '../problems.js';
import { solveParsed } from '../solve-board.js';
import type { CellRef, Cells, Problem } from '../types.js';
import { cellName, COL, POPCOUNT, ROW } from './geometry.js';
import { candidateCell, candidateDigit, Grid } from './grid.js';
import { findSingle } from './singles.js';
import type { TechniqueName } from './names.js';
import { applyStep, explaining, type Step } from './step.js';
import { TECHNIQUES } from './techniques.js';

export interface Placement {
  row: number;
  col: number;
  digit: number;
}

export interface HintStep {
  technique: TechniqueName;
  /** The cells the pattern is made of, 1-based. */
  cells: CellRef[];
  /** Candidates this step removes, 1-based. */
  eliminations: Placement[];
  message: string;
}

export interface Hint {
  /** Eliminations needed before the placement, in order; empty when a single is there already. */
  steps: HintStep[];
  /** The digit a person can write next; null when the board is already complete. */
  placement: Placement | null;
  /** The placement's technique ('guess' when no implemented technique reaches a digit). */
  technique: TechniqueName | null;
  message: string;
}

/**
 * A failure says which of the request's boards its problems are about (`puzzle`: its givens do not
 * make a proper puzzle; `board`: the person's board), so an adapter can place them, and counts them
 * all as a parse does.
 */
export type HintOutcome =
  | { ok: true; hint: Hint }
  | { ok: false; problems: Problem[]; problemsTotal: number; about: 'board' | 'puzzle' };

const failure = (about: 'board' | 'puzzle', result: { problems: Problem[]; problemsTotal?: number }): HintOutcome => ({
  ok: false,
  problems: result.problems,
  problemsTotal: Math.max(result.problemsTotal ?? 0, result.problems.length),
  about,
});

/** A board a person is filling, optionally with the puzzle it started from. */
export interface HintRequest {
  board: unknown;
  puzzle?: unknown;
}

const ref = (c: number): CellRef => ({ row: ROW[c]! + 1, col: COL[c]! + 1 });
const asPlacement = (k: number): Placement => ({ ...ref(candidateCell(k)), digit: candidateDigit(k) });

function isRequest(input: unknown): input is HintRequest {
  return typeof input === 'object' && input !== null && !Array.isArray(input) && 'board' in input;
}

/** A step is true when it places the solution's digit, or removes only digits the solution does not have. */
export function stepAgrees(step: Step, solution: ArrayLike<number>): boolean {
  if (step.placement >= 0) return solution[candidateCell(step.placement)] === candidateDigit(step.placement);
  return (
    step.eliminations.length > 0 && step.eliminations.every((k) => solution[candidateCell(k)] !== candidateDigit(k))
  );
}

/** The next steps from `board` (consistent with `solution`), as the hint shows them. */
export function nextSteps(board: ArrayLike<number>, solution: ArrayLike<number>): Hint {
  explaining.on = true;
  try {
    return explainedSteps(board, solution);
  } finally {
    explaining.on = false;
  }
}

function explainedSteps(board: ArrayLike<number>, solution: ArrayLike<number>): Hint {
  const g = new Grid();
  if (!g.load(board)) throw new Error('nextSteps: the board contradicts itself');
  if (g.empty === 0)
    return { steps: [], placement: null, technique: null, message: 'The board is complete and correct.' };
  const steps: HintStep[] = [];
  for (;;) {
    const single = findSingle(g);
    if (single && stepAgrees(single, solution)) {
      return {
        steps,
        placement: asPlacement(single.placement),
        technique: single.technique,
        message: single.message,
      };
    }
    let progressed = false;
    if (!single) {
      for (const t of TECHNIQUES) {
        const step = t.find?.(g);
        if (!step) continue;
        if (!stepAgrees(step, solution)) break;
        steps.push({
          technique: step.technique,
          cells: step.cells.map(ref),
          eliminations: step.eliminations.map(asPlacement),
          message: step.message,
        });
        applyStep(g, step);
        progressed = true;
        break;
      }
    }
    if (progressed) continue;
    // No technique reaches a digit: give the solution's digit where a person would try one.
    let best = -1;
    for (let c = 0; c < 81; c++) {
      const m = g.cand[c]!;
      if (m && (best < 0 || POPCOUNT[m]! < POPCOUNT[g.cand[best]!]!)) best = c;
    }
    const digit = solution[best]!;
    return {
      steps,
      placement: { ...ref(best), digit },
      technique: 'guess',
      message: `No technique here finds the next digit without trial and error; ${cellName(best)} (one of the cells with the fewest candidates) is ${digit}.`,
    };
  }
}

/**
 * A hint for `input`: a board (every digit on it taken as given), or `{ board, puzzle }` so the
 * person's entries are told from the puzzle's givens and a wrong entry is named. Never throws.
 */
export function hint(input: unknown): HintOutcome {
  const request: HintRequest = isRequest(input) ? input : { board: input };
  const board = parseBoard(request.board);
  if (!board.ok) return failure('board', board);
  const cells = board.board.cells;
  if (request.puzzle === undefined) {
    const solved = solveParsed(board.board, { rejectMultiple: true });
    if (!solved.ok) return failure('board', solved);
    return { ok: true, hint: nextSteps(cells, solved.cells) };
  }
  const puzzle = parseBoard(request.puzzle);
  if (!puzzle.ok) return failure('puzzle', puzzle);
  const givens = puzzle.board.cells;
  const changed: Problem[] = [];
  for (let c = 0; c < 81; c++) {
    if (givens[c] && givens[c] !== cells[c])
      changed.push(givenChanged(ROW[c]! + 1, COL[c]! + 1, givens[c]!, cells[c]!));
  }
  if (changed.length) return failure('board', { problems: changed });
  const solved = solveParsed(puzzle.board, { rejectMultiple: true });
  if (!solved.ok) return failure('puzzle', solved);
  const wrong = wrongEntries(cells, solved.cells);
  if (wrong.length) return failure('board', { problems: wrong });
  return { ok: true, hint: nextSteps(cells, solved.cells) };
}

function wrongEntries(cells: Cells, solution: Cells): Problem[] {
  const out: Problem[] = [];
  for (let c = 0; c < 81; c++) {
    if (cells[c] && cells[c] !== solution[c]) out.push(contradictsSolution(ROW[c]! + 1, COL[c]! + 1, cells[c]!));
  }
  return out;
}
