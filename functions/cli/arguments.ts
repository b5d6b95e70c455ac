import { isFileFormat } from '../formats/index.js';
import type { FileFormat } from '../formats/index.js';

/** What the command line asks for. */
export type CliCommand =
  | { kind: 'help' }
  | { kind: 'solve'; input: string; output: string | undefined; format: FileFormat | undefined }
  | { kind: 'usage-error'; message: string };

const usageError = (message: string): CliCommand => ({ kind: 'usage-error', message });

/** Parses `solve [FILE|-] [-o OUT] [-f FORMAT]`; never throws. */
export function parseArguments(argv: readonly string[]): CliCommand {
  if (argv.length === 0) return usageError('missing command; try: sudoku solve FILE');
  if (argv.includes('-h') || argv.includes('--help') || argv[0] === 'help') return { kind: 'help' };
  const [command, ...rest] = argv;
  if (command !== 'solve') return usageError(`unknown command '${command}'; the command is 'solve'`);
  let input: string | undefined;
  let output: string | undefined;
  let format: FileFormat | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    if (flag === '-o' || flag === '--output' || flag === '-f' || flag === '--format') {
      const value = inline ?? rest[++i];
      if (value === undefined || value === '') return usageError(`${flag} needs a value`);
      if (flag === '-o' || flag === '--output') {
        if (output !== undefined) return usageError('only one output may be given');
        output = value;
      } else {
        if (!isFileFormat(value)) return usageError(`unknown format '${value}'; use txt, csv, jsonl or json`);
        format = value;
      }
    } else if (arg.startsWith('-') && arg !== '-') {
      return usageError(`unknown option '${arg}'`);
    } else if (input === undefined) {
      input = arg;
    } else {
      return usageError(`only one input file may be given (got '${input}' and '${arg}')`);
    }
  }
  return { kind: 'solve', input: input ?? '-', output, format };
}
