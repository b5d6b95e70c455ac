import { LEVELS, type Level } from '../sudoku/logic/names.js';
import { boardFailure } from './board-failure.js';
import { locateInQuery } from './problem-location.js';
import { ClientError } from './problems.js';
import { jsonResponse } from './responses.js';
import type { HttpRequest, HttpResponse } from './types.js';

export interface PuzzleResponse {
  /** 81 characters, '.' for empty cells. */
  puzzle: string;
  solution: string;
  level: Level;
  score: number;
  seed: number;
}

/**
 * Attempts one GET /puzzle may make before it answers 422 GENERATION_LIMIT ("try another seed").
 * A fixed count, not a time, so a seed gives the same answer on every machine. Over seeds 1-150
 * (2026-12-02, 2-vCPU AMD EPYC, Node 24) an attempt took 0.10-0.25 ms and a level needed at most
 * 162 attempts (`extreme`, 25 on average; the others at most 40), so 200 stay far inside the
 * 250 ms budget even at half that speed.
 */
export const PUZZLE_MAX_ATTEMPTS = 200;

/**
 * The same with `symmetric=true`. Few symmetric carvings are minimal (pairs come off together, and
 * an attempt with a lone removable given is dropped before it is graded), so symmetric puzzles
 * take many more attempts (seeds 1-150: `easy` 155 on average, p95 385; `medium` 330; `hard`
 * 452; `expert` 140; `extreme` 726), each cheaper (0.08 ms): with 200, a third of `easy` seeds and
 * most `hard` ones failed. 1000 attempts are about 80 ms, inside the budget at half that speed;
 * over seeds 1-100, none failed at `easy` or `expert`, 5 at `medium`, 11 at `hard`, 26 at `extreme`.
 */
export const PUZZLE_MAX_SYMMETRIC_ATTEMPTS = 1000;

const PARAMETERS = ['level', 'seed', 'symmetric'];
const MAX_SEED = 0xffff_ffff;

function invalid(parameter: string, detail: string): ClientError {
  return new ClientError('invalidParameter', detail, { parameter });
}

/** The query's parameters; 400 for an unknown or repeated one. */
function readQuery(query: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(query)) {
    if (!PARAMETERS.includes(name)) {
      throw invalid(
        name.slice(0, 40),
        `Unknown query parameter "${name.slice(0, 40)}"; GET /puzzle takes ${PARAMETERS.join(', ')}.`,
      );
    }
    if (found.has(name)) throw invalid(name, `The query parameter "${name}" is given more than once.`);
    found.set(name, value);
  }
  return found;
}

/**
 * GET /puzzle?level=L[&seed=S][&symmetric=true]: a unique, minimal puzzle at level L. The same seed
 * (an integer 0-4294967295) gives the same puzzle; without one a random seed is drawn, and the
 * answer names it so the puzzle can be fetched again.
 */
export async function puzzleRoute(request: HttpRequest): Promise<HttpResponse> {
  const query = readQuery(request.query);
  const levelText = query.get('level');
  if (levelText === undefined) {
    throw invalid('level', `GET /puzzle needs a level: ?level= one of ${LEVELS.join(', ')}.`);
  }
  if (!(LEVELS as readonly string[]).includes(levelText)) {
    throw invalid('level', `The level ${JSON.stringify(levelText.slice(0, 40))} is not one of ${LEVELS.join(', ')}.`);
  }
  const level = levelText as Level;
  const seedText = query.get('seed');
  let seed: number;
  if (seedText === undefined) seed = Math.floor(Math.random() * (MAX_SEED + 1));
  else if (/^\d{1,10}$/.test(seedText) && Number(seedText) <= MAX_SEED) seed = Number(seedText);
  else {
    throw invalid('seed', `The seed ${JSON.stringify(seedText.slice(0, 40))} is not an integer from 0 to ${MAX_SEED}.`);
  }
  const symmetricText = query.get('symmetric') ?? 'false';
  if (symmetricText !== 'true' && symmetricText !== 'false') {
    throw invalid('symmetric', `symmetric must be true or false; got ${JSON.stringify(symmetricText.slice(0, 40))}.`);
  }
  const { generatePuzzle } = await import('../sudoku/logic/generate.js');
  const outcome = generatePuzzle({
    level,
    seed,
    symmetric: symmetricText === 'true',
    maxAttempts: symmetricText === 'true' ? PUZZLE_MAX_SYMMETRIC_ATTEMPTS : PUZZLE_MAX_ATTEMPTS,
  });
  if (!outcome.ok) {
    // The seed is what the client changes: the problem says to try another.
    const failure = boardFailure(locateInQuery(outcome.problems, 'seed'));
    throw new ClientError('generationLimit', failure.detail, failure.extra);
  }
  const answer: PuzzleResponse = {
    puzzle: outcome.puzzle,
    solution: outcome.solution,
    level: outcome.grade.level,
    score: outcome.grade.score,
    seed: outcome.seed,
  };
  return jsonResponse(200, answer);
}
