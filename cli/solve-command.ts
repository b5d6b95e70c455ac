import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import {
  describeProblem,
  detectFileKind,
  FileTally,
  isFormatError,
  solvePuzzleStream,
} from '../functions/formats/index.js';
import type { FileFormat, RowFailure } from '../functions/formats/index.js';
import { batchSolverFor, solverThreads } from '../functions/parallel/index.js';
import { EXIT_ALL_SOLVED, EXIT_SOME_FAILED, EXIT_USAGE } from './arguments.js';
import { OutputError, openOutput } from './output-file.js';
import type { OutputTarget } from './output-file.js';
import { type ProgressClock, type ProgressSample, progressOn } from './progress.js';

export interface CliStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** The progress line's clock (tests step it by hand); wall time by default. */
  clock?: ProgressClock;
}

export interface SolveCommand {
  input: string;
  output: string | undefined;
  format: FileFormat | undefined;
  threads?: number;
  /**
   * `'grade'` (`sudoku grade`): each board answered with its grade as JSON instead of its solution;
   * a .csv keeps its rows and gains level and score columns.
   */
  answer?: 'solution' | 'grade';
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

/** A failure of the output's file system calls (a full disk, a closed pipe), told apart from the input's by the call. */
function isWriteError(error: unknown): boolean {
  const syscall = (error as { syscall?: unknown } | null)?.syscall;
  return syscall === 'write' || syscall === 'writev' || syscall === 'close';
}

/** `sudoku solve` (and `sudoku grade`, the same run with grades for answers): returns the exit status. Unlike a library call, every failure here ends as a message and a status. */
export async function runSolve(command: SolveCommand, io: CliStreams): Promise<number> {
  const fromStdin = command.input === '-';
  // A name the CLI does not know (e.g. the shared sets, which have none) is read as .txt.
  const inputKind = fromStdin ? undefined : detectFileKind(command.input);
  const grading = command.answer === 'grade';
  const format = command.format ?? (inputKind?.ok ? inputKind.kind.format : 'txt');
  const gunzip = !fromStdin && command.input.toLowerCase().endsWith('.gz');
  const gzip = command.output?.toLowerCase().endsWith('.gz') === true;
  const fail = (status: number, message: string): number => {
    io.stderr.write(`sudoku: ${message}\n`);
    return status;
  };

  let input: Readable;
  let inputStats: Stats | undefined;
  if (fromStdin) {
    input = io.stdin;
    if ((io.stdin as { isTTY?: boolean }).isTTY)
      io.stderr.write('sudoku: reading puzzles from the terminal, one a line; Ctrl-D to end\n');
  } else {
    try {
      // Opened first so a missing file is a usage error, not a stream error halfway.
      const handle = await open(command.input, 'r');
      inputStats = await handle.stat();
      if (inputStats.isDirectory()) {
        await handle.close();
        return fail(EXIT_USAGE, `cannot read '${command.input}': it is a directory; give a puzzle file`);
      }
      // The stream owns the handle: a bare fd left the FileHandle to be closed again by GC (EBADF crash).
      // 64 KiB reads: 1 MiB ones (cut into the same 256 KiB batches) were no faster on one thread or
      // two (2026-11-30, alternating runs) and took 30 MB more peak RSS.
      input = handle.createReadStream({ highWaterMark: 1 << 16 });
    } catch (error) {
      return fail(EXIT_USAGE, `cannot read '${command.input}': ${errorCode(error) ?? String(error)}`);
    }
  }

  let target: OutputTarget | undefined;
  if (command.output !== undefined) {
    try {
      target = await openOutput(command.output, inputStats);
    } catch (error) {
      input.destroy();
      if (!(error instanceof OutputError)) throw error;
      return fail(error.code === 'OUTPUT_NOT_WRITABLE' ? EXIT_SOME_FAILED : EXIT_USAGE, error.message);
    }
  }
  const output = target?.stream ?? io.stdout;

  // Rows come from the tally (the worker threads' batches are merged into it in this thread) and
  // the share done from the bytes the file stream has read: nothing is counted per row for this.
  const fileStream = input as { bytesRead?: unknown };
  const size = inputStats?.isFile() ? inputStats.size : undefined;
  const sample = (): ProgressSample => ({
    rows: tally.counts.rows,
    ...(size !== undefined && typeof fileStream.bytesRead === 'number'
      ? { done: fileStream.bytesRead, total: size }
      : {}),
  });
  const progress = progressOn(io.stderr, sample, io.clock);
  const tally: FileTally = new FileTally({
    failureCap: 0,
    onFailure: (failure) => {
      progress?.clear();
      io.stderr.write(`${placeOf(failure)}: ${describeProblem(failure.problem)}\n`);
    },
  });

  progress?.start();
  try {
    await solvePuzzleStream({
      input,
      output,
      format,
      gunzip,
      gzip,
      tally,
      batches: batchSolverFor(command.threads ?? solverThreads()),
      answer: command.answer,
    }).finally(() => progress?.stop());
    await target?.commit();
    // A board with several solutions is solved, but not graded (a .csv row says 'multiple').
    const { rows, unique } = tally.counts;
    const failed = grading ? rows - unique : tally.failed;
    if (failed === 0) return EXIT_ALL_SOLVED;
    return fail(EXIT_SOME_FAILED, `${failed} of ${rows} puzzles not ${grading ? 'graded' : 'solved'}`);
  } catch (error) {
    await target?.discard();
    if (error instanceof OutputError) return fail(EXIT_SOME_FAILED, error.message);
    // The reader of stdout went away (e.g. `| head`): nothing more to say to anyone.
    if (!target && (errorCode(error) === 'EPIPE' || errorCode(error) === 'ERR_STREAM_PREMATURE_CLOSE'))
      return EXIT_SOME_FAILED;
    const kept = target?.atomic ? '; nothing was written' : '';
    if (isWriteError(error)) {
      const where = command.output === undefined ? 'standard output' : `'${command.output}'`;
      return fail(EXIT_SOME_FAILED, `cannot write ${where}: ${errorCode(error)}${kept}`);
    }
    if (isFormatError(error)) {
      return fail(
        EXIT_SOME_FAILED,
        `${error.line !== undefined ? `line ${error.line}: ` : ''}${error.code}: ${error.message}`,
      );
    }
    const reason = errorCode(error) ?? (error instanceof Error ? error.message : String(error));
    const detail = error instanceof Error && errorCode(error) ? ` (${error.message})` : '';
    return fail(EXIT_SOME_FAILED, `${reason}${detail}${kept}`);
  }
}
