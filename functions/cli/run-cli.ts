import { parseArguments } from './arguments.js';
import { EXIT_ALL_SOLVED, EXIT_USAGE } from './exit-codes.js';
import { HELP } from './help.js';
import { runSolve } from './solve-command.js';
import type { CliStreams } from './solve-command.js';

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
  }
}
