import { problems } from './api.js';
import { solveFile } from './batch.js';
import { text } from './dom.js';
import { boardString, clearMessages, givensString } from './grid.js';
import { solveOne } from './solve.js';
import { state } from './state.js';

/** Solve (Enter): the board, the pasted text, or its lines as a batch. */
export async function solve(): Promise<void> {
  if (state.busy) return;
  clearMessages();
  if (state.source === 'many') {
    await solveFile(text.value, 'the text box', 'txt', false);
    return;
  }
  if (state.source === 'board' && state.values.every((v) => v === '')) {
    problems('The board is empty.', [
      { message: 'Type the givens into the board, or paste a puzzle into the text box, or start a new puzzle.' },
    ]);
    return;
  }
  await solveOne(state.source === 'text' ? text.value : state.mode === 'play' ? givensString() : boardString());
}
