/**
 * The hostile requests: what a client can send the HTTP API to make one request as long as
 * possible, within the limits it enforces (1 MiB body, 1000 boards, the solving budget). The
 * worst-case bench (sections/hostile.ts) times each against the built bundle, cold and warm, to
 * measure W; the load bench (sections/load.ts) sends them as its attack mix.
 */
import { fullPuzzleSets } from './puzzle-sets.js';

export interface BenchRequest {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  contentType?: string;
  body?: string;
}

const MIB = 1024 * 1024;
const BOARDS = 1000;

/** Puzzle lines of one of the full sets (81 characters each). */
export function puzzleSet(name: string): string[] {
  return fullPuzzleSets()
    .read(name)
    .filter((line) => /^[.0-9]{81}$/.test(line));
}

/** `count` lines taken round-robin from `lines`. */
function take(lines: readonly string[], count: number): string[] {
  return Array.from({ length: count }, (_, i) => lines[i % lines.length]!);
}

/**
 * No rule broken by the givens, yet no solution, and only a search finds out: the solver settles it
 * in 8,213 guesses (~7 ms here), so 1,000 of them are ~7 s of search, which the budget cuts short.
 */
export const BUDGET_EXHAUSTER = '.....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........';

/**
 * A puzzle turned unsolvable: its first given changed to a digit that breaks no rule of the
 * givens (the solver has to find out). Puzzles where no such digit exists are skipped.
 */
function unsolvable(puzzle: string): string | undefined {
  const i = [...puzzle].findIndex((c) => c !== '.' && c !== '0');
  const row = Math.floor(i / 9);
  const col = i % 9;
  for (let d = 1; d <= 9; d++) {
    const digit = String(d);
    if (digit === puzzle[i]) continue;
    const peers = [...puzzle].filter((c, j) => {
      const r = Math.floor(j / 9);
      const k = j % 9;
      const sameBox = Math.floor(r / 3) === Math.floor(row / 3) && Math.floor(k / 3) === Math.floor(col / 3);
      return j !== i && (r === row || k === col || sameBox) && c === digit;
    });
    if (peers.length === 0) return puzzle.slice(0, i) + digit + puzzle.slice(i + 1);
  }
  return undefined;
}

const json = (value: unknown) => JSON.stringify(value);
const solve = (name: string, contentType: string, body: string): BenchRequest => ({
  name,
  method: 'POST',
  path: '/solve',
  contentType,
  body,
});

/** Every hostile request, each at the limits (bodies up to 1 MiB, 1000 boards). */
export function hostileRequests(): BenchRequest[] {
  const hardest = puzzleSet('puzzles6_forum_hardest_1106');
  const lines1MiB = take(hardest, Math.floor(MIB / 82)).join('\n');
  // 1000 lines in a 1 MiB body: each line padded with spaces (ignored by the parser) to ~1 KiB.
  const padded = take(hardest, BOARDS)
    .map((p) => p + ' '.repeat(Math.floor(MIB / BOARDS) - 82))
    .join('\n');
  const noSolution = take(
    hardest.map(unsolvable).filter((b): b is string => b !== undefined),
    BOARDS,
  );
  const badChars = 'x'.repeat(81);
  const allOnes = '1'.repeat(81);
  const requests = [
    solve('text/plain 1 MiB of the hardest puzzles (12,787 lines)', 'text/plain', lines1MiB),
    solve('text/plain 1 MiB: 1000 hardest lines, padded', 'text/plain', padded),
    solve('JSON 1000 hardest, 9x9 arrays', 'application/json', json({ boards: take(hardest, BOARDS).map(grid) })),
    solve('JSON 1000 hardest made unsolvable', 'application/json', json({ boards: noSolution })),
    solve(
      'JSON 1000 budget exhausters (no solution, deep)',
      'application/json',
      json({ boards: take([BUDGET_EXHAUSTER], BOARDS) }),
    ),
    solve('JSON 1 budget exhauster', 'application/json', json({ board: BUDGET_EXHAUSTER })),
    solve('JSON 1000 boards of 81 bad characters', 'application/json', json({ boards: take([badChars], BOARDS) })),
    solve('text/plain 1000 lines of 81 bad characters', 'text/plain', take([badChars], BOARDS).join('\n')),
    solve('JSON 1000 boards of 81 equal digits', 'application/json', json({ boards: take([allOnes], BOARDS) })),
  ];
  for (const r of requests) {
    if (Buffer.byteLength(r.body ?? '') > MIB) throw new Error(`${r.name}: body over 1 MiB`);
  }
  return requests;
}

/** A board as the 9x9 array of one-character strings (the widest accepted shape). */
function grid(board: string): string[][] {
  return Array.from({ length: 9 }, (_, r) => [...board.slice(r * 9, r * 9 + 9)]);
}
