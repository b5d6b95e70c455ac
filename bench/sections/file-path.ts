/**
 * The file path (issue 14, parts 3 and 4): the CLI file to file, as users run it.
 * 1. Against tdoku, pinned to one CPU: the shared tool `solver-vs-tdoku.mjs --via cli` on the four
 *    reference sets (when ../shared/tools is there; it builds tdoku with clang + cmake).
 * 2. Every core: 1,000,000 rows (the 17-clue set, reshuffled and repeated) with `--threads 1`,
 *    `--threads 2` and the default, each in a process of its own: rows/s from process start to
 *    exit, the speed-up over one thread, the main thread's share of CPU time, and peak RSS (all
 *    threads). Every answer of every run is checked against the rules, and the runs must agree.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { fullPuzzleSets } from '../puzzle-sets.js';
import { isSolutionOf } from '../sudoku-rules.js';
import { PEAK_RSS_SOURCE } from '../peak-rss.js';
import { writePuzzleFile } from './s3.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tool = path.resolve(root, '..', 'shared', 'tools', 'solver-vs-tdoku.mjs');
const TDOKU_SETS = [
  'puzzles2_17_clue',
  'puzzles3_magictour_top1465',
  'puzzles5_forum_hardest_1905_11+',
  'puzzles6_forum_hardest_1106',
];
const ROWS = 1_000_000;

interface CliRun {
  seconds: number;
  maxRssKb: number;
  /** How busy the main thread was (reading, cutting batches, writing, and solving its share of the batches): its event-loop utilization. */
  mainBusy: number;
  /** CPU time of the whole process, every thread. */
  cpuSeconds: number;
}

/** The CLI in a process of its own: wall time from process start to exit, peak RSS, CPU by thread. */
async function cliRun(input: string, output: string, threadArgs: string[]): Promise<CliRun> {
  const script = `
    import { writeSync } from 'node:fs';
    ${PEAK_RSS_SOURCE}
    const [bin, ...args] = process.argv.slice(1);
    process.argv = [process.argv[0], bin, ...args];
    process.on('exit', (code) => {
      const usage = process.resourceUsage();
      writeSync(3, JSON.stringify({ code, seconds: performance.now() / 1000, maxRssKb: peakRssKb(),
        cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
        mainBusy: performance.eventLoopUtilization().utilization }));
    });
    await import(bin);
  `;
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      script,
      path.join(root, 'bin', 'sudoku.mjs'),
      'solve',
      input,
      '-o',
      output,
      ...threadArgs,
    ],
    { stdio: ['ignore', 'inherit', 'inherit', 'pipe'] },
  );
  const chunks: Buffer[] = [];
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => chunks.push(c));
  await once(child, 'close');
  const result = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CliRun & { code: number };
  if (result.code !== 0) throw new Error(`the CLI exited with ${result.code}`);
  return result;
}

/** Every output line solves its input line (an independent rules check); returns the lines checked. */
async function verify(input: string, output: string): Promise<number> {
  const ins = createInterface({ input: createReadStream(input), crlfDelay: Number.POSITIVE_INFINITY });
  const outs = createInterface({ input: createReadStream(output), crlfDelay: Number.POSITIVE_INFINITY })[
    Symbol.asyncIterator
  ]();
  let n = 0;
  for await (const puzzle of ins) {
    const answer = await outs.next();
    n++;
    if (answer.done || !isSolutionOf(puzzle, answer.value)) throw new Error(`line ${n}: wrong answer`);
  }
  if (!(await outs.next()).done) throw new Error('more output lines than input lines');
  return n;
}

function sameFile(a: string, b: string): boolean {
  return spawnSync('cmp', ['-s', a, b]).status === 0;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

export async function run(): Promise<void> {
  console.log('\n## The file path: the CLI against tdoku on one CPU, and on every CPU\n');
  const full = fullPuzzleSets();
  if (existsSync(tool)) {
    console.log(
      'Pinned to one CPU, alternating with tdoku counting to two (`solver-vs-tdoku.mjs --via cli --secs 3 --rounds 3`; process start-up subtracted):\n',
    );
    const sets = TDOKU_SETS.map((s) => full.file(s));
    const compared = spawnSync(process.execPath, [tool, '--via', 'cli', '--secs', '3', '--rounds', '3', ...sets], {
      cwd: root,
      encoding: 'utf8',
    });
    if (compared.status === 0) console.log(compared.stdout.trim());
    else console.log(`(the shared tool failed: ${compared.stderr.trim().split('\n').at(-1)})`);
  } else {
    console.log(`(no ${path.relative(root, tool)}: the tdoku comparison is skipped)`);
  }

  const work = mkdtempSync(path.join(os.tmpdir(), 'sudoku-bench-file-path-'));
  try {
    const set = full.read('puzzles2_17_clue');
    const input = path.join(work, 'puzzles.txt');
    await writePuzzleFile(input, set, ROWS);
    const cpus = availableParallelism();
    const variants: [string, string[]][] = [
      ['--threads 1', ['--threads', '1']],
      ['--threads 2', ['--threads', '2']],
      [`default (${cpus} CPU${cpus > 1 ? 's' : ''})`, []],
    ];
    const runs: { label: string; run: CliRun }[] = [];
    // Alternating rounds, as the machine is shared: the best of each is shown next to its range.
    const ROUNDS = 3;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, args] of variants) {
        const output = path.join(work, `out-${runs.length}.txt`);
        const cli = await cliRun(input, output, args);
        if (round === 0) {
          if (runs.length === 0) await verify(input, output);
          else if (!sameFile(path.join(work, 'out-0.txt'), output)) throw new Error(`${label}: output differs`);
        }
        if (runs.length > 0 && round > 0) rmSync(output);
        runs.push({ label, run: cli });
      }
    }
    console.log(
      `\n${fmt(ROWS)} rows of 17-clue puzzles (82 MB), file to file; every answer checked against the rules, every run's output identical. ` +
        `Best of ${ROUNDS} alternating runs (range in brackets), rows/s from process start to exit:\n`,
    );
    console.log('| CLI run | rows/s [range] | vs --threads 1 | main thread busy | CPU, all threads | peak RSS |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    const rate = (r: CliRun) => ROWS / r.seconds;
    const best = (label: string) => runs.filter((r) => r.label === label).map((r) => r.run);
    const oneBest = Math.max(...best(variants[0]![0]).map(rate));
    for (const [label] of variants) {
      const mine = best(label);
      const rates = mine.map(rate);
      const top = mine[rates.indexOf(Math.max(...rates))]!;
      console.log(
        `| \`sudoku solve FILE -o OUT ${label.startsWith('default') ? '' : label}\` ${label.startsWith('default') ? `(${label})` : ''} | ${fmt(Math.max(...rates))} [${fmt(Math.min(...rates))}-${fmt(Math.max(...rates))}] | ${(Math.max(...rates) / oneBest).toFixed(2)} | ${(top.mainBusy * 100).toFixed(0)}% | ${top.cpuSeconds.toFixed(1)} s | ${mb(Math.max(...mine.map((r) => r.maxRssKb)))} |`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
