// One request of more boards than MAX_BOARDS is refused by one function: /solve (JSON and text)
// and /grade answer the same 413, so the limit and its advice cannot be worded two ways.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_BOARDS } from '../../functions/http/constants.js';
import { gradeRoute } from '../../functions/http/grade-route.js';
import { ClientError } from '../../functions/http/problems.js';
import { SolveBudget } from '../../functions/http/solve-budget.js';
import { solveJsonBody } from '../../functions/http/solve-json.js';
import { solveTextBody } from '../../functions/http/solve-text.js';
import { EASY } from '../helpers/boards.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tooMany = JSON.stringify({ boards: Array(MAX_BOARDS + 1).fill(EASY) });
const budget = () => new SolveBudget(60_000);

/** The ClientError a call throws, or rejects with when it is asynchronous (/grade loads its grader first). */
async function refusal(call: () => unknown): Promise<ClientError> {
  try {
    await call();
  } catch (error) {
    if (error instanceof ClientError) return error;
    throw error;
  }
  throw new Error('the request was not refused');
}

describe('too many boards', () => {
  it('POST /solve and POST /grade refuse one board over the limit with the same 413 answer', async () => {
    const solve = await refusal(() => solveJsonBody(tooMany, budget()));
    const grade = await refusal(() =>
      gradeRoute(
        {
          method: 'POST',
          path: '/grade',
          headers: { 'content-type': 'application/json' },
          body: tooMany,
          isBase64Encoded: false,
          requestId: 'r',
          query: '',
        },
        budget(),
      ),
    );
    const text = await refusal(() => solveTextBody(`${EASY}\n`.repeat(MAX_BOARDS + 1), budget()));
    for (const error of [solve, grade, text]) {
      expect(error.problemType).toBe('tooManyBoards');
      expect(error.extra).toEqual({ limit: MAX_BOARDS });
    }
    expect(grade.detail).toBe(solve.detail);
    expect(solve.detail).toBe(
      `"boards" holds ${MAX_BOARDS + 1} boards; the limit is ${MAX_BOARDS} per request. Split them over several requests.`,
    );
    expect(text.detail.endsWith(solve.detail.slice(solve.detail.indexOf(';')))).toBe(true);
  });

  it('is raised in one place: only http/board-count.ts throws too-many-boards', () => {
    const raising = readdirSync(path.join(root, 'functions/http'))
      .filter((f) => f.endsWith('.ts'))
      .filter((f) =>
        /new ClientError\(\s*'tooManyBoards'/.test(readFileSync(path.join(root, 'functions/http', f), 'utf8')),
      );
    expect(raising).toEqual(['board-count.ts']);
  });
});
