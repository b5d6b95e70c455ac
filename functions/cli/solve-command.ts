import { createWriteStream } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { describeProblem, detectFileKind, isFormatError, solvePuzzleStream } from '../formats/index.js';
import type { FileFormat, RowFailure } from '../formats/index.js';
import { batchSolverFor, solverThreads } from '../parallel/index.js';
import { EXIT_ALL_SOLVED, EXIT_SOME_FAILED, EXIT_USAGE } from './arguments.js';

export interface CliStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

export interface SolveCommand {
  input: string;
  output: string | undefined;
  format: FileFormat | undefined;
  threads?: number;
}

function placeOf(failure: RowFailure): string {
  const { line, index } = failure.problem;
  return line !== undefined ? `line ${line}` : `board ${(index ?? 0) + 1}`;
}

function errorCode(error: unknown): string | undefined {
  return error !== null && typeof error === 'object' && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

/** `sudoku solve`: returns the exit status. Unlike a library call, every failure here ends as a message and a status. */
export async function runSolve(command: SolveCommand, io: CliStreams): Promise<number> {
  const fromStdin = command.input === '-';
  // A name the CLI does not know (e.g. the shared sets, which have none) is read as .txt.
  const inputKind = fromStdin ? undefined : detectFileKind(command.input);
  const format = command.format ?? (inputKind?.ok ? inputKind.kind.format : 'txt');
  const gunzip = !fromStdin && command.input.toLowerCase().endsWith('.gz');
  const gzip = command.output?.toLowerCase().endsWith('.gz') === true;

  if (command.output !== undefined && !fromStdin && path.resolve(command.output) === path.resolve(command.input)) {
    io.stderr.write(`sudoku: the output '${command.output}' is the input file; writing it would destroy the puzzles\n`);
    return EXIT_USAGE;
  }

  let input: Readable;
  if (fromStdin) {
    input = io.stdin;
    if ((io.stdin as { isTTY?: boolean }).isTTY)
      io.stderr.write('sudoku: reading puzzles from the terminal, one a line; Ctrl-D to end\n');
  } else {
    try {
      // Opened first so a missing file is a usage error, not a stream error halfway.
      const handle = await open(command.input, 'r');
      // The stream owns the handle: a bare fd left the FileHandle to be closed again by GC (EBADF crash).
      input = handle.createReadStream({ highWaterMark: 1 << 16 });
    } catch (error) {
      io.stderr.write(`sudoku: cannot read '${command.input}': ${errorCode(error) ?? String(error)}\n`);
      return EXIT_USAGE;
    }
  }
  const output = command.output === undefined ? io.stdout : createWriteStream(command.output);

  try {
    const tally = await solvePuzzleStream({
      input,
      output,
      format,
      gunzip,
      gzip,
      failureCap: 0,
      batches: batchSolverFor(command.threads ?? solverThreads()),
      onFailure: (failure) => io.stderr.write(`${placeOf(failure)}: ${describeProblem(failure.problem)}\n`),
    });
    if (tally.failed === 0) return EXIT_ALL_SOLVED;
    io.stderr.write(`sudoku: ${tally.failed} of ${tally.counts.rows} puzzles not solved\n`);
    return EXIT_SOME_FAILED;
  } catch (error) {
    // The reader of stdout went away (e.g. `| head`): nothing more to say to anyone.
    if (errorCode(error) === 'EPIPE' || errorCode(error) === 'ERR_STREAM_PREMATURE_CLOSE') return EXIT_SOME_FAILED;
    if (command.output !== undefined) await unlink(command.output).catch(() => undefined);
    if (isFormatError(error)) {
      io.stderr.write(
        `sudoku: ${error.line !== undefined ? `line ${error.line}: ` : ''}${error.code}: ${error.message}\n`,
      );
      return EXIT_SOME_FAILED;
    }
    const reason = errorCode(error) ?? (error instanceof Error ? error.message : String(error));
    io.stderr.write(`sudoku: ${reason}${error instanceof Error && errorCode(error) ? ` (${error.message})` : ''}\n`);
    return fromStdin ? EXIT_SOME_FAILED : EXIT_USAGE;
  }
}
