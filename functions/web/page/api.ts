import { PROBLEM_CODE } from '../../sudoku/types.js';
import { $, button, en, plural, problemsBox, reveal, solveButton, status } from './dom.js';
import { cells, renderAll } from './grid.js';
import { state, unavailable } from './state.js';

/** A cell an answer names (1-based, as the API's problems and hints do). */
export interface Place {
  row: number;
  col: number;
}

/** One problem of an application/problem+json answer (or a line the page says itself). */
export interface Problem {
  message: string;
  code?: string;
  row?: number;
  col?: number;
  cells?: Place[];
}

/** The JSON of the API's answers: the fields the page reads, by route (docs/http.md). */
export interface ApiJson {
  // problem+json
  type?: string;
  title?: string;
  detail?: string;
  message?: string;
  problems?: Problem[];
  problemsTotal?: number;
  // POST /solve, GET /puzzle, POST /grade
  solution?: string;
  unique?: boolean;
  stats?: { guesses: number; micros: number };
  puzzle?: string;
  level?: string;
  score?: number;
  grade?: { level: string; score: number; hardest?: string };
  // POST /hint
  hint?: {
    message?: string;
    steps?: { message: string; cells?: Place[] }[];
    placement?: Place & { digit: number };
  };
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: ApiJson | undefined;
}

/** A route of the toolkit that this server does not have (404): its controls go, with a word why. */
export function missing(route: 'puzzle' | 'hint', what: string): void {
  unavailable.add(route);
  button(route === 'puzzle' ? 'new' : 'hint').disabled = true;
  if (route === 'puzzle') $<HTMLSelectElement>('level').disabled = true;
  status.className = 'warn';
  status.textContent = `${what} is not available on this server yet (it has no ${route} route).`;
  reveal(status);
}

/** A request to the API (relative: the page and the API share an origin and a stage). Undefined when it could not be sent. */
export async function request(
  path: string,
  body?: string,
  quiet = false,
  signal?: AbortSignal,
): Promise<ApiAnswer | undefined> {
  if (!quiet) {
    state.busy = true;
    solveButton.setAttribute('aria-disabled', 'true');
  }
  try {
    const init: RequestInit =
      body === undefined
        ? { signal }
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal };
    let response = await fetch(path, init);
    // Each route has its own throttle (GET /puzzle and POST /grade 1/s): a 429 is waited out a few times.
    for (let attempt = 0; response.status === 429 && attempt < 4; attempt++) {
      const after = Number(response.headers.get('retry-after'));
      await new Promise((resolve) => setTimeout(resolve, after > 0 ? after * 1000 : 500 * 2 ** attempt));
      response = await fetch(path, init);
    }
    const raw = await response.text();
    let json: ApiJson | undefined;
    if (/json/.test(response.headers.get('content-type') ?? '')) {
      try {
        json = JSON.parse(raw) as ApiJson;
      } catch {}
    }
    return { status: response.status, headers: response.headers, text: raw, json };
  } catch (error) {
    if (!quiet)
      problems('The API could not be reached.', [{ message: error instanceof Error ? error.message : String(error) }]);
    return undefined;
  } finally {
    if (!quiet) {
      state.busy = false;
      solveButton.removeAttribute('aria-disabled');
    }
  }
}

/** A problem+json answer (or a gateway error): every problem listed, its cells marked on the board. */
export function showProblemAnswer(answer: ApiAnswer): void {
  const details: ApiJson = answer.json ?? {};
  const list = Array.isArray(details.problems) && details.problems.length ? details.problems : null;
  const total = Math.max(Number(details.problemsTotal) || 0, list?.length ?? 0);
  const title =
    answer.status === 422 && list?.[0]?.code === PROBLEM_CODE.NO_SOLUTION
      ? 'This board has no solution.'
      : answer.status === 422 && list
        ? `${details.title ?? 'The board cannot be solved as it is'}.`
        : list
          ? `The board cannot be solved as it is: ${total === 1 ? 'one problem' : `${en(total)} problems`}.`
          : `The API answered ${answer.status}: ${details.title ?? details.message ?? answer.text.slice(0, 200)}`;
  problems(title, list ?? (details.detail ? [{ message: details.detail }] : []), total);
}

/**
 * A message's explanation (what follows its first '; ' or '. ') is said once: later problems with
 * the same explanation keep their first part only.
 */
export function shortener(): (message: string) => string {
  const seen = new Set<string>();
  return (message) => {
    const parts = message.split(/(?<=[;.]) (?=\S)/);
    const kept = parts.filter((part, n) => n === 0 || part.length < 20 || !seen.has(part));
    for (const part of parts) seen.add(part);
    return kept.join(' ').replace(/[;,]$/, '.');
  };
}

/** The alert: a title and the problems listed, each problem's cells marked and described by it. */
export function problems(title: string, list: Problem[], total = list.length): void {
  const heading = document.createElement('p');
  heading.textContent = title;
  const ul = document.createElement('ul');
  const shorten = shortener();
  list.forEach((problem, n) => {
    const li = document.createElement('li');
    li.id = `problem-${n + 1}`;
    li.textContent = shorten(problem.message);
    ul.append(li);
    const places = Array.isArray(problem.cells) ? problem.cells : problem.col ? [problem] : [];
    for (const { row, col } of places) {
      if (row === undefined || col === undefined) continue;
      const cell = cells[(row - 1) * 9 + (col - 1)];
      if (!cell) continue;
      cell.dataset.problem = 'true';
      const ids = (cell.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
      cell.setAttribute('aria-describedby', [...ids, li.id].join(' '));
    }
  });
  if (total > list.length) {
    const li = document.createElement('li');
    li.textContent = `… and ${plural(total - list.length, 'more problem', 'more problems')} (${en(total)} in all).`;
    ul.append(li);
  }
  renderAll();
  problemsBox.replaceChildren(heading, ...(list.length ? [ul] : []));
  reveal($('messages'));
}
