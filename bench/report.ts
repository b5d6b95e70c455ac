/**
 * docs/benchmarks.md, written by `npm run bench` itself, so the figures there are always what was
 * measured. Each section of a run replaces its own block of the file, stamped with the commit, the
 * date, the machine and the Node version it ran on; the blocks of sections not run this time stay
 * as they were, with their own stamps. So `npm run bench -- bundle` refreshes the bundle's figures
 * and leaves the rest of the file honest about when it was measured.
 */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BENCHMARKS_FILE = path.join(root, 'docs', 'benchmarks.md');

const INTRO = `# Benchmarks

Written by \`npm run bench\` (do not edit by hand): each section below is the output of its part of
the benchmark, stamped with the commit, date, machine and Node version it ran on. \`npm run bench --
NAME\` reruns one section (\`solver\`, or a file name of \`bench/sections/\`) and rewrites only its
block; \`npm run bench -- --no-write\` prints without writing. A ratio is a comparison only within
one section: both sides ran in the same run, on the same puzzles. The README quotes a few headline
figures; older runs, with what was tried on the way, are in \`docs/notes/\`.

Two kinds of figures, kept apart. **\`npm run bench\`** prints only comparisons it measures itself,
in the same run, on the same puzzles: the solver on every shared set in both modes (first solution;
counting to two, which is what proving uniqueness costs) against a faithful port of the LeetCode 37
backtracking (\`bench/reference-backtracking.ts\`) and against the fastest npm solver,
\`@algorithm.ts/sudoku\`; the cost per million puzzles on Lambda; the bundle's size, cold start and
per-request overhead; the web page; the file path on one and on every CPU; and 1,000,000 and
4,000,000 puzzles through the local S3 server. Every answer is verified. **The ratio to tdoku**
(native C++ with SIMD, the fastest public solver) comes only from \`../shared/tools/solver-vs-tdoku.mjs\`,
which builds tdoku and runs both side by side, alternating, pinned to one core; \`npm run bench\` runs
it for the file path, and \`node ../shared/tools/solver-vs-tdoku.mjs SET...\` for the core.
`;

/** Where and on what a section ran: the stamp at the head of its block. */
export function runStamp(now = new Date()): string {
  const git = (args: string): string => {
    try {
      return execSync(`git ${args}`, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  const commit = git('rev-parse --short HEAD') || 'unknown';
  const dirty = git('status --porcelain --untracked-files=no') ? ' (with uncommitted changes)' : '';
  const cpus = os.cpus();
  const machine = `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.arch()}`;
  return `commit ${commit}${dirty}, ${now.toISOString().replace(/\.\d+Z$/, 'Z')}, ${machine}, Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the start`;
}

const BLOCK = /<!-- bench:([\w-]+) -->\n([\s\S]*?)<!-- \/bench:\1 -->\n?/g;

/** The blocks of an existing file, by section name, in file order. */
function readBlocks(file: string): Map<string, string> {
  const blocks = new Map<string, string>();
  if (!existsSync(file)) return blocks;
  for (const match of readFileSync(file, 'utf8').matchAll(BLOCK)) blocks.set(match[1]!, match[2]!);
  return blocks;
}

/**
 * Rewrites `file` with this run's sections (name -> stamp and output) in place of their old
 * blocks, in `order`; blocks of other sections (and any not in `order`, after them) are kept.
 */
export function writeBenchmarks(
  ran: ReadonlyMap<string, string>,
  order: readonly string[],
  file = BENCHMARKS_FILE,
): void {
  const blocks = readBlocks(file);
  for (const [name, text] of ran) blocks.set(name, text);
  const names = [...order.filter((n) => blocks.has(n)), ...[...blocks.keys()].filter((n) => !order.includes(n))];
  const body = names.map((name) => `<!-- bench:${name} -->\n${blocks.get(name)!.trimEnd()}\n<!-- /bench:${name} -->\n`);
  writeFileSync(file, `${INTRO}\n${body.join('\n')}`);
  // The sections print compact tables; Biome aligns them, as it does every Markdown file of the repository.
  execSync(
    `${JSON.stringify(path.join(root, 'node_modules', '.bin', 'biome'))} format --write ${JSON.stringify(file)}`,
    {
      cwd: root,
      stdio: 'ignore',
    },
  );
}
