// Entry of the `sudoku` command (bundled to dist/cli/index.mjs, run by bin/sudoku.mjs).
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
