/**
 * The solver benchmark: every shared puzzle set, both modes (first solution; count to two, which
 * is what proving uniqueness costs), against the reference backtracking measured in the same run.
 * Every answer is verified. Figures are medians of several timed runs after a warm-up.
 */
import { countSolutions, lastGuessCount, parseBoardString, solveBoard, type Cells } from '../functions/sudoku/index.js';
import { BENCH_SETS, readPuzzleSet } from '../test/helpers/puzzle-sets.js';
import { isValidSolution } from '../test/helpers/sudoku-rules.js';
import { ReferenceTimeout, solveReference, toCharBoard } from './reference-backtracking.js';

/** Half of tdoku (C++ SIMD, one thread, same kind of machine): first solution / count to two. */
const TARGETS: Record<string, [number, number]> = {
  puzzles2_17_clue: [118_000, 119_000],
  puzzles3_magictour_top1465: [64_000, 44_000],
  'puzzles5_forum_hardest_1905_11+': [13_950, 7_550],
  puzzles6_forum_hardest_1106: [8_800, 4_850],
};

const REFERENCE_CAP_MS = Number(process.env.BENCH_REFERENCE_MS ?? 3000);
const PER_PUZZLE_MS = 500;
const MIN_RUN_MS = 1500;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface ModeResult {
  perSecond: number;
  guessesPerPuzzle: number;
}

/**
 * Time one mode over the whole set. The warm-up run verifies every answer against the rules (and
 * throws on a wrong one); the timed runs, identical computations, check the solution counts only,
 * so the figures are the solver's and not the checker's.
 */
function timeMode(boards: Cells[], expected: number[], limit: number, runs: number): ModeResult {
  const out = new Uint8Array(81);
  let guesses = 0;
  for (let i = 0; i < boards.length; i++) {
    const count = countSolutions(boards[i]!, limit, out);
    guesses += lastGuessCount();
    if (count !== Math.min(expected[i]!, limit) || !isValidSolution(boards[i]!, out)) {
      throw new Error(`wrong answer on puzzle ${i + 1}: ${count} solutions (limit ${limit})`);
    }
  }
  const rates: number[] = [];
  for (let run = 0; run < runs; run++) {
    let elapsed = 0;
    let done = 0;
    let wrongCounts = 0;
    // Small sets are repeated until a run lasts long enough to time.
    do {
      const start = performance.now();
      for (let i = 0; i < boards.length; i++) {
        if (countSolutions(boards[i]!, limit, out) !== Math.min(expected[i]!, limit)) wrongCounts++;
      }
      elapsed += performance.now() - start;
      done += boards.length;
    } while (elapsed < MIN_RUN_MS);
    if (wrongCounts) throw new Error(`${wrongCounts} wrong solution counts (limit ${limit})`);
    rates.push((done / elapsed) * 1000);
  }
  return { perSecond: median(rates), guessesPerPuzzle: guesses / boards.length };
}

/**
 * The reference on the set's puzzles in order, each capped at PER_PUZZLE_MS and the set at
 * REFERENCE_CAP_MS; answers verified. Time spent on abandoned puzzles counts, so its rate is an
 * upper bound and the ratios are lower bounds.
 */
function timeReference(
  puzzles: string[],
  boards: Cells[],
): { perSecond: number; finished: number; tried: number; seconds: number } {
  const start = performance.now();
  let finished = 0;
  let tried = 0;
  for (let i = 0; i < puzzles.length && performance.now() - start < REFERENCE_CAP_MS; i++) {
    const board = toCharBoard(puzzles[i]!);
    tried++;
    try {
      if (!solveReference(board, performance.now() + PER_PUZZLE_MS))
        throw new Error(`reference found no solution for puzzle ${i + 1}`);
    } catch (e) {
      if (e instanceof ReferenceTimeout) continue;
      throw e;
    }
    if (!isValidSolution(boards[i]!, board.flat().map(Number)))
      throw new Error(`reference answer wrong on puzzle ${i + 1}`);
    finished++;
  }
  const seconds = (performance.now() - start) / 1000;
  return { perSecond: finished / seconds, finished, tried, seconds };
}

const fmt = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2));

export async function run(): Promise<void> {
  process.stderr.write('solver: timing every set in both modes and the reference (about 2 minutes)...\n');
  const rows: string[] = [];
  const targetRows: string[] = [];
  for (const name of BENCH_SETS) {
    const puzzles = readPuzzleSet(name);
    const boards = puzzles.map((p) => {
      const parsed = parseBoardString(p);
      if (!parsed.ok) throw new Error(`${name}: unparsable puzzle ${p}`);
      return parsed.board.cells;
    });
    // Every set has unique puzzles except serg_benchmark, whose puzzles all have several solutions.
    const expected = boards.map(() => (name === 'puzzles7_serg_benchmark' ? 2 : 1));
    const runs = boards.length > 5000 ? 3 : 5;
    const first = timeMode(boards, expected, 1, runs);
    const count2 = timeMode(boards, expected, 2, runs);
    const reference = timeReference(puzzles, boards);
    // With nothing finished the reference rate is below 1 per elapsed time: the ratio is a bound.
    const ratio = (x: number): string =>
      reference.finished ? `${fmt(x / reference.perSecond)}x` : `> ${fmt(x * reference.seconds)}x`;
    rows.push(
      `| ${name} | ${boards.length.toLocaleString('en-US')} | ${fmt(first.perSecond)} | ${fmt(1e6 / first.perSecond)} | ${fmt(first.guessesPerPuzzle)} | ` +
        `${fmt(count2.perSecond)} | ${fmt(1e6 / count2.perSecond)} | ${fmt(count2.guessesPerPuzzle)} | ` +
        `${fmt(reference.perSecond)} (${reference.finished} of ${reference.tried} in ${fmt(reference.seconds)} s) | ${ratio(first.perSecond)} | ${ratio(count2.perSecond)} |`,
    );
    const target = TARGETS[name];
    if (target) {
      const pct = (x: number, t: number): string => `${Math.round((x / t) * 100)}%`;
      targetRows.push(
        `| ${name} | ${fmt(first.perSecond)} / ${fmt(target[0])} (${pct(first.perSecond, target[0])}) | ${fmt(count2.perSecond)} / ${fmt(target[1])} (${pct(count2.perSecond, target[1])}) |`,
      );
    }
  }

  // What the service adds on top of the search: parse, conflict check, format, uniqueness.
  const easy = readPuzzleSet('puzzles2_17_clue').slice(0, 5000);
  for (const p of easy) solveBoard(p);
  const start = performance.now();
  for (const p of easy) if (!solveBoard(p).ok) throw new Error('solveBoard failed');
  const fullPath = (easy.length / (performance.now() - start)) * 1000;

  console.log('\n## Solver (single thread; puzzles/s = median of timed runs, every answer verified)\n');
  console.log(
    '| set | puzzles | first solution /s | µs | guesses | count to 2 /s | µs | guesses | reference backtracking /s (solved of tried) | ratio first | ratio count-2 |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
  console.log('\nAgainst the target (half of tdoku, native C++ with SIMD, on the same kind of machine):\n');
  console.log('| set | first solution: ours / target | count to 2: ours / target |');
  console.log('|---|---:|---:|');
  for (const row of targetRows) console.log(row);
  console.log(
    `\nFull solveBoard path (parse, conflict check, search to 2, format) on 17-clue: ${fmt(fullPath)} puzzles/s`,
  );
}
