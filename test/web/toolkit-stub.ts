/**
 * A TEST-ONLY stand-in for the toolkit routes of issue 24 (POST /grade, POST /hint, GET /puzzle),
 * in the shapes their docs give, for as long as main does not have them: installed on a browser
 * context with Playwright's request routing, so the page's own requests (same origin) are answered
 * here and never reach the local system. Nothing of it ships. Once the routes are merged, tests
 * drop `stubToolkit` and run against the real ones.
 */
import type { BrowserContext, Route } from 'playwright-core';
import { solveBoard } from '../../functions/sudoku/index.js';
import { EASY, EASY_SOLUTION } from '../helpers/boards.js';

const json = (route: Route, status: number, body: unknown) =>
  route.fulfill({
    status,
    contentType: status < 400 ? 'application/json' : 'application/problem+json',
    body: JSON.stringify(body),
  });

function solutionOf(board: string): string | undefined {
  const solved = solveBoard(board);
  return solved.ok ? (solved.solution as string) : undefined;
}

/** The first naked single of `board` (81 chars, '.' empty): the hint a person needs first. */
function nakedSingle(board: string) {
  for (let i = 0; i < 81; i++) {
    if (board[i] !== '.') continue;
    const r = Math.floor(i / 9);
    const c = i % 9;
    const seen = new Set<string>();
    const cells: { row: number; col: number }[] = [];
    for (let j = 0; j < 81; j++) {
      const rj = Math.floor(j / 9);
      const cj = j % 9;
      const peer =
        rj === r || cj === c || (Math.floor(rj / 3) === Math.floor(r / 3) && Math.floor(cj / 3) === Math.floor(c / 3));
      if (peer && j !== i && board[j] !== '.') seen.add(board[j]!);
    }
    const left = [...'123456789'].filter((d) => !seen.has(d));
    if (left.length !== 1) continue;
    cells.push({ row: r + 1, col: c + 1 });
    const digit = Number(left[0]);
    const message = `Row ${r + 1}, column ${c + 1} can only be ${digit}: every other digit is already in its row, column or box.`;
    return {
      steps: [{ technique: 'naked single', cells, eliminations: [], message }],
      placement: { row: r + 1, col: c + 1, digit },
      message,
    };
  }
  return undefined;
}

export async function stubToolkit(context: BrowserContext): Promise<void> {
  await context.route(/\/puzzle\?/, (route) => {
    const url = new URL(route.request().url());
    return json(route, 200, {
      puzzle: EASY,
      solution: EASY_SOLUTION,
      level: url.searchParams.get('level') ?? 'easy',
      score: 120,
      seed: Number(url.searchParams.get('seed')),
    });
  });
  await context.route(/\/grade$/, (route) => {
    const { board } = route.request().postDataJSON() as { board: string };
    return json(route, 200, {
      grade: { level: 'easy', score: 120, hardest: 'naked single', techniques: { 'naked single': 51 } },
      solution: solutionOf(board),
      unique: true,
    });
  });
  await context.route(/\/hint$/, (route) => {
    const body = route.request().postDataJSON() as { puzzle?: string; board: string };
    const solution = solutionOf(body.puzzle ?? body.board);
    for (let i = 0; i < 81 && solution; i++) {
      if (body.board[i] !== '.' && body.board[i] !== solution[i]) {
        const row = Math.floor(i / 9) + 1;
        const col = (i % 9) + 1;
        return json(route, 422, {
          type: 'tag:sudoku-serverless,2026:problem:contradicts-solution',
          title: 'The board contradicts the solution',
          status: 422,
          problems: [
            {
              code: 'CONTRADICTS_SOLUTION',
              message: `The ${body.board[i]} at row ${row}, column ${col} is wrong.`,
              row,
              col,
            },
          ],
          problemsTotal: 1,
        });
      }
    }
    return json(route, 200, { hint: nakedSingle(body.board) });
  });
}
