// `sudoku grade` and `sudoku generate`: the logical core over lines, with the output handling of
// `sudoku solve` (an -o file appears only when the whole run succeeded).
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { describeProblem } from '../formats/index.js';
import { generatePuzzle, gradePuzzle } from '../sudoku/logic/index.js';
import { EXIT_ALL_SOLVED, EXIT_SOME_FAILED, EXIT_USAGE } from './arguments.js';
import { OutputError, type OutputTarget, openOutput } from './output-file.js';
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

async function openCommandOutput(
  given: string | undefined,
  inputStats: Stats | undefined,
  io: CliStreams,
): Promise<Output> {
  if (given === undefined) return { stream: io.stdout, target: undefined, gzip: undefined };
  const target = await openOutput(given, inputStats);
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

/** `sudoku grade`: one JSON line per input line. */
export async function runGrade(command: GradeCommand, io: CliStreams): Promise<number> {
  let input: Readable = io.stdin;
  let inputStats: Stats | undefined;
  if (command.input !== '-') {
    try {
      const handle = await open(command.input, 'r');
      inputStats = await handle.stat();
      if (inputStats.isDirectory()) {
        await handle.close();
        return failWith(io, EXIT_USAGE, `cannot read '${command.input}': it is a directory; give a puzzle file`);
      }
      input = handle.createReadStream({ highWaterMark: 1 << 16 });
      if (command.input.toLowerCase().endsWith('.gz')) input = input.pipe(createGunzip());
    } catch (error) {
      return failWith(io, EXIT_USAGE, `cannot read '${command.input}': ${(error as { code?: string }).code ?? error}`);
    }
  }
  let output: Output;
  try {
    output = await openCommandOutput(command.output, inputStats, io);
  } catch (error) {
    input.destroy();
    if (!(error instanceof OutputError)) throw error;
    return failWith(io, error.code === 'OUTPUT_NOT_WRITABLE' ? EXIT_SOME_FAILED : EXIT_USAGE, error.message);
  }
  let rows = 0;
  let failed = 0;
  let line = 0;
  try {
    for await (const raw of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      line++;
      const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (text.trim() === '') {
        await write(output.stream, '\n');
        continue;
      }
      rows++;
      const outcome = gradePuzzle(text.trim());
      if (outcome.ok) {
        await write(output.stream, `${JSON.stringify(outcome.grade)}\n`);
      } else {
        failed++;
        const problems = outcome.problems.slice(0, 10).map((p) => ({ ...p, line }));
        await write(output.stream, `${JSON.stringify({ line, problems })}\n`);
        io.stderr.write(`line ${line}: ${describeProblem(problems[0]!)}\n`);
      }
    }
    await finish(output);
  } catch (error) {
    await output.target?.discard();
    return failWith(io, EXIT_SOME_FAILED, error instanceof Error ? error.message : String(error));
  }
  if (failed === 0) return EXIT_ALL_SOLVED;
  return failWith(io, EXIT_SOME_FAILED, `${failed} of ${rows} puzzles not graded`);
}

/** `sudoku generate`: `count` puzzles at `level`, puzzle i from seed + i. */
export async function runGenerate(command: GenerateCommand, io: CliStreams): Promise<number> {
  const seed = command.seed ?? Math.floor(Math.random() * 2 ** 32);
  if (command.seed === undefined) io.stderr.write(`sudoku: seed ${seed}\n`);
  let output: Output;
  try {
    output = await openCommandOutput(command.output, undefined, io);
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
