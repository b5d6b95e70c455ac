// `sudoku grade` and `sudoku generate`: the logical core over lines, with the output handling of
// `sudoku solve` (an -o file appears only when the whole run succeeded). Grade is solve's run.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { FileTally, solveRowBatches } from '../functions/formats/index.js';
import { batchSolverFor, solverThreads } from '../functions/parallel/index.js';
import { EXIT_ALL_SOLVED, EXIT_SOME_FAILED, EXIT_USAGE } from './arguments.js';
import { OutputError, type OutputTarget, openOutput } from './output-file.js';
import { progressOn } from './progress.js';
import { runSolve } from './solve-command.js';
import type { CliStreams } from './solve-command.js';
import type { GenerateCommand, GradeCommand } from './toolkit-arguments.js';

/**
 * Writes with backpressure: waits for 'drain' when the stream's buffer is full. Rejects with the
 * stream's error (a reader of stdout gone: EPIPE), which `watchErrors` keeps from being thrown
 * as an unhandled 'error' event.
 */
async function write(stream: Writable, text: string | Uint8Array): Promise<void> {
  if (stream.errored) throw stream.errored;
  if (!stream.write(text)) await once(stream, 'drain');
}

/** The stream's 'error' events are seen (they reach `write` as `stream.errored`), not thrown. */
function watchErrors(stream: Writable): void {
  stream.on('error', () => undefined);
}

async function end(stream: Writable): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(resolve);
  });
}

interface Output {
  stream: Writable;
  target: OutputTarget | undefined;
  /** The gzip stream in front of the target (when OUT ends in .gz), to be ended before commit. */
  gzip: Writable | undefined;
}

async function openCommandOutput(given: string | undefined, io: CliStreams): Promise<Output> {
  if (given === undefined) return { stream: io.stdout, target: undefined, gzip: undefined };
  const target = await openOutput(given, undefined);
  if (!given.toLowerCase().endsWith('.gz')) return { stream: target.stream, target, gzip: undefined };
  const gzip = createGzip();
  gzip.pipe(target.stream);
  return { stream: gzip, target, gzip };
}

async function finish(output: Output): Promise<void> {
  if (output.gzip) {
    const flushed = new Promise<void>((resolve) => output.target!.stream.once('unpipe', () => resolve()));
    await end(output.gzip);
    await flushed;
  }
  await output.target?.commit();
}

function failWith(io: CliStreams, status: number, message: string): number {
  io.stderr.write(`sudoku: ${message}\n`);
  return status;
}

/**
 * `sudoku grade`: the run of `sudoku solve` with grades for answers (one JSON line per line of a
 * .txt or .jsonl, one grade per board of a .json, level and score columns in a .csv): the same
 * formats, batches, threads, order, gzip and -o handling. It read .txt lines one at a time on one
 * thread, and a .csv's rows as puzzles (every one failed).
 */
export function runGrade(command: GradeCommand, io: CliStreams): Promise<number> {
  const { input, output, format, threads } = command;
  return runSolve({ input, output, format, answer: 'grade', threads }, io);
}

/**
 * Seeds a batch holds: a thread's share of work comes in pieces of ~15 ms at `hard` and ~80 ms at
 * `extreme`, so the threads end together (solve's 256 KiB batches would hold 23,000 seeds, and a
 * run of a few thousand puzzles would go to one thread). With 48 a batch, 600 extreme puzzles took
 * 9% longer on two threads (the last batches' shares were uneven) and 10,000 hard ones 3% less.
 */
const SEEDS_PER_BATCH = 16;
/** A seed's line: ten digits, zero-padded so every line has the same length, and `\n`. */
const SEED_LINE_BYTES = 11;

/** Puzzle i's seed: seed + i, as uint32. */
const seedAt = (first: number, i: number): number => (first + i) % 2 ** 32;

/** The seeds of puzzles 0..count-1 as lines, in chunks: what the row batches cut and the threads answer. */
async function* seedLines(first: number, count: number): AsyncGenerator<Buffer> {
  const perChunk = 4096;
  for (let i = 0; i < count; i += perChunk) {
    let text = '';
    for (let j = i; j < Math.min(count, i + perChunk); j++) text += `${String(seedAt(first, j)).padStart(10, '0')}\n`;
    yield Buffer.from(text);
  }
}

/**
 * `sudoku generate`: `count` puzzles at `level`, puzzle i from seed + i, made on every CPU (the
 * seeds are rows answered by solve's batches and threads, functions/formats/generate-codec.ts) and
 * written in seed order. A puzzle the generator gives up on ends the run there: the puzzles
 * before it are written (standard output) or nothing is (`-o`), as when it made them one by one.
 */
export async function runGenerate(command: GenerateCommand, io: CliStreams): Promise<number> {
  const seed = command.seed ?? Math.floor(Math.random() * 2 ** 32);
  if (command.seed === undefined) io.stderr.write(`sudoku: seed ${seed}\n`);
  let output: Output;
  try {
    output = await openCommandOutput(command.output, io);
  } catch (error) {
    if (!(error instanceof OutputError)) throw error;
    return failWith(io, error.code === 'OUTPUT_NOT_WRITABLE' ? EXIT_SOME_FAILED : EXIT_USAGE, error.message);
  }
  watchErrors(output.stream);
  const tally = new FileTally({ failureCap: 1 });
  const threads = batchSolverFor(command.threads ?? solverThreads());
  const cut = { batchBytes: SEEDS_PER_BATCH * SEED_LINE_BYTES };
  const { level, symmetric, maxAttempts } = command;
  const rows = { answer: { generate: level, symmetric, ...(maxAttempts ? { maxAttempts } : {}) } };
  let written = 0;
  // Puzzles made so far, out of the count asked for: the time left is known from the start.
  const progress = progressOn(
    io.stderr,
    () => ({ rows: tally.counts.rows, done: tally.counts.rows, total: command.count }),
    io.clock,
  );
  progress?.start();
  try {
    for await (const chunk of solveRowBatches(seedLines(seed, command.count), 'txt', tally, threads, cut, rows)) {
      const failure = tally.failures[0];
      if (!failure) {
        await write(output.stream, chunk);
        written += chunk.length / (81 + 1);
        continue;
      }
      // Standard output gets the puzzles before the one given up on (each line of a batch is a
      // whole puzzle); an -o file is not written at all.
      progress?.stop();
      const line = failure.problem.line!;
      if (output.target) await output.target.discard();
      else await write(output.stream, chunk.subarray(0, (line - 1 - written) * (81 + 1)));
      return failWith(
        io,
        EXIT_SOME_FAILED,
        `puzzle ${line} (seed ${seedAt(seed, line - 1)}): ${failure.problem.message}`,
      );
    }
    progress?.stop();
    await finish(output);
  } catch (error) {
    progress?.stop();
    await output.target?.discard();
    // The reader of stdout went away (`| head`): nothing more to say to anyone, as for solve.
    if (!output.target && (error as { code?: unknown }).code === 'EPIPE') return EXIT_SOME_FAILED;
    return failWith(io, EXIT_SOME_FAILED, error instanceof Error ? error.message : String(error));
  }
  return EXIT_ALL_SOLVED;
}
