/**
 * The solver benchmark. Every figure is measured in this run, on the same puzzles, on this
 * machine: our solveBoard (string in, string out, the path every adapter takes) in both modes
 * (first solution; count to two, which is what proving uniqueness costs), the reference
 * backtracking of LeetCode 37, and the fastest solver on npm (@algorithm.ts/sudoku, first
 * solution). The search alone is also timed against its TypeScript twin (bench/search-typescript.ts),
 * which says on the machine at hand whether the WebAssembly kernel still wins. tdoku is native code: its ratio comes from ../shared/tools/solver-vs-tdoku.mjs,
 * which runs both side by side on one pinned core. Every answer is verified.
 */
import { countSolutions, parseBoardString, type SearchResult, solveBoard } from '../functions/sudoku/index.js';
import { BENCH_SETS, fullPuzzleSets } from './puzzle-sets.js';
import { isValidSolution } from './sudoku-rules.js';
import { solveWithAlgorithmTs } from './npm-competitor.js';
import { ReferenceTimeout, solveReference, toCharBoard } from './reference-backtracking.js';
import { countSolutions as countSolutionsInTypeScript } from './search-typescript.js';

/** Each competitor gets this long per set, puzzles in file order; ours is then timed on the same ones. */
const COMPETITOR_CAP_MS = Number(process.env.BENCH_REFERENCE_MS ?? 3000);
const PER_PUZZLE_MS = 500;
const MIN_RUN_MS = 1500;

/** AWS Lambda arm64 in us-east-1: $ per GB-second and per request; the deployed memory (1 vCPU). */
const GB_SECOND_USD = 0.0000133334;
const REQUEST_USD = 0.2 / 1e6;
const MEMORY_MB = 1769;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const cellsOf = (p: string): Uint8Array => {
  const parsed = parseBoardString(p);
  if (!parsed.ok) throw new Error(`unparsable puzzle ${p}`);
  return parsed.board.cells;
};

/** The answer keeps the givens and obeys the rules. */
function checkAnswer(puzzle: string, answer: string, who: string): void {
  if (answer.length !== 81 || !isValidSolution(cellsOf(puzzle), Array.from(answer, Number)))
    throw new Error(`${who}: wrong answer for ${puzzle}`);
}

/** Puzzles/s of `solve` over `puzzles`: median of `runs` runs, each repeated to last MIN_RUN_MS. */
function rate<T>(puzzles: T[], solve: (p: T) => number, runs: number, minMs = MIN_RUN_MS): number {
  const rates: number[] = [];
  let sink = 0;
  for (let run = 0; run < runs; run++) {
    let elapsed = 0;
    let done = 0;
    do {
      const start = performance.now();
      for (let i = 0; i < puzzles.length; i++) sink += solve(puzzles[i]!);
      elapsed += performance.now() - start;
      done += puzzles.length;
    } while (elapsed < minMs);
    rates.push((done / elapsed) * 1000);
  }
  if (sink < 0) throw new Error('unreachable');
  return median(rates);
}

interface Competitor {
  /** Puzzles solved per second, over the `tried` first puzzles of the set. */
  perSecond: number;
  solved: number;
  tried: number;
  seconds: number;
}

/**
 * A competitor on the set's puzzles in order, within COMPETITOR_CAP_MS; answers verified. With a
 * per-puzzle deadline (the reference), time spent on abandoned puzzles counts, so its rate is an
 * upper bound and our ratio a lower bound.
 */
function timeCompetitor(
  puzzles: string[],
  who: string,
  solve: (p: string, deadline: number) => string | null,
): Competitor {
  // Warm-up, so the competitor's code is optimized as ours is by its verification pass.
  const warm = performance.now();
  for (let i = 0; i < puzzles.length && performance.now() - warm < COMPETITOR_CAP_MS / 4; i++)
    solve(puzzles[i]!, performance.now() + PER_PUZZLE_MS);
  const start = performance.now();
  let solved = 0;
  let tried = 0;
  for (let i = 0; i < puzzles.length && performance.now() - start < COMPETITOR_CAP_MS; i++) {
    tried++;
    const answer = solve(puzzles[i]!, performance.now() + PER_PUZZLE_MS);
    if (answer === null) continue;
    checkAnswer(puzzles[i]!, answer, who);
    solved++;
  }
  const seconds = (performance.now() - start) / 1000;
  return { perSecond: solved / seconds, solved, tried, seconds };
}

function reference(puzzle: string, deadline: number): string | null {
  const board = toCharBoard(puzzle);
  try {
    if (!solveReference(board, deadline)) throw new Error(`reference found no solution for ${puzzle}`);
  } catch (e) {
    if (e instanceof ReferenceTimeout) return null;
    throw e;
  }
  return board.flat().join('');
}

const fmt = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2));
const usd = (n: number): string => `$${n < 0.1 ? n.toPrecision(2) : n.toFixed(3)}`;

export async function run(): Promise<void> {
  process.stderr.write(
    'solver: every set in both modes, the reference and @algorithm.ts/sudoku (about 3 minutes)...\n',
  );
  const rows: string[] = [];
  const costRows: string[] = [];
  const found: SearchResult = { count: 0, guesses: 0 };
  const sets = fullPuzzleSets();
  for (const name of BENCH_SETS) {
    const puzzles = sets.read(name);
    const multiple = name === 'puzzles7_serg_benchmark';
    const first = { checkUnique: false };
    const count2 = { checkUnique: true };
    // Warm-up and verification: every answer, both modes; the guesses come from the same calls.
    let guessesFirst = 0;
    let guessesCount2 = 0;
    for (const p of puzzles) {
      for (const options of [first, count2]) {
        const outcome = solveBoard(p, options);
        if (!outcome.ok || (options === count2 && outcome.unique === multiple))
          throw new Error(`${name}: wrong outcome for ${p}`);
        checkAnswer(p, outcome.solution as string, 'solveBoard');
        if (options === first) guessesFirst += outcome.stats.guesses;
        else guessesCount2 += outcome.stats.guesses;
      }
    }
    const runs = puzzles.length > 5000 ? 3 : 5;
    // Each returns a number the loop sums, so nothing is optimized away.
    const solveFirst = (p: string): number => (solveBoard(p, first).ok ? 1 : 0);
    const solveCount2 = (p: string): number => (solveBoard(p, count2).ok ? 1 : 0);
    const oursFirst = rate(puzzles, solveFirst, runs);
    const oursCount2 = rate(puzzles, solveCount2, runs);
    // The search alone, on pre-parsed cells: what the path around it costs is the difference.
    const out = new Uint8Array(81);
    const cells = puzzles.map(cellsOf);
    const searchOnly = rate(cells, (b) => countSolutions(b, 2, out, undefined, found).count, runs);
    const searchTypeScript = rate(cells, (b) => countSolutionsInTypeScript(b, 2, out, undefined, found).count, runs);

    const npm = timeCompetitor(puzzles, '@algorithm.ts/sudoku', solveWithAlgorithmTs);
    const ref = timeCompetitor(puzzles, 'reference', reference);
    // Ours on exactly the puzzles each competitor was given.
    const oursOn = (c: Competitor): number => rate(puzzles.slice(0, c.tried), solveFirst, 3, 300);
    const ratio = (c: Competitor): string => {
      const ours = oursOn(c);
      // With nothing finished the reference rate is below 1 per elapsed time: the ratio is a bound.
      return c.solved ? `${fmt(ours / c.perSecond)}x` : `> ${fmt(ours * c.seconds)}x`;
    };
    const seen = (c: Competitor): string => `${fmt(c.perSecond)} (${c.solved} of ${c.tried} in ${fmt(c.seconds)} s)`;
    rows.push(
      `| ${name} | ${puzzles.length.toLocaleString('en-US')} | ${fmt(oursFirst)} | ${fmt(1e6 / oursFirst)} | ${fmt(guessesFirst / puzzles.length)} | ` +
        `${fmt(oursCount2)} | ${fmt(1e6 / oursCount2)} | ${fmt(guessesCount2 / puzzles.length)} | ${fmt(searchOnly)} | ` +
        `${fmt(searchTypeScript)} | ${fmt(searchOnly / searchTypeScript)}x | ` +
        `${seen(npm)} | ${ratio(npm)} | ${seen(ref)} | ${ratio(ref)} |`,
    );
    if (name === 'puzzles2_17_clue' || name === 'puzzles6_forum_hardest_1106') {
      // The service counts to two (checkUnique defaults to true).
      const seconds = 1e6 / oursCount2;
      const compute = seconds * (MEMORY_MB / 1024) * GB_SECOND_USD;
      costRows.push(`| ${name} | ${fmt(seconds)} | ${usd(compute)} | ${usd(compute + 1e6 * REQUEST_USD)} |`);
    }
  }

  console.log('\n## Solver (single thread; puzzles/s = median of timed runs, every answer verified)\n');
  console.log(
    '| set | puzzles | solveBoard first /s | µs | guesses | solveBoard count-2 /s | µs | guesses | search only, count-2 /s | ' +
      'same search in TypeScript /s | WebAssembly / TypeScript | ' +
      '@algorithm.ts/sudoku first /s (solved of tried) | ours / it | reference backtracking /s (solved of tried) | ours / it |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
  console.log(
    '\nRatios compare first-solution rates on the same puzzles (the ones each competitor reached in ' +
      `${COMPETITOR_CAP_MS / 1000} s, in file order). For tdoku (native C++, SIMD) run ` +
      '`node ../shared/tools/solver-vs-tdoku.mjs SET...`: it times both side by side on one core.',
  );
  console.log(
    `\nCost per million puzzles on Lambda arm64 at ${MEMORY_MB} MB (1 vCPU), $${GB_SECOND_USD} per GB-s, ` +
      "counting to two, at this machine's speed (arm64 Graviton differs; re-measure there):\n",
  );
  console.log(
    '| set | seconds of solving | compute only (puzzles sent in files: one request per file) | with one request per puzzle (+$0.20) |',
  );
  console.log('|---|---:|---:|---:|');
  for (const row of costRows) console.log(row);
}
