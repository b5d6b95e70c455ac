import { PROBLEM_CODE } from '../../sudoku/types.js';
import { type ApiAnswer, missing, problems, request, showProblemAnswer } from './api.js';
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
  const level = $<HTMLSelectElement>('level').value;
  let answer: ApiAnswer | undefined;
  // A seed that finds no puzzle of the level in the route's attempts (422 generation-limit): another seed.
  for (let attempt = 0; attempt < 3; attempt++) {
    const seed = Math.floor(Math.random() * 2 ** 31);
    answer = await request(`puzzle?level=${level}&seed=${seed}`);
    if (answer?.status !== 422 || !/generation-limit/.test(answer.json?.type ?? '')) break;
  }
  if (!answer) return;
  if (answer.status === 404) return missing('puzzle', 'A new puzzle');
  const p = answer.json;
  if (answer.status !== 200 || !p?.puzzle) return showProblemAnswer(answer);
  if (!opening) remember();
  showBoard(parseBoard(p.puzzle), 'play');
  state.solution = typeof p.solution === 'string' ? p.solution : '';
  state.solutionOf = givensString();
  state.difficulty = `Difficulty: ${p.level}${p.score !== undefined ? ` (score ${en(p.score)})` : ''}`;
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
  const answer = await request('grade', JSON.stringify({ board: givens }), true);
  if (!answer) return;
  if (answer.status === 404) {
    unavailable.add('grade');
    state.difficulty = 'Difficulty: not graded by this server yet';
  } else if (answer.status === 200 && answer.json?.grade) {
    const g = answer.json.grade;
    state.difficulty = `Difficulty: ${g.level} (score ${en(g.score)}${
      g.hardest ? `; hardest step: ${g.hardest}` : ''
    })`;
    if (typeof answer.json.solution === 'string') {
      state.solution = answer.json.solution;
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
  const answer = await request('hint', JSON.stringify(body));
  if (!answer) return;
  if (answer.status === 404) return missing('hint', 'A hint');
  const h = answer.json?.hint;
  if (answer.status !== 200 || !h) {
    showProblemAnswer(answer);
    for (const p of answer.json?.problems ?? []) {
      if (p.code === PROBLEM_CODE.CONTRADICTS_SOLUTION && p.row && p.col)
        cellAt((p.row - 1) * 9 + p.col - 1).dataset.wrong = 'true';
    }
    renderAll();
    return;
  }
  const steps = Array.isArray(h.steps) ? h.steps : [];
  for (const step of steps) {
    for (const { row, col } of step.cells ?? []) cells[(row - 1) * 9 + col - 1]?.classList.add('hinted');
  }
  const sentence = h.message ?? steps.map((s) => s.message).join(' ');
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
    const answer = await request('solve', JSON.stringify({ board: givens }));
    if (!answer) return;
    if (answer.status !== 200 || typeof answer.json?.solution !== 'string') return showProblemAnswer(answer);
    state.solution = answer.json.solution;
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
