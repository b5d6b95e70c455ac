import { finishRun } from './answers.js';
import { download } from './download.js';
import { csvFields, utf8Length } from './csv.js';
import { $, button, en, fileNote, plural, refuseFile, results } from './dom.js';
import { ERROR_LINE_START, errorLine } from '../../formats/error-line.js';
import { MAX_BOARDS, MAX_BODY_BYTES } from '../../contract/api-limits.js';
import { PROBLEM_CODE } from '../../sudoku/types.js';
import { type BatchRun, type FileFormat, state } from './state.js';

/** Requests of a file in flight at once: well under the stage's burst, so 429s stay rare. */
const PARALLEL = 4;

/** Lines [from, to) of a run sent in one request. */
type Chunk = [from: number, to: number];

/**
 * Many puzzles (a file or the text box): split into requests within the API's limits (1000
 * puzzles, 1 MiB), PARALLEL at a time, 429s and throttled 500s waited out, progress shown, and
 * the answers kept in order, line i answering line i, downloadable as they are.
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
  const chunks: Chunk[] = [];
  let start = 0;
  let boards = 0;
  let bytes = 0;
  for (let i = 0; i < puzzles.length; i++) {
    const puzzle = puzzles[i] ?? '';
    const size = utf8Length(puzzle) + 1;
    if (size > MAX_BODY_BYTES - 1024) {
      answers[i] = errorLine(
        i + 1,
        `${PROBLEM_CODE.WRONG_LENGTH}: this line is ${en(size)} bytes, over the API's 1 MiB for a request: not a puzzle`,
      );
      if (i > start) chunks.push([start, i]);
      start = i + 1;
      boards = 0;
      bytes = 0;
      continue;
    }
    if (boards + 1 > MAX_BOARDS || bytes + size > MAX_BODY_BYTES - 1024) {
      chunks.push([start, i]);
      start = i;
      boards = 0;
      bytes = 0;
    }
    if (puzzle.trim() !== '') boards++;
    bytes += size;
  }
  if (start < puzzles.length) chunks.push([start, puzzles.length]);
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
  for (const a of answers) {
    if (!a) continue;
    run.done++;
    run.failed++;
  }
  $('progress-box').hidden = false;
  button('cancel').disabled = false;
  $('download-so-far').hidden = false;
  progress(run);
  const next = async () => {
    while (chunks.length && !controller.signal.aborted) {
      const chunk = chunks.shift()!;
      await sendChunk(run, chunk, chunks);
      progress(run);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, next));
  if (state.batch !== run) return;
  state.batch = null;
  finishRun(run, controller.signal.aborted);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

async function sendChunk(run: BatchRun, [from, to]: Chunk, queue: Chunk[]): Promise<void> {
  const lines = run.puzzles.slice(from, to);
  const signal = run.controller.signal;
  for (let attempt = 0; !signal.aborted; attempt++) {
    let response: Response;
    let raw = '';
    try {
      response = await fetch('solve', {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: lines.join('\n'),
        signal,
      });
      raw = await response.text();
    } catch {
      if (signal.aborted) return;
      if (attempt > 6) return failChunk(run, from, to, 'UNREACHABLE: the API could not be reached');
      await sleep(backoff(attempt), signal);
      continue;
    }
    if (response.status === 200) {
      const out = raw.split('\n');
      for (let i = from; i < to; i++) {
        const line = out[i - from] ?? '';
        // The API numbers the lines of its request; the page numbers those of the file.
        const answer = ERROR_LINE_START.test(line) ? errorLine(i + 1, line.replace(ERROR_LINE_START, '')) : line;
        run.answers[i] = answer;
        if (answer.startsWith('error ')) run.failed++;
        run.done++;
      }
      return;
    }
    // The throttle (429) and a full pool (500 from the gateway) pass: wait, then send again.
    if (response.status === 429 || response.status === 500 || response.status === 503) {
      run.waits++;
      const after = Number(response.headers.get('retry-after'));
      if (attempt > 12) return failChunk(run, from, to, `THROTTLED: the API kept answering ${response.status}`);
      await sleep(after > 0 ? after * 1000 : backoff(attempt), signal);
      continue;
    }
    let detail = raw.slice(0, 200);
    try {
      const json = JSON.parse(raw) as { detail?: string; message?: string };
      detail = json.detail ?? json.message ?? detail;
    } catch {
      // Not JSON (a gateway's plain answer): its first characters say what happened.
    }
    // Over a per-request bound (time, answer size): the same lines in two halves.
    if (response.status === 413 && to - from > 1) {
      const mid = from + Math.ceil((to - from) / 2);
      queue.unshift([from, mid], [mid, to]);
      return;
    }
    return failChunk(run, from, to, `HTTP_${response.status}: ${detail}`);
  }
}

const backoff = (attempt: number) => Math.min(8000, 250 * 2 ** attempt) * (0.5 + Math.random() / 2);

function failChunk(run: BatchRun, from: number, to: number, reason: string): void {
  for (let i = from; i < to; i++) {
    const answer = (run.puzzles[i] ?? '').trim() === '' ? '' : errorLine(i + 1, reason);
    run.answers[i] = answer;
    if (answer) run.failed++;
    run.done++;
  }
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
