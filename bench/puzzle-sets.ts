/**
 * The one reader of puzzle sets, for the tests and the benchmark alike. Two folders hold files of
 * the same names: the compact fixtures committed in test/fixtures/puzzles (samples of every set,
 * what the tests read, so a clone needs nothing beside it), and the full sets the benchmark
 * measures on (tdoku's benchmark data and Norvig's top95, megabytes, kept outside the repository).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The fixtures the tests read: the repository's own (test/fixtures/puzzles/README.md says how each was sampled). */
export const FIXTURES_DIR = path.join(root, 'test', 'fixtures', 'puzzles');

/** Where the full sets are looked for when neither the option nor the variable names a folder. */
export const DEFAULT_FULL_SETS_DIR = path.resolve(root, '..', 'shared', 'puzzles');

/** The environment variable that names the full sets' folder (`--puzzles DIR` wins over it). */
export const PUZZLES_DIR_ENV = 'SUDOKU_PUZZLES_DIR';

/** Sets in difficulty order, as the benchmark reports them. */
export const BENCH_SETS = [
  'puzzles2_17_clue',
  'puzzles3_magictour_top1465',
  'puzzles5_forum_hardest_1905_11+',
  'puzzles6_forum_hardest_1106',
  'puzzles7_serg_benchmark',
  'norvig_top95',
] as const;

/** tdoku's solver test vectors: puzzles with no, one and several solutions. */
export const TDOKU_VECTORS = 'tdoku_test_puzzles';

export interface TdokuVector {
  puzzle: string;
  /** 0 (no solution), 1 (unique: `solution` follows) or more. */
  count: number;
  solution?: string;
}

export interface PuzzleSets {
  /** The folder the sets are read from. */
  dir: string;
  /** The file of a set, for a command that reads it by name. */
  file(name: string): string;
  /** One 81-character puzzle a line, as in every `puzzles*` file and `norvig_top95`. */
  read(name: string): string[];
  /** tdoku's test vectors: `puzzle:count[:solution]`. */
  tdokuVectors(): TdokuVector[];
}

/** The sets of one folder; each file is read once. */
export function puzzleSetsIn(dir: string): PuzzleSets {
  const cache = new Map<string, string[]>();
  const file = (name: string): string => path.join(dir, name);
  const read = (name: string): string[] => {
    let lines = cache.get(name);
    if (!lines) {
      lines = readFileSync(file(name), 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.length > 0);
      cache.set(name, lines);
    }
    // A copy: callers shuffle and splice what they are given.
    return [...lines];
  };
  const tdokuVectors = (): TdokuVector[] =>
    read(TDOKU_VECTORS).map((line) => {
      const [puzzle, count, solution] = line.split(':');
      return { puzzle: puzzle!, count: Number(count), ...(solution ? { solution } : {}) };
    });
  return { dir, file, read, tdokuVectors };
}

/** The committed fixtures: what every test reads. */
export const fixtureSets: PuzzleSets = puzzleSetsIn(FIXTURES_DIR);

/** The full sets are not where they were looked for: what is missing, and how to point at them. */
export class PuzzleSetsMissingError extends Error {
  readonly code = 'PUZZLE_SETS_MISSING';
  constructor(
    readonly dir: string,
    readonly missing: readonly string[],
    readonly source: string,
  ) {
    super(
      `${PuzzleSetsMissingError.name}: the benchmark's full puzzle sets are not in ${dir} (${source}): ` +
        `missing ${missing.join(', ')}. Put tdoku's benchmark data (github.com/t-dillon/tdoku, data.zip) and ` +
        `norvig_top95 in one folder and pass it as \`npm run bench -- --puzzles DIR\` or ${PUZZLES_DIR_ENV}=DIR; ` +
        'test/fixtures/puzzles/README.md lists the files.',
    );
  }
}

/** `--puzzles DIR` or `--puzzles=DIR` in `args`, if given. */
export function puzzlesOption(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--puzzles') return args[i + 1];
    if (a.startsWith('--puzzles=')) return a.slice('--puzzles='.length);
  }
  return undefined;
}

/**
 * The full sets: the folder `--puzzles` names, else the one ${PUZZLES_DIR_ENV} names, else
 * ../shared/puzzles beside the repository. Throws {@link PuzzleSetsMissingError} naming every
 * set that folder lacks, so a run stops before it measures anything.
 */
export function fullPuzzleSets(
  args: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
  needed: readonly string[] = [...BENCH_SETS, TDOKU_VECTORS],
): PuzzleSets {
  const option = puzzlesOption(args);
  const fromEnv = env[PUZZLES_DIR_ENV];
  const [dir, source] =
    option !== undefined
      ? [path.resolve(option), '--puzzles']
      : fromEnv
        ? [path.resolve(fromEnv), PUZZLES_DIR_ENV]
        : [DEFAULT_FULL_SETS_DIR, 'the default, ../shared/puzzles beside the repository'];
  const missing = needed.filter((name) => !existsSync(path.join(dir, name)));
  if (missing.length > 0) throw new PuzzleSetsMissingError(dir, missing, source);
  return puzzleSetsIn(dir);
}

/** `count` lines taken round-robin from `lines`: a set repeated to the size a test or bench wants. */
export function cycled(lines: readonly string[], count: number): string[] {
  return Array.from({ length: count }, (_, i) => lines[i % lines.length]!);
}
