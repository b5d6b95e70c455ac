/**
 * The page's script (bundled into page.html at build time: scripts/page-html.mjs): no framework,
 * no request to another origin. Each module wires its own controls; this one starts the page.
 */
import { wireBatch } from './batch.js';
import { $, button, solveButton, status, text } from './dom.js';
import { wireFileInput } from './file-input.js';
import { parseBoard, puzzleLines } from './geometry.js';
import { buildGrid, clearMessages, focusCell, remember, showBoard, togglePencil, undo } from './grid.js';
import { wireKeyboard } from './keyboard.js';
import { check, hint, newPuzzle, wirePlay } from './play.js';
import { load, wireSharing } from './sharing.js';
import { solve } from './solve-button.js';
import { redoStack, state, undoStack } from './state.js';

buildGrid();
wireKeyboard();
button('pencil').addEventListener('click', togglePencil);
button('undo').addEventListener('click', () => undo(undoStack, redoStack));
button('redo').addEventListener('click', () => undo(redoStack, undoStack));
button('print').addEventListener('click', () => window.print());
wirePlay();
wireSharing();
button('clear').addEventListener('click', () => {
  remember();
  clearMessages();
  showBoard([]);
  text.value = '';
  state.source = 'board';
  focusCell(0);
});
text.addEventListener('input', () => {
  clearMessages();
  if (puzzleLines(text.value)) {
    state.source = 'many';
    const n = text.value.split('\n').filter((line) => line.trim() !== '').length;
    status.textContent = `${n} puzzles in the text box: Solve sends them all, one answer a line.`;
    return;
  }
  state.source = text.value.trim() === '' ? 'board' : 'text';
  showBoard(parseBoard(text.value));
});
solveButton.addEventListener('click', () => void solve());
button('hint').addEventListener('click', () => void hint());
button('check').addEventListener('click', () => void check());
button('new').addEventListener('click', () => void newPuzzle());
wireFileInput();
wireBatch();

// Phones are told about taps, not arrow keys.
if (matchMedia('(pointer: coarse)').matches) {
  $('board-help').textContent =
    'Tap a cell, then a digit below; Pencil marks candidates; Undo and Redo step through your moves.';
}
for (const id of ['curl-one', 'curl-many']) {
  const pre = $(id);
  pre.textContent = (pre.textContent ?? '').replace('$API', location.origin);
}
const opened = load();
focusCell(Math.max(0, state.current), false);
// A first visit (no board kept, none shared by the link) opens on a puzzle ready to play, not an
// empty grid; the focus stays where the browser put it.
if (!opened) void newPuzzle(true);
