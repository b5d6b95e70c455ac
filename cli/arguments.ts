import { parseArgs } from 'node:util';
import { isFileFormat } from '../functions/formats/index.js';
import type { FileFormat } from '../functions/formats/index.js';
import { parseThreadCount } from '../functions/parallel/index.js';
import { type GenerateCommand, type GradeCommand, parseToolkitArguments, TOOLKIT_HELP } from './toolkit-arguments.js';

/** What the command line asks for. */
export type CliCommand =
  | { kind: 'help' }
  | {
      kind: 'solve';
      input: string;
      output: string | undefined;
      format: FileFormat | undefined;
      /** Threads solving the rows; every CPU when not given. */
      threads?: number;
    }
  | GradeCommand
  | GenerateCommand
  | { kind: 'usage-error'; message: string };

const usageError = (message: string): CliCommand => ({ kind: 'usage-error', message });

/** The options `solve` takes (parseArgs' config): each with its value. */
const OPTIONS = {
  output: { type: 'string', short: 'o' },
  format: { type: 'string', short: 'f' },
  threads: { type: 'string', short: 'j' },
} as const;

/**
 * Parses `solve [FILE|-] [-o OUT] [-f FORMAT] [-j N]`; never throws. node:util `parseArgs` splits
 * the arguments (`--name value`, `--name=value`, `-o value`); the checks and their messages are
 * here, in argument order, so the first problem is the one reported. A short option with its
 * value attached (`-j3`, `-o=x`) and `--` are refused as unknown options.
 */
export function parseArguments(argv: readonly string[]): CliCommand {
  if (argv.length === 0) return usageError('missing command; try: sudoku solve FILE');
  if (argv.includes('-h') || argv.includes('--help') || argv[0] === 'help') return { kind: 'help' };
  const [command, ...rest] = argv;
  if (command === 'grade' || command === 'generate') return parseToolkitArguments(command, rest);
  if (command !== 'solve')
    return usageError(`unknown command '${command}'; the commands are 'solve', 'grade' and 'generate'`);
  const { tokens } = parseArgs({
    args: [...rest],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  let input: string | undefined;
  let output: string | undefined;
  let format: FileFormat | undefined;
  let threads: number | undefined;
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (input !== undefined)
        return usageError(`only one input file may be given (got '${input}' and '${token.value}')`);
      input = token.value;
      continue;
    }
    const arg = rest[token.index]!;
    const known = token.kind === 'option' && Object.hasOwn(OPTIONS, token.name);
    if (token.kind !== 'option' || !known || (token.inlineValue && !token.rawName.startsWith('--'))) {
      return usageError(`unknown option '${arg}'`);
    }
    const flag = token.rawName;
    const value = token.value;
    if (value === undefined || value === '') return usageError(`${flag} needs a value`);
    if (token.name === 'threads') {
      const parsed = parseThreadCount(value, flag);
      if (!parsed.ok) return usageError(parsed.message);
      threads = parsed.threads;
    } else if (token.name === 'output') {
      if (output !== undefined) return usageError('only one output may be given');
      output = value;
    } else {
      if (!isFileFormat(value)) return usageError(`unknown format '${value}'; use txt, csv, jsonl or json`);
      format = value;
    }
  }
  return { kind: 'solve', input: input ?? '-', output, format, ...(threads === undefined ? {} : { threads }) };
}

export const HELP = `Usage: sudoku solve [FILE|-] [-o OUT] [--format txt|csv|jsonl|json] [--threads N]${TOOLKIT_HELP}
solve:

Solves every puzzle of FILE (or standard input, when FILE is '-' or missing) and writes one
answer per input line, in order: the 81-digit solution, or for a line that cannot be solved a
line starting with 'error line N:'. Each unsolved line is also named on stderr with its line number
and the reason. Blank lines stay blank; CRLF line ends and a UTF-8 byte-order mark are accepted.
Runs in flat memory, whatever the number of lines, and on every CPU it may use (.txt and
.jsonl rows: with N CPUs, N-1 worker threads and the main thread; output order is kept).

The format comes from the file name: .txt (one puzzle a line; also any other name), .csv (a
header row with a 'puzzle' or 'quizzes' column; the solution, status and error columns are
filled), .jsonl (one board a line), .json (an array of boards, read whole); each also .gz.
A puzzle is 81 characters: 1-9 for givens, '.' or '0' for empty cells.

Options:
  -o, --output OUT   write to OUT instead of standard output (gzipped if OUT ends in .gz); OUT is
                     replaced only when the whole run succeeded, and left as it was otherwise
                     (a pipe or device such as /dev/stdout is written directly)
  -f, --format F     read the input as F (txt, csv, jsonl, json) whatever its name
  -j, --threads N    solve on N threads (default: every CPU this process may use, which
                     taskset or a container limit lowers; 1 solves in the main thread)
  -h, --help         show this help

Exit status: 0 every puzzle solved, 1 some were not (or the output could not be written),
2 usage error (including an output that is the input file, by any name or link).

Example:
  npx sudoku solve puzzles.txt -o solutions.txt
  echo '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79' | npx sudoku solve
`;

/** The CLI's exit codes, as scripts test them. */
export const EXIT_ALL_SOLVED = 0;
/** Some lines were not solved (each named on stderr), the file could not be read as puzzles, or the output could not be written. */
export const EXIT_SOME_FAILED = 1;
/** The command line was wrong, the input could not be opened, or the output is the input or a directory. */
export const EXIT_USAGE = 2;
