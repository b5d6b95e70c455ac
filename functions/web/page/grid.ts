import { $, board, button, problemsBox, reveal, status, text } from './dom.js';
import { colOf, peers, rowOf } from './geometry.js';
import { save } from './storage.js';
import { type Mode, redoStack, state, undoStack } from './state.js';
import { resetTimer, startTimer, stopTimer } from './timer.js';

/** The 81 cells of the ARIA grid, row-major (built by buildGrid). */
export const cells: HTMLDivElement[] = [];
/** The cell at index 0-80. */
export const cellAt = (i: number): HTMLDivElement => cells[i]!;

/** Cells whose digit is repeated in their row, column or box, with where. */
export function conflicts(): Map<number, 'row' | 'column' | 'box'> {
  const found = new Map<number, 'row' | 'column' | 'box'>();
  for (let a = 0; a < 81; a++) {
    if (!/^[1-9]$/.test(state.values[a] ?? '')) continue;
    for (let b = a + 1; b < 81; b++) {
      if (state.values[b] !== state.values[a] || !peers(a, b)) continue;
      const unit = rowOf(a) === rowOf(b) ? 'row' : colOf(a) === colOf(b) ? 'column' : 'box';
      found.set(a, unit);
      found.set(b, unit);
    }
  }
  return found;
}

/** Every cell, its classes and accessible name, the repeated digits and the buttons, from the state (then saved). */
export function renderAll(): void {
  const clash = conflicts();
  const cv = state.values[state.current];
  for (let i = 0; i < 81; i++) {
    const cell = cellAt(i);
    const v = state.values[i] ?? '';
    cell.textContent = v;
    cell.classList.toggle('given', state.kinds[i] === 'given');
    cell.classList.toggle('solved', state.kinds[i] === 'solved');
    cell.classList.toggle('entry', state.kinds[i] === 'entry');
    cell.classList.toggle('peer', i !== state.current && peers(i, state.current));
    cell.classList.toggle('same', i !== state.current && /^[1-9]$/.test(v) && v === cv);
    const list: number[] = [];
    for (let d = 1; d <= 9; d++) if ((state.marks[i] ?? 0) & (1 << d)) list.push(d);
    if (v === '' && list.length) {
      cell.dataset.marks = [0, 3, 6]
        .map((s) => [1, 2, 3].map((k) => (list.includes(s + k) ? s + k : ' ')).join(' '))
        .join('\n');
    } else delete cell.dataset.marks;
    const unit = clash.get(i);
    const wrong = cell.dataset.wrong === 'true';
    const bad = cell.dataset.problem === 'true' || unit !== undefined || wrong;
    if (bad) cell.setAttribute('aria-invalid', 'true');
    else cell.removeAttribute('aria-invalid');
    const kind = state.kinds[i] === 'entry' ? 'yours' : state.kinds[i];
    let what = v === '' ? 'empty' : /[1-9]/.test(v) ? `${v}, ${kind}` : `"${v}", not a digit`;
    if (v === '' && list.length) what += `, pencil marks ${list.join(' ')}`;
    const notes = [
      unit ? `, ${v} is repeated in its ${unit}` : '',
      wrong ? ', wrong' : '',
      cell.dataset.problem === 'true' ? ', has a problem' : '',
      cell.classList.contains('hinted') ? ', in the hint' : '',
    ].join('');
    cell.setAttribute('aria-label', `Row ${rowOf(i) + 1}, column ${colOf(i) + 1}: ${what}${notes}`);
  }
  const units = [
    ...new Set(
      [...clash].map(
        ([i, unit]) =>
          `${state.values[i]} twice in ${unit === 'box' ? 'a box' : `${unit} ${unit === 'row' ? rowOf(i) + 1 : colOf(i) + 1}`}`,
      ),
    ),
  ];
  $('conflicts').textContent = units.length
    ? `Repeated: ${units.slice(0, 3).join('; ')}${units.length > 3 ? '; …' : ''}.`
    : '';
  button('undo').disabled = undoStack.length === 0;
  button('redo').disabled = redoStack.length === 0;
  $('play').hidden = state.mode === 'play';
  $('difficulty').textContent = state.difficulty;
  save();
}

/** Moves the grid's one tab stop (roving tabindex) to cell i, focusing it unless told not to. */
export function focusCell(i: number, focus = true): void {
  const was = cellAt(state.current);
  was.tabIndex = -1;
  was.classList.remove('current');
  state.current = Math.max(0, Math.min(80, i));
  const now = cellAt(state.current);
  now.tabIndex = 0;
  now.classList.add('current');
  if (focus) now.focus();
  renderAll();
}

/** The puzzle: givens only (never the API's solved digits, so Solve twice sends the same board). */
export function givensString(): string {
  return state.values.map((v, i) => (state.kinds[i] === 'given' && v ? v : '.')).join('');
}

/** What the player sees, answers excluded: givens and entries. */
export function boardString(): string {
  return state.values.map((v, i) => (state.kinds[i] !== 'solved' && v ? v : '.')).join('');
}

export function clearMessages(): void {
  status.textContent = '';
  status.className = '';
  problemsBox.replaceChildren();
  for (const cell of cells) {
    delete cell.dataset.problem;
    delete cell.dataset.wrong;
    cell.classList.remove('hinted');
    cell.removeAttribute('aria-describedby');
  }
  renderAll();
}

function snapshot(): string {
  return JSON.stringify({ values: state.values, kinds: state.kinds, marks: state.marks });
}

function restore(json: string): void {
  const s = JSON.parse(json) as Pick<typeof state, 'values' | 'kinds' | 'marks'>;
  state.values = s.values;
  state.kinds = s.kinds;
  state.marks = s.marks;
}

/** Before a change: the board as it was goes on the undo stack. */
export function remember(): void {
  undoStack.push(snapshot());
  if (undoStack.length > 500) undoStack.shift();
  redoStack.length = 0;
}

/** Undo (from the undo stack to the redo stack) or redo (the other way). */
export function undo(from: string[], to: string[]): void {
  const last = from.pop();
  if (last === undefined) return;
  to.push(snapshot());
  restore(last);
  clearMessages();
  renderAll();
}

/** Back to editing: solved digits go, givens and entries stay. */
export function unsolve(): void {
  for (let i = 0; i < 81; i++) {
    if (state.kinds[i] === 'solved') {
      state.values[i] = '';
      state.kinds[i] = state.mode === 'play' ? 'entry' : 'given';
    }
  }
}

/** A digit ('' to clear) typed into cell i: a given while editing, an entry while playing, a pencil mark in pencil mode. */
export function setCell(i: number, v: string): void {
  if (state.mode === 'play' && state.kinds[i] === 'given' && state.values[i]) {
    status.textContent = `Row ${rowOf(i) + 1}, column ${colOf(i) + 1} is a given: it cannot change.`;
    return;
  }
  remember();
  unsolve();
  clearMessages();
  if (state.pencil && v) {
    if (!state.values[i]) state.marks[i] = (state.marks[i] ?? 0) ^ (1 << Number(v));
  } else {
    state.values[i] = v;
    state.kinds[i] = state.mode === 'play' ? 'entry' : 'given';
    if (v) for (let j = 0; j < 81; j++) if (peers(i, j)) state.marks[j] = (state.marks[j] ?? 0) & ~(1 << Number(v));
  }
  if (state.mode === 'edit') {
    if (state.source !== 'many') text.value = boardString();
    state.source = 'board';
    state.difficulty = '';
  }
  startTimer();
  renderAll();
  finished();
}

/** Load a board: its digits become the givens. */
export function showBoard(list: string[], newMode: Mode = 'edit'): void {
  for (let i = 0; i < 81; i++) {
    state.values[i] = list[i] ?? '';
    state.kinds[i] = 'given';
    state.marks[i] = 0;
  }
  state.mode = newMode;
  state.solution = '';
  state.solutionOf = '';
  state.difficulty = '';
  resetTimer();
  renderAll();
}

export function togglePencil(): void {
  state.pencil = !state.pencil;
  $('pencil').setAttribute('aria-pressed', String(state.pencil));
  status.textContent = state.pencil ? 'Pencil marks on: digits mark candidates.' : 'Pencil marks off.';
}

/** The 81 cells, as rows of the ARIA grid. */
export function buildGrid(): void {
  for (let r = 0; r < 9; r++) {
    const row = document.createElement('div');
    row.className = 'row';
    row.setAttribute('role', 'row');
    row.setAttribute('aria-label', `Row ${r + 1}`);
    for (let c = 0; c < 9; c++) {
      const cell = document.createElement('div');
      cell.className = 'cell given';
      cell.setAttribute('role', 'gridcell');
      cell.tabIndex = r + c === 0 ? 0 : -1;
      cell.dataset.index = String(r * 9 + c);
      row.append(cell);
      cells.push(cell);
    }
    board.append(row);
  }
}

/** In play, a full board without repeats (and matching the solution, when known) ends the game. */
export function finished(): void {
  if (state.mode !== 'play' || state.values.some((v) => !/^[1-9]$/.test(v)) || conflicts().size) return;
  if (state.solution && state.values.join('') !== state.solution) return;
  if (state.kinds.some((k) => k === 'solved')) return;
  stopTimer();
  status.textContent = `Finished in ${$('timer').textContent}. Well done!`;
  reveal(status);
}
