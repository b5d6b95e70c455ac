// Every command line the CLI's parser tells apart, with what it makes of it: the behaviour and
// the messages, pinned (cli/arguments.ts reads them with node:util parseArgs).
import { describe, expect, it } from 'vitest';
import { type CliCommand, parseArguments } from '../../cli/arguments.js';

const CASES: [string[], CliCommand][] = [
  [[], { kind: 'usage-error', message: 'missing command; try: sudoku solve FILE' }],
  [['-h'], { kind: 'help' }],
  [['--help'], { kind: 'help' }],
  [['help'], { kind: 'help' }],
  [['solve', '-h'], { kind: 'help' }],
  [['solve', 'a.txt', '--help'], { kind: 'help' }],
  [
    ['frobnicate'],
    { kind: 'usage-error', message: "unknown command 'frobnicate'; the commands are 'solve', 'grade' and 'generate'" },
  ],
  [['solve'], { kind: 'solve', input: '-', output: undefined, format: undefined }],
  [['solve', '-'], { kind: 'solve', input: '-', output: undefined, format: undefined }],
  [['solve', 'a.txt'], { kind: 'solve', input: 'a.txt', output: undefined, format: undefined }],
  [['solve', 'a.txt', '-o', 'b.txt'], { kind: 'solve', input: 'a.txt', output: 'b.txt', format: undefined }],
  [['solve', 'a.txt', '--output', 'b.txt'], { kind: 'solve', input: 'a.txt', output: 'b.txt', format: undefined }],
  [['solve', 'a.txt', '--output=b.txt'], { kind: 'solve', input: 'a.txt', output: 'b.txt', format: undefined }],
  [['solve', '-o', 'x', '-o', 'y'], { kind: 'usage-error', message: 'only one output may be given' }],
  [['solve', '-o'], { kind: 'usage-error', message: '-o needs a value' }],
  [['solve', '--output='], { kind: 'usage-error', message: '--output needs a value' }],
  [['solve', '-o', ''], { kind: 'usage-error', message: '-o needs a value' }],
  [['solve', '-f', 'csv'], { kind: 'solve', input: '-', output: undefined, format: 'csv' }],
  [['solve', '--format=jsonl'], { kind: 'solve', input: '-', output: undefined, format: 'jsonl' }],
  [['solve', '--format', 'xml'], { kind: 'usage-error', message: "unknown format 'xml'; use txt, csv, jsonl or json" }],
  [['solve', '-f', 'json', '-f', 'txt'], { kind: 'solve', input: '-', output: undefined, format: 'txt' }],
  [['solve', '-f'], { kind: 'usage-error', message: '-f needs a value' }],
  [['solve', '--threads', '2'], { kind: 'solve', input: '-', output: undefined, format: undefined, threads: 2 }],
  [['solve', '--threads=3'], { kind: 'solve', input: '-', output: undefined, format: undefined, threads: 3 }],
  [['solve', '-j', '4'], { kind: 'solve', input: '-', output: undefined, format: undefined, threads: 4 }],
  [['solve', '-j'], { kind: 'usage-error', message: '-j needs a value' }],
  [['solve', '--threads', ''], { kind: 'usage-error', message: '--threads needs a value' }],
  [
    ['solve', '--threads', '0'],
    { kind: 'usage-error', message: "--threads must be a whole number from 1 to 64, got '0'" },
  ],
  [
    ['solve', '--threads', 'two'],
    { kind: 'usage-error', message: "--threads must be a whole number from 1 to 64, got 'two'" },
  ],
  [
    ['solve', '--threads', '65'],
    { kind: 'usage-error', message: "--threads must be a whole number from 1 to 64, got '65'" },
  ],
  [['solve', '--threads=', 'a'], { kind: 'usage-error', message: '--threads needs a value' }],
  [['solve', '--bogus'], { kind: 'usage-error', message: "unknown option '--bogus'" }],
  [['solve', '--bogus=1'], { kind: 'usage-error', message: "unknown option '--bogus=1'" }],
  [['solve', '-x'], { kind: 'usage-error', message: "unknown option '-x'" }],
  [['solve', '-xy'], { kind: 'usage-error', message: "unknown option '-xy'" }],
  [['solve', '-j3'], { kind: 'usage-error', message: "unknown option '-j3'" }],
  [['solve', '-o=x'], { kind: 'usage-error', message: "unknown option '-o=x'" }],
  [['solve', '--'], { kind: 'usage-error', message: "unknown option '--'" }],
  [['solve', 'a', 'b'], { kind: 'usage-error', message: "only one input file may be given (got 'a' and 'b')" }],
  [['solve', '-', 'b'], { kind: 'usage-error', message: "only one input file may be given (got '-' and 'b')" }],
  [['solve', '-o', '--bogus'], { kind: 'solve', input: '-', output: '--bogus', format: undefined }],
  [['solve', '-o', '-'], { kind: 'solve', input: '-', output: '-', format: undefined }],
  [
    ['solve', 'in.txt', '-o', 'out.txt', '-f', 'txt', '-j', '2'],
    { kind: 'solve', input: 'in.txt', output: 'out.txt', format: 'txt', threads: 2 },
  ],
  [['solve', '--output', 'o', 'in'], { kind: 'solve', input: 'in', output: 'o', format: undefined }],
  [
    ['Solve'],
    { kind: 'usage-error', message: "unknown command 'Solve'; the commands are 'solve', 'grade' and 'generate'" },
  ],
];

describe('sudoku command line', () => {
  it.each(CASES)('%j reads as %j', (argv, expected) => {
    expect(parseArguments(argv)).toStrictEqual(expected);
  });
});
