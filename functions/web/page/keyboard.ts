import { board, pad, status, text } from './dom.js';
import { colOf, parseBoard, rowOf } from './geometry.js';
import { clearMessages, focusCell, remember, setCell, showBoard, togglePencil, undo } from './grid.js';
import { solve } from './solve-button.js';
import { redoStack, state, undoStack } from './state.js';

/** The grid's cells by index: the element an event happened in, when it is a cell. */
function cellIndex(target: EventTarget | null): number | undefined {
  const cell = target instanceof Element ? target.closest<HTMLElement>('[role=gridcell]') : null;
  return cell ? Number(cell.dataset.index) : undefined;
}

/** The grid and the digit pad by mouse, touch and keyboard (ARIA grid keys, Ctrl+Z/Y, Ctrl+V). */
export function wireKeyboard(): void {
  board.addEventListener('click', (event) => {
    const i = cellIndex(event.target);
    if (i !== undefined) focusCell(i);
  });
  board.addEventListener('focusin', (event) => {
    const i = cellIndex(event.target);
    if (i !== undefined && i !== state.current) focusCell(i, false);
  });
  board.addEventListener('keydown', (event) => {
    if (event.altKey || event.metaKey) return;
    const r = rowOf(state.current);
    const c = colOf(state.current);
    const moves: Record<string, number> = {
      ArrowUp: r > 0 ? state.current - 9 : state.current,
      ArrowDown: r < 8 ? state.current + 9 : state.current,
      ArrowLeft: c > 0 ? state.current - 1 : state.current,
      ArrowRight: c < 8 ? state.current + 1 : state.current,
      Home: event.ctrlKey ? 0 : r * 9,
      End: event.ctrlKey ? 80 : r * 9 + 8,
    };
    const key = event.key;
    const digit = /^(Digit|Numpad)([1-9])$/.exec(event.code)?.[2];
    const move = moves[key];
    if (move !== undefined && !event.shiftKey) focusCell(move);
    else if (event.ctrlKey && /^[zZ]$/.test(key) && !event.shiftKey) undo(undoStack, redoStack);
    else if (event.ctrlKey && (/^[yY]$/.test(key) || /^[zZ]$/.test(key))) undo(redoStack, undoStack);
    else if (event.ctrlKey) return;
    else if (/^[1-9]$/.test(key) || (event.shiftKey && digit)) {
      const saved = state.pencil;
      if (event.shiftKey) state.pencil = true;
      setCell(state.current, digit ?? key);
      state.pencil = saved;
    } else if (['Backspace', 'Delete', '0', '.', ' '].includes(key)) setCell(state.current, '');
    else if (key === 'p' || key === 'P') togglePencil();
    else if (key === 'Enter') void solve();
    else return;
    event.preventDefault();
  });
  // Ctrl+V on a cell: a whole puzzle loads onto the board; a single digit fills the cell.
  board.addEventListener('paste', (event) => {
    const pasted = event.clipboardData?.getData('text') ?? '';
    event.preventDefault();
    const list = parseBoard(pasted);
    const [first = ''] = list;
    if (list.length === 1 && /^[1-9]$/.test(first)) setCell(state.current, first);
    else if (list.length > 1) {
      remember();
      clearMessages();
      text.value = pasted;
      state.source = 'text';
      showBoard(list);
      status.textContent = `Pasted ${list.length === 81 ? 'a puzzle' : `${list.length} cells (a board has 81)`} onto the board.`;
    }
  });
  pad.addEventListener('mousedown', (event) => event.preventDefault());
  pad.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button) setCell(state.current, button.dataset.digit ?? '');
  });
  // One tab stop for the pad: the arrows move between its buttons (roving tabindex).
  pad.addEventListener('keydown', (event) => {
    const buttons = [...pad.querySelectorAll('button')];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const steps: Record<string, number> = { ArrowRight: 1, ArrowDown: 5, ArrowLeft: -1, ArrowUp: -5 };
    const step = steps[event.key];
    if (at < 0 || !step) return;
    event.preventDefault();
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, at + step))];
    for (const b of buttons) b.tabIndex = b === next ? 0 : -1;
    next?.focus();
  });
}
