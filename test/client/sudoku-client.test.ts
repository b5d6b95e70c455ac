// Every method of SudokuClient against the twin's real HTTP gateway (the handler behind it, as
// `npm start` serves it): answers typed as the document says, errors thrown as typed values whose
// problems carry their places, and long lists answered exactly as one request of them all would be.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Board, SudokuClient, SudokuProblemError } from '../../functions/client/index.js';
import { handler } from '../../functions/handler/index.js';
import { type RunningHttpServer, startHttpServer } from '../../twin/gateway/http-server.js';
import {
  DUPLICATE,
  EASY,
  EASY_SOLUTION,
  HARD,
  HARD_SOLUTION,
  MULTIPLE,
  NO_SOLUTION,
  toChars,
  toNumbers,
} from '../helpers/boards.js';

let server: RunningHttpServer;
let client: SudokuClient;

beforeAll(async () => {
  server = await startHttpServer({ port: 0, handler });
  client = new SudokuClient({ baseUrl: `${server.url}/` });
});
afterAll(() => server.close());

const thrown = async (call: Promise<unknown>): Promise<SudokuProblemError> => {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SudokuProblemError);
  return error as SudokuProblemError;
};

/** What one raw `{"boards"}` request answers, for comparing the client's cut run with it. */
async function oneRequest(boards: unknown[]): Promise<unknown[]> {
  const response = await fetch(`${server.url}/solve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ boards }),
  });
  return ((await response.json()) as { results: unknown[] }).results;
}

/** A result without its timing, which differs from run to run. */
const untimed = (result: unknown) => {
  const { stats, ...rest } = result as { stats?: { guesses: number } };
  return stats ? { ...rest, guesses: stats.guesses } : rest;
};

describe('SudokuClient against the twin', () => {
  it('solve answers in the shape sent: a string, 9x9 characters, 9x9 numbers', async () => {
    expect(await client.solve(EASY)).toMatchObject({ solution: EASY_SOLUTION, unique: true });
    expect((await client.solve(toChars(HARD) as Board)).solution).toEqual(toChars(HARD_SOLUTION));
    expect((await client.solve(toNumbers(EASY))).solution).toEqual(toNumbers(EASY_SOLUTION));
  });

  it('solve throws a bad board as a SudokuProblemError with every problem and its place', async () => {
    const duplicate = await thrown(client.solve(DUPLICATE));
    expect(duplicate).toMatchObject({
      code: 'invalid-board',
      status: 400,
      type: 'tag:sudoku-serverless,2026:problem:invalid-board',
      title: 'Invalid board',
      route: 'POST /solve',
    });
    expect(duplicate.detail).not.toBe('');
    expect(duplicate.problems[0]).toMatchObject({
      code: 'DUPLICATE_IN_ROW',
      row: 1,
      col: 2,
      cells: [
        { row: 1, col: 1 },
        { row: 1, col: 2 },
      ],
      pointer: '/board',
    });
    const cell = toChars(EASY);
    cell[4]![7] = 'x' as never;
    expect((await thrown(client.solve(cell as Board))).problems[0]).toMatchObject({
      code: 'BAD_CHARACTER',
      pointer: '/board/4/7',
    });
    const none = await thrown(client.solve(NO_SOLUTION));
    expect(none).toMatchObject({ code: 'unsolvable-board', status: 422 });
    expect(none.problems[0]).toMatchObject({ code: 'NO_SOLUTION', pointer: '/board' });
  });

  it('solveMany answers each board as one request of them all would, a bad board as a failed result', async () => {
    const boards = [EASY, DUPLICATE, HARD, 'x', NO_SOLUTION, toNumbers(EASY)];
    const results = await client.solveMany(boards);
    expect(results.map(untimed)).toEqual((await oneRequest(boards)).map(untimed));
    expect(results[1]).toMatchObject({ index: 1, status: 400, problemsTotal: 2 });
  });

  it('solveMany cuts 2,500 boards into requests and numbers a failure as in the whole list', async () => {
    const boards = Array.from({ length: 2500 }, (_, i) => (i === 1700 ? DUPLICATE : i % 2 ? EASY : HARD));
    const results = await client.solveMany(boards);
    expect(results).toHaveLength(2500);
    expect(results.every((r, i) => r.index === i)).toBe(true);
    expect(results[1700]).toMatchObject({
      status: 400,
      problems: [
        { code: 'DUPLICATE_IN_ROW', pointer: '/boards/1700', index: 1700 },
        { code: 'DUPLICATE_IN_BOX', pointer: '/boards/1700', index: 1700 },
      ],
    });
    expect(results.filter((r) => 'solution' in r)).toHaveLength(2499);
  });

  it('solveLines answers lines as text/plain does, an error line numbered from the first line', async () => {
    const lines = Array.from({ length: 2100 }, (_, i) => (i === 1500 ? DUPLICATE : i === 7 ? '' : EASY));
    const answers = await client.solveLines(lines);
    expect(answers).toHaveLength(2100);
    expect(answers[0]).toBe(EASY_SOLUTION);
    expect(answers[7]).toBe('');
    expect(answers[1500]).toMatch(/^error line 1501: DUPLICATE_IN_ROW: Digit 5 is given twice/);
    expect(answers[2099]).toBe(EASY_SOLUTION);
  });

  it('grade and gradeMany grade boards; a board with many solutions is a 422 not-unique-board', async () => {
    expect(await client.grade(EASY)).toMatchObject({ grade: { level: 'easy' }, solution: EASY_SOLUTION, unique: true });
    const many = await client.gradeMany([HARD, DUPLICATE, EASY]);
    expect(many.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(many[1]).toMatchObject({ status: 400 });
    expect(many[2]).toMatchObject({ grade: { level: 'easy' } });
    const notUnique = await thrown(client.grade(MULTIPLE));
    expect(notUnique).toMatchObject({ code: 'not-unique-board', status: 422 });
  });

  it('hint gives the next step; a wrong entry is a 422 CONTRADICTS_SOLUTION at its row and column', async () => {
    const { hint } = await client.hint({ puzzle: EASY, board: EASY });
    expect(hint.placement).not.toBeNull();
    const { row, col, digit } = hint.placement!;
    expect(Number(EASY_SOLUTION[(row - 1) * 9 + col - 1])).toBe(digit);
    const wrong = `${EASY.slice(0, 2)}${EASY_SOLUTION[2] === '1' ? '2' : '1'}${EASY.slice(3)}`;
    const contradicted = await thrown(client.hint({ puzzle: EASY, board: wrong }));
    expect(contradicted.status).toBe(422);
    expect(contradicted.problems).toContainEqual(
      expect.objectContaining({ code: 'CONTRADICTS_SOLUTION', row: 1, col: 3 }),
    );
  });

  it('puzzle generates the same puzzle for the same seed, and names a bad parameter', async () => {
    const first = await client.puzzle({ level: 'hard', seed: 3 });
    expect(await client.puzzle({ level: 'hard', seed: 3 })).toEqual(first);
    expect(first).toMatchObject({ level: 'hard', seed: 3 });
    const bad = await thrown(client.puzzle({ level: 'hard', seed: -1 }));
    expect(bad).toMatchObject({ code: 'invalid-parameter', status: 400, route: 'GET /puzzle' });
    expect(bad.details.parameter).toBe('seed');
  });

  it('health says ok; a base URL with no API behind it is a 404 not-found', async () => {
    expect(await client.health()).toEqual({ status: 'ok' });
    const elsewhere = new SudokuClient({ baseUrl: `${server.url}/v2` });
    expect(await thrown(elsewhere.solve(EASY))).toMatchObject({ code: 'not-found', status: 404 });
  });
});
