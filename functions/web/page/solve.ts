import { call, showProblemAnswer } from './api.js';
import { $, board, en, plural, reveal, status, text } from './dom.js';
import { parseBoard } from './geometry.js';
import { clearMessages, focusCell, givensString, remember, renderAll, showBoard } from './grid.js';
import { grade } from './play.js';
import { state } from './state.js';
import { stopTimer } from './timer.js';

/** One board as JSON: the solution fills the board, givens kept apart; or its problems, located. */
export async function solveOne(sent: string): Promise<void> {
  const answer = await call((api) => api.solve(sent));
  if (!answer) return;
  if (answer.ok && typeof answer.value.solution === 'string') {
    const { unique, stats } = answer.value;
    const answerDigits = answer.value.solution;
    remember();
    const wrong: number[] = [];
    for (let i = 0; i < 81; i++) {
      if (state.kinds[i] === 'entry' && state.values[i] && state.values[i] !== answerDigits[i]) wrong.push(i);
      if (!state.values[i] || state.kinds[i] === 'solved' || wrong.includes(i)) state.kinds[i] = 'solved';
      state.values[i] = answerDigits[i] ?? '';
    }
    if (state.mode === 'play') {
      state.solution = answerDigits;
      state.solutionOf = givensString();
      stopTimer();
    }
    renderAll();
    const how = `${plural(stats.guesses, 'guess', 'guesses')}, ${en(stats.micros)} µs`;
    status.className = unique ? '' : 'warn';
    status.textContent = unique
      ? `Solved. The solution is unique (${how}).`
      : `Solved, but this board has more than one solution; this is one of them (${how}). A proper puzzle has exactly one.`;
    if (wrong.length)
      status.textContent += ` ${plural(wrong.length, 'entry was', 'entries were')} wrong and now show the solution's digit.`;
    reveal($('messages'));
    if (unique && !state.difficulty) void grade();
    return;
  }
  if (!answer.ok) showProblemAnswer(answer.error);
}

/** One line of a batch on the board, brought into view: solved again on its own, so its problems are located; Solve then sends this board. */
export async function showLine(line: string): Promise<void> {
  if (state.busy) return;
  clearMessages();
  remember();
  showBoard(parseBoard(line));
  state.source = 'board';
  text.value = line;
  board.scrollIntoView({ block: 'start', behavior: 'instant' });
  focusCell(0);
  await solveOne(line);
  requestAnimationFrame(() => board.scrollIntoView({ block: 'nearest', behavior: 'instant' }));
}
