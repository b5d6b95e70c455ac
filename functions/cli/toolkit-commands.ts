// `sudoku grade` and `sudoku generate`: the logical core over lines, with the output handling of
// `sudoku solve` (an -o file appears only when the whole run succeeded). Grade is solve's run.
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { generatePuzzle } from '../sudoku/logic/index.js';
import { EXIT_ALL_SOLVED, EXIT_SOME_FAILED, EXIT_USAGE } from './arguments.js';
import { OutputError, type OutputTarget, openOutput } from './output-file.js';
import { runSolve } from './solve-command.js';
import type { CliStreams } from './solve-command.js';
import type { GenerateCommand, GradeCommand } from './toolkit-arguments.js';

/** Writes with backpressure: waits for 'drain' when the stream's buffer is full. */
async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
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
 * `sudoku grade`: one JSON line per input line. The run of `sudoku solve` with grades for answers:
 * the same batches, threads, order, gzip and -o handling; it read a line at a time on one thread.
 */
export function runGrade(command: GradeCommand, io: CliStreams): Promise<number> {
  const { input, output, threads } = command;
  return runSolve({ input, output, format: 'txt', answer: 'grade', threads }, io);
}

/** `sudoku generate`: `count` puzzles at `level`, puzzle i from seed + i. */
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
  try {
    for (let i = 0; i < command.count; i++) {
      const outcome = generatePuzzle({
        level: command.level,
        seed: (seed + i) % 2 ** 32,
        symmetric: command.symmetric,
      });
      if (!outcome.ok) {
        await output.target?.discard();
        return failWith(
          io,
          EXIT_SOME_FAILED,
          `puzzle ${i + 1} (seed ${(seed + i) % 2 ** 32}): ${outcome.problems[0]!.message}`,
        );
      }
      await write(output.stream, `${outcome.puzzle}\n`);
    }
    await finish(output);
  } catch (error) {
    await output.target?.discard();
    return failWith(io, EXIT_SOME_FAILED, error instanceof Error ? error.message : String(error));
  }
  return EXIT_ALL_SOLVED;
}
