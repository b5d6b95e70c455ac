import { ERROR_LINE_START } from '../../formats/error-line.js';
import { problems, shortener } from './api.js';
import { $, button, en, failedList, plural, results, resultsList, reveal, status } from './dom.js';
import { download, outputName } from './download.js';
import { showLine } from './solve.js';
import type { BatchRun } from './state.js';

/** Lines listed one by one under the answers; longer files list their failures only. */
const LIST_ALL = 1000;

/** A run ended (or was cancelled): its answers listed (or its failed lines, for a long file), summed up, offered for download. */
export function finishRun(run: BatchRun, cancelled: boolean): void {
  button('cancel').disabled = true;
  $('download-so-far').hidden = true;
  $('progress-box').hidden = !cancelled;
  const { name, puzzles, answers } = run;
  resultsList.replaceChildren();
  failedList.replaceChildren();
  const listAll = puzzles.length <= LIST_ALL;
  const failed: number[] = [];
  const shorten = shortener();
  answers.forEach((line, i) => {
    if (line === undefined) return;
    const error = line.startsWith('error ');
    if (error) failed.push(i);
    if (!listAll && (!error || failed.length > 200)) return;
    if (line === '' && (puzzles[i] ?? '').trim() === '') return;
    const li = document.createElement('li');
    li.value = i + 1;
    if (error) {
      li.className = 'failed';
      li.textContent = `Could not solve: ${plainWords(line, shorten)}`;
    } else {
      const code = document.createElement('span');
      code.className = 'answer';
      // Nine digits a row, each row unbroken: a narrow screen wraps between rows, never inside one.
      for (let r = 0; r < line.length; r += 9) {
        const group = document.createElement('span');
        group.textContent = line.slice(r, r + 9);
        code.append(group);
      }
      li.append(code);
    }
    const show = document.createElement('button');
    show.type = 'button';
    show.textContent = 'Show';
    show.setAttribute('aria-label', `Show line ${i + 1 + (run.header ? 1 : 0)} on the board`);
    show.addEventListener('click', () => void showLine(puzzles[i] ?? ''));
    li.append(show);
    (listAll ? resultsList : failedList).append(li);
  });
  failedList.hidden = listAll || failed.length === 0;
  const done = answers.filter((a) => a !== undefined).length;
  const solvedCount = answers.filter((a) => a && !a.startsWith('error ')).length;
  const what = `${name}: ${plural(run.count, 'puzzle', 'puzzles')}, ${en(solvedCount)} solved, ${en(failed.length)} not.`;
  $('results-summary').textContent =
    `${what} Answer line N answers puzzle line N.${cancelled ? ` Cancelled after ${en(done)} of ${en(puzzles.length)} lines: the download holds those answered.` : ''}` +
    (!listAll && failed.length > 200 ? ` The first 200 failed lines are listed; the download has them all.` : '') +
    (!listAll && failed.length === 0 ? ' Every line was solved.' : '');
  $('download').textContent = `Download the answers (${outputName(run)})`;
  button('download').onclick = () => void download(run);
  results.hidden = false;
  status.textContent = `Answered ${en(done)} of ${plural(puzzles.length, 'line', 'lines')}: ${en(solvedCount)} solved, ${en(failed.length)} not.`;
  // Failed lines are listed once, with the answers; the alert only counts them.
  if (failed.length)
    problems(
      `${en(failed.length)} of ${plural(run.count, 'puzzle', 'puzzles')} could not be solved: see the answers.`,
      [],
    );
  reveal(results);
}

/** `error line N: CODE: message; CODE: message` (functions/formats/error-line.ts) as the messages alone. */
function plainWords(line: string, shorten = (m: string) => m): string {
  return line
    .replace(ERROR_LINE_START, '')
    .split(/; (?=[A-Z_]+: )/)
    .map((part) => `${shorten(part.replace(/^[A-Z_]+: /, '')).replace(/\.$/, '')}.`)
    .join(' ');
}
