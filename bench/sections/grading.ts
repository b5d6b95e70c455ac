/**
 * Grading and generating (functions/sudoku/logic/), side by side with qqwing (Debian's `qqwing`
 * 1.3.4, native C++) in the same run, on the same puzzles: grading rate on the 17-clue set
 * (ours: gradePuzzle, string in, with the uniqueness check; qqwing: `--solve --stats`, one
 * process for the whole set, which does not check uniqueness), grading rate and our level on
 * puzzles qqwing generated at each of its levels, and generation rate per level (ours:
 * generatePuzzle, minimal and unique; qqwing: `--generate N --difficulty X`). qqwing's rates are
 * whole-process wall time (its start-up, about 2 ms, is under 1% of every run). Without qqwing
 * installed only our side is measured. `npm run bench -- grading`.
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { generatePuzzle, gradePuzzle, type Level, LEVELS } from '../../functions/sudoku/logic/index.js';
import { fullPuzzleSets } from '../puzzle-sets.js';

const ROUNDS = 3;
/** Puzzles qqwing generates per level: enough for a level table, a few seconds per level. */
const QQWING_PER_LEVEL = Number(process.env.BENCH_QQWING_PUZZLES ?? 200);
/** Our generation per level runs this long (or OUR_GENERATE_MAX puzzles). */
const GENERATE_MS = 2000;
const OUR_GENERATE_MAX = 2000;

type QqLevel = 'simple' | 'easy' | 'intermediate' | 'expert';
const QQ_LEVELS: QqLevel[] = ['simple', 'easy', 'intermediate', 'expert'];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const ratio = (a: number, b: number): string => `${(a / b).toFixed(1)}x`;

function hasQqwing(): boolean {
  return spawnSync('qqwing', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** Run qqwing, timing the whole process. */
function qqwing(args: string[], input?: string): { ms: number; stdout: string } {
  const start = process.hrtime.bigint();
  const child = spawnSync('qqwing', args, { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (child.status !== 0) throw new Error(`qqwing ${args.join(' ')} exited with ${child.status}: ${child.stderr}`);
  return { ms, stdout: child.stdout };
}

/** Our grading rate over `puzzles` (median of rounds), and each puzzle's level (from the last round). */
function gradeOurs(puzzles: string[]): { rate: number; levels: Level[] } {
  const rates: number[] = [];
  let levels: Level[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const out: Level[] = new Array(puzzles.length);
    const start = performance.now();
    for (let i = 0; i < puzzles.length; i++) {
      const r = gradePuzzle(puzzles[i]!);
      if (!r.ok) throw new Error(`not a proper puzzle: ${puzzles[i]} (${r.problems[0]?.code})`);
      out[i] = r.grade.level;
    }
    rates.push((puzzles.length / (performance.now() - start)) * 1000);
    levels = out;
  }
  return { rate: median(rates), levels };
}

function histogram(levels: Level[]): string {
  const counts = new Map<Level, number>();
  for (const l of levels) counts.set(l, (counts.get(l) ?? 0) + 1);
  return LEVELS.map((l) => `${l} ${fmt(counts.get(l) ?? 0)}`).join(', ');
}

/** Our generation rate at a level: puzzles/s over GENERATE_MS, seeds 1, 2, ... */
function generateOurs(level: Level): { rate: number; count: number; attempts: number } {
  const start = performance.now();
  let count = 0;
  let attempts = 0;
  while (count < OUR_GENERATE_MAX && performance.now() - start < GENERATE_MS) {
    const r = generatePuzzle({ level, seed: count + 1 });
    if (!r.ok) throw new Error(`generatePuzzle ${level} seed ${count + 1}: ${r.problems[0]?.message}`);
    attempts += r.attempts;
    count++;
  }
  return { rate: (count / (performance.now() - start)) * 1000, count, attempts: attempts / count };
}

export async function run(): Promise<void> {
  console.log('\n## Grading and generating, against qqwing (single thread)\n');
  console.log(`CPU: ${cpus()[0]?.model ?? 'unknown'}; Node ${process.version}`);
  const withQqwing = hasQqwing();
  if (!withQqwing) console.log('\nqqwing is not installed (`apt-get install qqwing`): only our side is measured.');

  const sets = fullPuzzleSets();
  const seventeen = sets.read('puzzles2_17_clue');
  const ours17 = gradeOurs(seventeen);
  console.log('\n| grading puzzles2_17_clue | puzzles | ours /s | qqwing /s | ratio | our levels |');
  console.log('|---|---:|---:|---:|---:|---|');
  let qq17 = Number.NaN;
  if (withQqwing) {
    const input = `${seventeen.join('\n')}\n`;
    qq17 = median(
      Array.from(
        { length: ROUNDS },
        () => seventeen.length / (qqwing(['--solve', '--stats', '--csv'], input).ms / 1000),
      ),
    );
  }
  console.log(
    `| ${withQqwing ? 'gradePuzzle vs qqwing --solve --stats' : 'gradePuzzle'} | ${fmt(seventeen.length)} | ${fmt(ours17.rate)} | ${withQqwing ? fmt(qq17) : '-'} | ${withQqwing ? ratio(ours17.rate, qq17) : '-'} | ${histogram(ours17.levels)} |`,
  );

  const hardest = sets.read('puzzles5_forum_hardest_1905_11+').slice(0, 2000);
  const oursHard = gradeOurs(hardest);
  console.log(
    `| (puzzles5_forum_hardest_1905_11+, first 2,000: ours only) | ${fmt(hardest.length)} | ${fmt(oursHard.rate)} | | | ${histogram(oursHard.levels)} |`,
  );

  const genRows: string[] = [];
  if (withQqwing) {
    console.log(
      `\n| qqwing level (${QQWING_PER_LEVEL} generated by qqwing) | our grading /s | ${LEVELS.join(' | ')} |`,
    );
    console.log(`|---|---:|${LEVELS.map(() => '---:').join('|')}|`);
    const qqGenerate: Record<QqLevel, number> = { simple: 0, easy: 0, intermediate: 0, expert: 0 };
    for (const level of QQ_LEVELS) {
      const { ms, stdout } = qqwing(['--generate', String(QQWING_PER_LEVEL), '--difficulty', level, '--csv']);
      qqGenerate[level] = (QQWING_PER_LEVEL / ms) * 1000;
      const puzzles = stdout
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[0]!)
        .filter((p) => p.length === 81);
      const graded = gradeOurs(puzzles);
      const counts = LEVELS.map((l) => graded.levels.filter((x) => x === l).length);
      console.log(`| ${level} | ${fmt(graded.rate)} | ${counts.map(fmt).join(' | ')} |`);
    }
    const pairs: [Level, QqLevel][] = [
      ['easy', 'easy'],
      ['medium', 'intermediate'],
      ['hard', 'expert'],
      ['expert', 'expert'],
    ];
    for (const [ours, theirs] of pairs) {
      const g = generateOurs(ours);
      genRows.push(
        `| ${ours} | ${fmt(g.rate)} | ${g.attempts.toFixed(1)} | ${theirs} | ${fmt(qqGenerate[theirs])} | ${ratio(g.rate, qqGenerate[theirs])} |`,
      );
    }
    genRows.push(`| (qqwing simple) | | | simple | ${fmt(qqGenerate.simple)} | |`);
  } else {
    for (const level of ['easy', 'medium', 'hard', 'expert'] as const) {
      const g = generateOurs(level);
      genRows.push(`| ${level} | ${fmt(g.rate)} | ${g.attempts.toFixed(1)} | - | - | - |`);
    }
  }
  const extreme = generateOurs('extreme');
  genRows.push(`| extreme | ${fmt(extreme.rate)} | ${extreme.attempts.toFixed(1)} | (none) | | |`);
  console.log('\n| generating: our level | ours /s | attempts per puzzle | qqwing level | qqwing /s | ratio |');
  console.log('|---|---:|---:|---|---:|---:|');
  for (const row of genRows) console.log(row);
  console.log(
    "\nBoth generators make minimal unique puzzles (qqwing's: 20 of 20 sampled were minimal when this section was written); ours are graded by the logical solver at the level asked for.",
  );
}
