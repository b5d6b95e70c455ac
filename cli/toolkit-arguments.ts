import { isFileFormat } from '../functions/formats/index.js';
import type { FileFormat } from '../functions/formats/index.js';
import { parseThreadCount } from '../functions/parallel/index.js';
import { LEVELS, type Level } from '../functions/sudoku/logic/index.js';

/** `sudoku grade [FILE|-] [-o OUT] [--format F] [--threads N]`. */
export interface GradeCommand {
  kind: 'grade';
  input: string;
  output: string | undefined;
  /** The input's format when not the one its name says (solve's `--format`). */
  format: FileFormat | undefined;
  /** Threads that grade (default: every CPU, as for solve). */
  threads?: number;
}

/** `sudoku generate --count N --level L [--seed S] [--symmetric] [-o OUT] [--threads N] [--max-attempts A]`. */
export interface GenerateCommand {
  kind: 'generate';
  count: number;
  level: Level;
  /** uint32; puzzle i is generated from seed + i (mod 2^32). Drawn at random when not given. */
  seed: number | undefined;
  symmetric: boolean;
  output: string | undefined;
  /** Threads that generate (default: every CPU, as for solve). */
  threads?: number;
  /** Attempts a puzzle may take before the run stops with GENERATION_LIMIT (the core's default). */
  maxAttempts?: number;
}

type Parsed = GradeCommand | GenerateCommand | { kind: 'usage-error'; message: string };

const usageError = (message: string): Parsed => ({ kind: 'usage-error', message });
const MAX_SEED = 0xffff_ffff;
/** Most puzzles one run makes (about a minute at `extreme`, seconds at the other levels). */
export const MAX_GENERATE_COUNT = 1_000_000;
/** Most attempts a puzzle may take (the core gives up after 20,000 by default; extreme takes ~24). */
const MAX_ATTEMPTS = 1_000_000;

/** Parses the arguments after `grade` or `generate`; never throws. */
export function parseToolkitArguments(command: 'grade' | 'generate', rest: readonly string[]): Parsed {
  const values = new Map<string, string>();
  let symmetric = false;
  let input: string | undefined;
  const takes =
    command === 'grade'
      ? ['-o', '--output', '-j', '--threads', '-f', '--format']
      : ['-o', '--output', '-n', '--count', '-l', '--level', '-s', '--seed', '-j', '--threads', '--max-attempts'];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const [flag, inline] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    if (takes.includes(flag)) {
      const value = inline ?? rest[++i];
      if (value === undefined || value === '') return usageError(`${flag} needs a value`);
      const name = flag.length === 2 ? takes[takes.indexOf(flag) + 1]! : flag;
      if (values.has(name)) return usageError(`${name} may be given only once`);
      values.set(name, value);
    } else if (command === 'generate' && flag === '--symmetric') {
      symmetric = true;
    } else if (arg.startsWith('-') && arg !== '-') {
      return usageError(`unknown option '${arg}' for ${command}`);
    } else if (command === 'grade' && input === undefined) {
      input = arg;
    } else {
      return usageError(command === 'grade' ? 'only one input file may be given' : `unexpected argument '${arg}'`);
    }
  }
  const output = values.get('--output');
  const threadsText = values.get('--threads');
  const threads = threadsText === undefined ? undefined : parseThreadCount(threadsText, '--threads');
  if (threads && !threads.ok) return usageError(threads.message);
  const threadCount = threads?.ok ? { threads: threads.threads } : {};
  if (command === 'grade') {
    const format = values.get('--format');
    if (format !== undefined && !isFileFormat(format)) {
      return usageError(`unknown format '${format}'; use txt, csv, jsonl or json`);
    }
    return { kind: 'grade', input: input ?? '-', output, format, ...threadCount };
  }
  const countText = values.get('--count') ?? '1';
  if (!/^\d+$/.test(countText) || Number(countText) < 1 || Number(countText) > MAX_GENERATE_COUNT) {
    return usageError(`--count must be an integer from 1 to ${MAX_GENERATE_COUNT}, got '${countText}'`);
  }
  const levelText = values.get('--level');
  if (levelText === undefined) return usageError(`generate needs --level (${LEVELS.join(', ')})`);
  if (!(LEVELS as readonly string[]).includes(levelText)) {
    return usageError(`unknown level '${levelText}'; use ${LEVELS.join(', ')}`);
  }
  const seedText = values.get('--seed');
  if (seedText !== undefined && (!/^\d{1,10}$/.test(seedText) || Number(seedText) > MAX_SEED)) {
    return usageError(`--seed must be an integer from 0 to ${MAX_SEED}, got '${seedText}'`);
  }
  const attemptsText = values.get('--max-attempts');
  if (
    attemptsText !== undefined &&
    (!/^\d+$/.test(attemptsText) || Number(attemptsText) < 1 || Number(attemptsText) > MAX_ATTEMPTS)
  ) {
    return usageError(`--max-attempts must be an integer from 1 to ${MAX_ATTEMPTS}, got '${attemptsText}'`);
  }
  return {
    kind: 'generate',
    count: Number(countText),
    level: levelText as Level,
    seed: seedText === undefined ? undefined : Number(seedText),
    symmetric,
    output,
    ...threadCount,
    ...(attemptsText === undefined ? {} : { maxAttempts: Number(attemptsText) }),
  };
}

export const TOOLKIT_HELP = `
       sudoku grade [FILE|-] [-o OUT] [--format F] [--threads N]
       sudoku generate --level L [--count N] [--seed S] [--symmetric] [-o OUT] [--threads N]
                       [--max-attempts A]

grade: reads the formats solve reads. For .txt (one puzzle a line) and .jsonl (one board a
line), one JSON line per input line: {"level","score","hardest","techniques"} for a puzzle with
exactly one solution, or {"line","problems"} for one without (also named on stderr); a blank
line stays blank. A .json array gets an array of the same ({"index","problems"} for a failed
board); a .csv is written back with solve's columns and level and score columns.
Levels: easy (singles), medium (+ locked candidates, pairs, triples), hard (+ quads, fish,
wings), expert (+ coloring, chains), extreme (needs a guess). Exit 1 if any puzzle failed.

generate: N (default 1) unique, minimal puzzles at level L, one 81-character line each ('.'
empty). Puzzle i comes from seed S + i, so the same S gives the same output everywhere (and
the first puzzle is GET /puzzle?level=L&seed=S's); without --seed a random S is drawn and
printed on stderr. A puzzle not found in A attempts (default 20,000; extreme takes ~24) stops
the run there, exit 1: the puzzles before it are on standard output, and -o writes nothing.

Both run on every CPU, output in order, as solve does (-j, --threads N: on N threads).

  npx sudoku grade puzzles.txt -o grades.jsonl
  npx sudoku grade kaggle.csv.gz -o graded.csv.gz
  npx sudoku generate --count 100 --level hard --seed 7 -o hard.txt
`;
