import { finishRun } from './answers.js';
import { download } from './download.js';
import { SudokuHttpError, SudokuProblemError } from '../../client/index.js';
import { client } from './api.js';
import { csvFields } from './csv.js';
import { $, button, en, fileNote, plural, refuseFile, results } from './dom.js';
import { errorLine } from '../../formats/error-line.js';
import { type BatchRun, type FileFormat, state } from './state.js';

/**
 * Many puzzles (a file or the text box): sent as text/plain lines through the client, which cuts
 * them into requests within the API's limits, keeps a few in flight and waits out the throttle;
 * progress shown, and the answers kept in order as they arrive, line i answering line i,
 * downloadable as they are.
 */
export async function solveFile(body: string, name: string, format: FileFormat, gz: boolean): Promise<void> {
  if (state.batch) state.batch.controller.abort();
  results.hidden = true;
  fileNote.textContent = '';
  let rows = body.split('\n');
  if (rows.length > 1 && rows[rows.length - 1] === '') rows.pop();
  rows = rows.map((r) => r.replace(/\r$/, ''));
  let header: string[] | null = null;
  let parsed: string[][] | null = null;
  let puzzles = rows;
  if (format === 'csv') {
    header = csvFields(rows[0] ?? '');
    const names = header.map((h) => h.trim().toLowerCase());
    const column = names.findIndex((h) => ['puzzle', 'puzzles', 'quizzes', 'quiz'].includes(h));
    if (column < 0)
      return refuseFile(
        `${name} was not read: its CSV header has no puzzle column; name it puzzle or quizzes. Found: ${header.slice(0, 10).join(', ')}.`,
      );
    rows = rows.slice(1);
    parsed = rows.map(csvFields);
    puzzles = parsed.map((f) => (f[column] ?? '').trim());
  }
  const count = puzzles.filter((line) => line.trim() !== '').length;
  if (count === 0) return refuseFile(`${name} holds no puzzles: put one 81-character puzzle on each line.`);
  const answers = new Array<string | undefined>(puzzles.length);
  const controller = new AbortController();
  const run: BatchRun = {
    controller,
    name,
    format,
    gz,
    header,
    parsed,
    rows,
    puzzles,
    answers,
    done: 0,
    failed: 0,
    waits: 0,
    count,
  };
  state.batch = run;
  $('progress-box').hidden = false;
  button('cancel').disabled = false;
  $('download-so-far').hidden = false;
  progress(run);
  try {
    await client.solveLines(puzzles, {
      signal: controller.signal,
      onResults: (start, lines) => {
        for (let k = 0; k < lines.length; k++) answer(run, start + k, lines[k] ?? '');
        progress(run);
      },
      // The throttle (429) and a full pool (500 from the gateway) are waited out by the client.
      onRetry: (event) => {
        if (event.status === undefined) return;
        run.waits++;
        progress(run);
      },
    });
  } catch (error) {
    if (!controller.signal.aborted) failRest(run, reason(error));
  }
  if (state.batch !== run) return;
  state.batch = null;
  finishRun(run, controller.signal.aborted);
}

function answer(run: BatchRun, i: number, line: string): void {
  run.answers[i] = line;
  if (line.startsWith('error ')) run.failed++;
  run.done++;
}

/** Why the lines still unanswered got none, as the code and message of their error lines. */
function reason(error: unknown): string {
  if (error instanceof SudokuHttpError && (error.status === 429 || error.status >= 500))
    return `THROTTLED: the API kept answering ${error.status}`;
  if (error instanceof SudokuHttpError) return `HTTP_${error.status}: ${error.text}`;
  if (error instanceof SudokuProblemError) return `HTTP_${error.status}: ${error.detail || error.title}`;
  return 'UNREACHABLE: the API could not be reached';
}

/** Every line not answered yet gets an error line saying why (a blank line stays blank). */
function failRest(run: BatchRun, why: string): void {
  for (let i = 0; i < run.answers.length; i++)
    if (run.answers[i] === undefined) answer(run, i, (run.puzzles[i] ?? '').trim() === '' ? '' : errorLine(i + 1, why));
}

function progress(run: BatchRun): void {
  const bar = $<HTMLProgressElement>('progress');
  bar.max = run.puzzles.length;
  bar.value = run.done;
  $('progress-text').textContent =
    `${run.name}: ${en(run.done)} of ${plural(run.puzzles.length, 'line', 'lines')} answered${run.failed ? `, ${en(run.failed)} not solved` : ''}${run.waits ? ` (waited out the API's throttle ${plural(run.waits, 'time', 'times')})` : ''}.`;
}

export function wireBatch(): void {
  // Answers are downloadable as they finish: the lines answered so far, in order, from the first.
  $('download-so-far').addEventListener('click', () => {
    if (state.batch) void download(state.batch);
  });
  $('cancel').addEventListener('click', () => {
    if (state.batch) state.batch.controller.abort();
  });
}
