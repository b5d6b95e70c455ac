import { $, status, text } from './dom.js';
import { parseBoard } from './geometry.js';
import { boardString, givensString, showBoard } from './grid.js';
import { state } from './state.js';
import { readSaved } from './storage.js';
import { showTime, startTimer } from './timer.js';

/** What the page opens on: the board a link shares (`?board=`), else the one kept; false when neither. */
export function load(): boolean {
  const fromLink = new URLSearchParams(location.search).get('board');
  if (fromLink) {
    const list = parseBoard(fromLink);
    if (list.length === 81) {
      showBoard(list, 'play');
      text.value = fromLink;
      status.textContent = 'Puzzle from the link: fill the empty cells.';
      return true;
    }
  }
  try {
    const s = readSaved();
    if (!s || !Array.isArray(s.values) || s.values.length !== 81) return false;
    state.values = s.values;
    state.kinds = s.kinds ?? state.kinds;
    state.marks = s.marks ?? state.marks;
    state.mode = s.mode ?? state.mode;
    state.solution = s.solution ?? '';
    state.solutionOf = s.solutionOf ?? '';
    state.difficulty = s.difficulty ?? '';
    state.elapsed = Number(s.elapsed) || 0;
    showTime();
    if (state.mode === 'edit') text.value = boardString().replace(/^\.{81}$/, '');
    if (state.mode === 'play' && state.values.some((v, i) => state.kinds[i] === 'entry' && v)) startTimer();
    return true;
  } catch {
    // Not JSON (written by hand, or by another page on this origin): start afresh.
    return false;
  }
}

/** Share link: `?board=` and the givens, copied to the clipboard, or shown to copy by hand. */
export function wireSharing(): void {
  $('share').addEventListener('click', async () => {
    const url = new URL(location.href);
    url.search = `?board=${givensString()}`;
    url.hash = '';
    const field = $<HTMLInputElement>('share-url');
    field.value = url.href;
    $('share-box').hidden = false;
    try {
      await navigator.clipboard.writeText(url.href);
      status.textContent = 'Link copied: it opens this puzzle.';
    } catch {
      status.textContent = 'The link to this puzzle is below the buttons.';
      field.select();
    }
  });
}
