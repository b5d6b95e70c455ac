import { type PageState, state } from './state.js';

/** The localStorage key of the board kept across reloads (a new shape needs a new key). */
const STORE = 'sudoku-page-v1';

type Saved = Pick<
  PageState,
  'values' | 'kinds' | 'marks' | 'mode' | 'solution' | 'solutionOf' | 'difficulty' | 'elapsed'
>;

/** The board as it is, kept for the next visit (renderAll calls this after every change). */
export function save(): void {
  const { values, kinds, marks, mode, solution, solutionOf, difficulty, elapsed } = state;
  const saved: Saved = { values, kinds, marks, mode, solution, solutionOf, difficulty, elapsed };
  try {
    localStorage.setItem(STORE, JSON.stringify(saved));
  } catch {
    // Storage full or refused (a private window): the page works, the board is just not kept.
  }
}

/** The board kept by the last visit, as stored (load() checks it); null when none. Throws on bad JSON. */
export function readSaved(): Partial<Saved> | null {
  return JSON.parse(localStorage.getItem(STORE) ?? 'null') as Partial<Saved> | null;
}
