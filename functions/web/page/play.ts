import { PROBLEM_CODE } from '../../sudoku/types.js';
import type { Level, PuzzleResponse } from '../../client/index.js';
import { type Called, call, missing, problems, showProblemAnswer } from './api.js';
import { $, en, plural, reveal, status, text } from './dom.js';
import { parseBoard, place } from './geometry.js';
import {
  boardString,
  cellAt,
  cells,
  clearMessages,
  focusCell,
  givensString,
  remember,
  renderAll,
  setCell,
  showBoard,
  unsolve,
} from './grid.js';
import { state, unavailable } from './state.js';
import { resetTimer } from './timer.js';

/**
 * GET /puzzle at the chosen level: the puzzle fills the board, ready to play. `opening`: the page
 * opens on it (a first visit), so it takes no focus and leaves no undo step back to the empty grid.
 */
export async function newPuzzle(opening = false): Promise<void> {
  if (state.busy) return;
  clearMessages();
  const level = $<HTMLSelectElement>('level').value as Level;
  let answer: Called<PuzzleResponse> | undefined;
  // A seed that finds no puzzle of the level in the route's attempts (422 generation-limit): another seed.
  for (let attempt = 0; attempt < 3; attempt++) {
    const seed = Math.floor(Math.random() * 2 ** 31);
    answer = await call((api) => api.puzzle({ level, seed }));
    if (answer?.ok !== false || answer.error.code !== 'generation-limit') break;
  }
  if (!answer) return;
  if (!answer.ok && answer.error.status === 404) return missing('puzzle', 'A new puzzle');
  if (!answer.ok) return showProblemAnswer(answer.error);
  const p = answer.value;
  if (!opening) remember();
  showBoard(parseBoard(p.puzzle), 'play');
  state.solution = p.solution;
  state.solutionOf = givensString();
  state.difficulty = `Difficulty: ${p.level} (score ${en(p.score)})`;
  text.value = '';
  state.source = 'board';
  status.textContent = `New ${p.level} puzzle: fill the empty cells.`;
  renderAll();
  focusCell(state.values.indexOf(''), !opening);
}

/** POST /grade: the level of the board's givens, shown above the board. Quietly absent without the route. */
export async function grade(): Promise<void> {
  if (unavailable.has('grade')) return;
  const givens = givensString();
  const answer = await call((api) => api.grade(givens), true);
  if (!answer) return;
  if (!answer.ok && answer.error.status === 404) {
    unavailable.add('grade');
    state.difficulty = 'Difficulty: not graded by this server yet';
  } else if (answer.ok) {
    const g = answer.value.grade;
    state.difficulty = `Difficulty: ${g.level} (score ${en(g.score)}${
      g.hardest ? `; hardest step: ${g.hardest}` : ''
    })`;
    if (typeof answer.value.solution === 'string') {
      state.solution = answer.value.solution;
      state.solutionOf = givens;
    }
  } else return;
  renderAll();
}

/** POST /hint: the next logical step, its cells highlighted, its sentence, and a button to place it. */
export async function hint(): Promise<void> {
  if (state.busy) return;
  clearMessages();
  const body = state.mode === 'play' ? { puzzle: givensString(), board: boardString() } : { board: boardString() };
  const answer = await call((api) => api.hint(body));
  if (!answer) return;
  if (!answer.ok && answer.error.status === 404) return missing('hint', 'A hint');
  if (!answer.ok) {
    showProblemAnswer(answer.error);
    for (const p of 'problems' in answer.error ? answer.error.problems : []) {
      if (p.code === PROBLEM_CODE.CONTRADICTS_SOLUTION && p.row && p.col)
        cellAt((p.row - 1) * 9 + p.col - 1).dataset.wrong = 'true';
    }
    renderAll();
    return;
  }
  const h = answer.value.hint;
  const steps = h.steps;
  for (const step of steps) {
    for (const { row, col } of step.cells) cells[(row - 1) * 9 + col - 1]?.classList.add('hinted');
  }
  const sentence = h.message;
  const p = document.createElement('p');
  p.textContent = `Hint: ${sentence}`;
  status.replaceChildren(p);
  const at = h.placement;
  if (at) {
    const i = (at.row - 1) * 9 + at.col - 1;
    cells[i]?.classList.add('hinted');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = `Place ${at.digit} at row ${at.row}, column ${at.col}`;
    button.addEventListener('click', () => {
      setCell(i, String(at.digit));
      focusCell(i);
    });
    status.append(button);
  }
  renderAll();
  reveal(status);
}

/** Check: entries that differ from the solution are marked; nothing else is given away. */
export async function check(): Promise<void> {
  if (state.busy) return;
  clearMessages();
  const givens = givensString();
  if (state.solutionOf !== givens || !state.solution) {
    const answer = await call((api) => api.solve(givens));
    if (!answer) return;
    if (!answer.ok) return showProblemAnswer(answer.error);
    if (typeof answer.value.solution !== 'string') return;
    state.solution = answer.value.solution;
    state.solutionOf = givens;
  }
  const wrong: number[] = [];
  let entries = 0;
  for (let i = 0; i < 81; i++) {
    if (state.kinds[i] === 'given' && state.mode === 'edit') continue;
    if (state.kinds[i] === 'given' || !state.values[i]) continue;
    entries++;
    if (state.values[i] !== state.solution[i]) {
      wrong.push(i);
      cellAt(i).dataset.wrong = 'true';
    }
  }
  renderAll();
  if (wrong.length) {
    problems(
      `${plural(wrong.length, 'entry is', 'entries are')} wrong.`,
      wrong.map((i) => ({ message: `The ${state.values[i]} at ${place(i)} is not the solution's digit.` })),
    );
  } else {
    status.textContent = entries
      ? `All ${plural(entries, 'entry', 'entries')} are right so far.`
      : 'Nothing to check yet: fill a cell first.';
    reveal(status);
  }
}

/** Play this board: a typed or pasted board becomes the puzzle, graded when the server can. */
export function wirePlay(): void {
  $('play').addEventListener('click', () => {
    if (state.values.every((v) => v === '')) return;
    remember();
    unsolve();
    state.mode = 'play';
    clearMessages();
    status.textContent = 'Playing: the digits on the board are the givens; fill the rest.';
    resetTimer();
    renderAll();
    void grade();
  });
}
