import { parseArguments } from './arguments.js';
import { EXIT_ALL_SOLVED, EXIT_USAGE } from './arguments.js';
import { HELP } from './arguments.js';
import { runSolve } from './solve-command.js';
import { runGenerate, runGrade } from './toolkit-commands.js';
import type { CliStreams } from './solve-command.js';

// Entry of the `sudoku` command (bundled to dist/cli/index.mjs, run by bin/sudoku.mjs).

process.exitCode = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});

/** The whole CLI behind `sudoku`: arguments in, exit status out. */
export async function runCli(argv: readonly string[], io: CliStreams): Promise<number> {
  const command = parseArguments(argv);
  switch (command.kind) {
    case 'help':
      io.stdout.write(HELP);
      return EXIT_ALL_SOLVED;
    case 'usage-error':
      io.stderr.write(`sudoku: ${command.message}\n\n${HELP}`);
      return EXIT_USAGE;
    case 'solve':
      return runSolve(command, io);
    case 'grade':
      return runGrade(command, io);
    case 'generate':
      return runGenerate(command, io);
  }
}
