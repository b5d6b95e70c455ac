// Every problem the API answers says where it is, in a field a program reads (issue 26): a JSON
// pointer into the body, or the query parameter; a text/plain error line names its line.
import { describe, expect, it } from 'vitest';
import {
  handleHttpEvent,
  MAX_SOLVE_MS,
  openApiDocument,
  SolveBudget,
  type HttpResponse,
} from '../../functions/http/index.js';
import { buildHttpApiEvent } from '../../twin/gateway/http-api-event.js';
import { PROBLEM_CODE, PROBLEM_CODES, type ProblemCode } from '../../functions/sudoku/index.js';
import { DUPLICATE, EASY, MULTIPLE, NO_SOLUTION, NO_SOLUTION_DEEP, toChars, toNumbers } from '../helpers/boards.js';
import { SchemaChecker, type Schema } from './json-schema-check.js';
import { openApiMismatches } from './openapi-conformance.js';

interface Sent {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  /** No time left: the first board searches only as far as the least allowance. */
  spent?: boolean;
}

/** Board `board` with cell (row, col), 1-based, set to `value`. */
function withCell<T>(board: T[][], row: number, col: number, value: T): T[][] {
  return board.map((cells, r) => cells.map((cell, c) => (r === row - 1 && c === col - 1 ? value : cell)));
}

const stringBoards: Record<string, string> = {
  length: '12345678.........9',
  'bad character': `${'.'.repeat(30)}x${'.'.repeat(50)}`,
  'bad character past the 81st cell': `${'.'.repeat(81)}x`,
  'repeated in a row and a box': DUPLICATE,
  'repeated in a column and a box': `1${'.'.repeat(8)}1${'.'.repeat(71)}`,
  'no solution': NO_SOLUTION,
};

const arrayBoards: Record<string, unknown> = {
  'wrong type': 42,
  'too few rows': [[1, 2, 3]],
  'a short row': toNumbers(EASY).map((row, r) => (r === 3 ? row.slice(0, 3) : row)),
  'a row that is not an array': toChars(EASY).map((row, r) => (r === 6 ? 'row' : row)),
  'a bad cell of strings': withCell(toChars(EASY), 5, 8, 'x'),
  'a bad cell of numbers': withCell(toNumbers(EASY), 2, 3, 'x' as unknown as number),
  'a digit out of range': withCell(toNumbers(EASY), 9, 9, 10),
  'repeated givens in an array': withCell(toNumbers(EASY), 1, 3, 5),
  'no solution as an array': toChars(NO_SOLUTION),
};

const boards = { ...stringBoards, ...arrayBoards };

/** A proper puzzle's board with a given changed, and with an entry that is not the solution's. */
const GIVEN_CHANGED = `6${EASY.slice(1)}`;
const WRONG_ENTRY = `${EASY.slice(0, 2)}1${EASY.slice(3)}`;

const requests: Sent[] = [
  ...Object.values(boards).flatMap((board): Sent[] => [
    { method: 'POST', url: '/solve', body: { board } },
    { method: 'POST', url: '/grade', body: { board } },
    { method: 'POST', url: '/hint', body: { board } },
    { method: 'POST', url: '/hint', body: { puzzle: board, board: EASY } },
  ]),
  { method: 'POST', url: '/solve', body: { boards: [EASY, ...Object.values(boards)] } },
  { method: 'POST', url: '/grade', body: { boards: [EASY, MULTIPLE, ...Object.values(boards)] } },
  { method: 'POST', url: '/solve', body: { board: NO_SOLUTION_DEEP }, spent: true },
  { method: 'POST', url: '/solve', body: { boards: [NO_SOLUTION_DEEP] }, spent: true },
  { method: 'POST', url: '/hint', body: { board: NO_SOLUTION_DEEP }, spent: true },
  { method: 'POST', url: '/grade', body: { board: MULTIPLE } },
  { method: 'POST', url: '/hint', body: { board: MULTIPLE } },
  { method: 'POST', url: '/hint', body: { puzzle: MULTIPLE, board: toNumbers(EASY) } },
  { method: 'POST', url: '/hint', body: { puzzle: EASY, board: GIVEN_CHANGED } },
  { method: 'POST', url: '/hint', body: { puzzle: EASY, board: toChars(WRONG_ENTRY) } },
  { method: 'POST', url: '/hint', body: { puzzle: EASY, board: 'x' } },
  // No extreme symmetric puzzle is found in the attempts allowed from this seed.
  { method: 'GET', url: '/puzzle?level=extreme&seed=3&symmetric=true' },
];

async function send(sent: Sent): Promise<HttpResponse> {
  const event = buildHttpApiEvent({
    method: sent.method,
    url: sent.url,
    headers: { 'content-type': 'application/json' },
    ...(sent.body === undefined ? {} : { body: JSON.stringify(sent.body) }),
  });
  // A stopped clock: a loaded machine must not turn a batch into a 413 before its problems are listed.
  return await handleHttpEvent(event, undefined, new SolveBudget(sent.spent ? 0 : MAX_SOLVE_MS, () => 0));
}

/** The value a JSON pointer (RFC 6901) names in `document`, or undefined if it names none. */
function resolvePointer(document: unknown, pointer: string): unknown {
  let value = document;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

type Located = { code: ProblemCode; pointer?: string; parameter?: string; row?: number; col?: number };

/** Every problem object in an answer: a problem+json's `problems`, and those of each batch result. */
function problemsIn(answer: unknown): Located[] {
  const body = answer as { problems?: Located[]; results?: { problems?: Located[] }[] };
  return [...(body.problems ?? []), ...(body.results ?? []).flatMap((result) => result.problems ?? [])];
}

describe('every problem has a place a program can read', () => {
  const seen = new Set<ProblemCode>();

  it('on every route: a pointer to the value of the body at fault, or the query parameter', async () => {
    for (const sent of requests) {
      const response = await send(sent);
      const what = `${sent.url} ${JSON.stringify(sent.body)?.slice(0, 120)} -> ${response.body.slice(0, 300)}`;
      expect(
        openApiMismatches(openApiDocument, {
          method: sent.method,
          path: sent.url.split('?')[0]!,
          status: response.statusCode,
          contentType: response.headers['content-type'],
          body: response.body,
        }),
        what,
      ).toEqual([]);
      const problems = problemsIn(JSON.parse(response.body));
      expect(problems.length, what).toBeGreaterThan(0);
      for (const problem of problems) {
        seen.add(problem.code);
        if (sent.method === 'GET') {
          expect(problem.parameter, what).toBe('seed');
          continue;
        }
        expect(problem.pointer, what).toBeDefined();
        const value = resolvePointer(sent.body, problem.pointer!);
        expect(value, `${problem.pointer} in ${what}`).not.toBeUndefined();
        // A cell of a 9x9 array is pointed at itself, not only at its board.
        const row = problem.row === undefined ? undefined : resolvePointer(value, `/${problem.row - 1}`);
        if (Array.isArray(value) && problem.col !== undefined && Array.isArray(row))
          expect(problem.pointer, what).toMatch(new RegExp(`/${problem.row! - 1}/${problem.col - 1}$`));
      }
    }
  });

  it('the walk reached every problem code the core has', async () => {
    expect([...seen].sort()).toEqual([...PROBLEM_CODES].sort());
  });

  it('points into the board the problem is about: a cell, a row, the board, a batch item, the puzzle', async () => {
    const pointers = async (sent: Sent) =>
      problemsIn(JSON.parse((await send(sent)).body)).map((p) => [p.code, p.pointer]);
    expect(await pointers({ method: 'POST', url: '/solve', body: { board: stringBoards.length } })).toEqual([
      [PROBLEM_CODE.WRONG_LENGTH, '/board'],
    ]);
    expect(
      await pointers({ method: 'POST', url: '/solve', body: { board: arrayBoards['a bad cell of strings'] } }),
    ).toEqual([[PROBLEM_CODE.BAD_CHARACTER, '/board/4/7']]);
    expect(await pointers({ method: 'POST', url: '/solve', body: { board: arrayBoards['a short row'] } })).toEqual([
      [PROBLEM_CODE.WRONG_SHAPE, '/board/3'],
    ]);
    expect(await pointers({ method: 'POST', url: '/solve', body: { boards: [EASY, NO_SOLUTION] } })).toEqual([
      [PROBLEM_CODE.NO_SOLUTION, '/boards/1'],
    ]);
    expect(await pointers({ method: 'POST', url: '/hint', body: { puzzle: MULTIPLE, board: EASY } })).toEqual([
      [PROBLEM_CODE.MULTIPLE_SOLUTIONS, '/puzzle'],
    ]);
    expect(
      await pointers({ method: 'POST', url: '/hint', body: { puzzle: EASY, board: toChars(WRONG_ENTRY) } }),
    ).toEqual([[PROBLEM_CODE.CONTRADICTS_SOLUTION, '/board/0/2']]);
  });

  it('a text/plain error line names its line, whatever its problems', async () => {
    const lines = Object.values(stringBoards);
    const response = await handleHttpEvent(
      buildHttpApiEvent({
        method: 'POST',
        url: '/solve',
        headers: { 'content-type': 'text/plain' },
        body: [EASY, '', ...lines, NO_SOLUTION_DEEP].join('\n'),
      }),
      undefined,
      new SolveBudget(MAX_SOLVE_MS, () => 0),
    );
    const out = response.body.split('\n');
    expect(out).toHaveLength(lines.length + 3);
    out.slice(2).forEach((line, i) => {
      expect(line).toMatch(new RegExp(`^error line ${i + 3}: [A-Z_]+: `));
    });
  });

  it('the OpenAPI document requires the place: a problem without pointer or parameter is not valid', async () => {
    const checker = new SchemaChecker(openApiDocument as unknown as Schema);
    const problem = openApiDocument.components.schemas.Problem as unknown as Schema;
    const bare = { code: PROBLEM_CODE.NO_SOLUTION, message: 'No solution.' };
    expect(checker.errors(bare, problem)).not.toEqual([]);
    expect(checker.errors({ ...bare, row: 1, col: 1 }, problem)).not.toEqual([]);
    expect(checker.errors({ ...bare, pointer: '/board' }, problem)).toEqual([]);
    expect(checker.errors({ ...bare, pointer: '/boards/3', index: 3 }, problem)).toEqual([]);
    expect(checker.errors({ ...bare, parameter: 'seed' }, problem)).toEqual([]);
    expect(checker.errors({ ...bare, pointer: 'board' }, problem)).not.toEqual([]);
  });
});
