import { SudokuClient, SudokuHttpError, SudokuProblemError } from '../../client/index.js';
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

/**
 * The API, through the typed client (functions/client/): the page and the API share an origin and a
 * stage, so its routes sit beside the page.
 */
export const client = new SudokuClient({ baseUrl: new URL('.', location.href).href });

/** An answer of the API that is not what was asked: the function's problem document, or the gateway's own. */
export type ApiError = SudokuProblemError | SudokuHttpError;

export type Called<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** A route of the toolkit that this server does not have (404): its controls go, with a word why. */
export function missing(route: 'puzzle' | 'hint', what: string): void {
  unavailable.add(route);
  button(route === 'puzzle' ? 'new' : 'hint').disabled = true;
  if (route === 'puzzle') $<HTMLSelectElement>('level').disabled = true;
  status.className = 'warn';
  status.textContent = `${what} is not available on this server yet (it has no ${route} route).`;
  reveal(status);
}

/**
 * A call of the API while the page waits (Solve and the others wait too, unless `quiet`): its value,
 * or the error answer to show. Undefined when the API could not be reached (said in the alert,
 * unless quiet).
 */
export async function call<T>(work: (api: SudokuClient) => Promise<T>, quiet = false): Promise<Called<T> | undefined> {
  if (!quiet) {
    state.busy = true;
    solveButton.setAttribute('aria-disabled', 'true');
  }
  try {
    return { ok: true, value: await work(client) };
  } catch (error) {
    if (error instanceof SudokuProblemError || error instanceof SudokuHttpError) return { ok: false, error };
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
export function showProblemAnswer(error: ApiError): void {
  const list = error instanceof SudokuProblemError && error.problems.length ? error.problems : null;
  const total = error instanceof SudokuProblemError ? error.problemsTotal : 0;
  const detail = error instanceof SudokuProblemError ? error.detail : '';
  const title =
    error.status === 422 && list?.[0]?.code === PROBLEM_CODE.NO_SOLUTION
      ? 'This board has no solution.'
      : error.status === 422 && list
        ? `${error instanceof SudokuProblemError && error.title ? error.title : 'The board cannot be solved as it is'}.`
        : list
          ? `The board cannot be solved as it is: ${total === 1 ? 'one problem' : `${en(total)} problems`}.`
          : `The API answered ${error.status}: ${error instanceof SudokuProblemError ? error.title : error.text}`;
  problems(title, list ?? (detail ? [{ message: detail }] : []), total);
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
export function problems(title: string, list: readonly Problem[], total = list.length): void {
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
