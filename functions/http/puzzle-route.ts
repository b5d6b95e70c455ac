import { generatePuzzle, LEVELS, type Level } from '../sudoku/logic/index.js';
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
 * A fixed count, not a time, so a seed gives the same answer on every machine. An attempt took
 * 0.3-0.7 ms (loaded x86 core), so 200 stay well inside the 250 ms budget even at half that speed;
 * `extreme`, the rarest level, needed 24 attempts on average and at most 102 over seeds 1-100
 * (P(more than 200) ~ 2e-4); the other levels at most 40.
 */
export const PUZZLE_MAX_ATTEMPTS = 200;

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
export function puzzleRoute(request: HttpRequest): HttpResponse {
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
  const outcome = generatePuzzle({
    level,
    seed,
    symmetric: symmetricText === 'true',
    maxAttempts: PUZZLE_MAX_ATTEMPTS,
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
