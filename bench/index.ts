/**
 * `npm run bench`: the solver tables first, then every section in bench/sections/ (bundle, S3
 * pipeline, ...). `npm run bench -- solver` (or a section's file name) runs just that part. What
 * each part prints is also written to docs/benchmarks.md (bench/report.ts), unless `--no-write`.
 * The full puzzle sets come from `--puzzles DIR`, else $SUDOKU_PUZZLES_DIR, else ../shared/puzzles
 * (bench/puzzle-sets.ts); a run without them says which are missing and how to point at them.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PUZZLES_DIR_ENV, PuzzleSetsMissingError, puzzlesOption } from './puzzle-sets.js';
import { BENCHMARKS_FILE, runStamp, writeBenchmarks } from './report.js';

interface Section {
  run(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const write = !args.includes('--no-write');
const puzzles = puzzlesOption(args);
// Sections that run in processes of their own (the load client, ...) find the folder this way too.
if (puzzles !== undefined) process.env[PUZZLES_DIR_ENV] = path.resolve(puzzles);
const only = args.filter(
  (a, i) => a !== '--no-write' && a !== '--puzzles' && args[i - 1] !== '--puzzles' && !a.startsWith('--puzzles='),
);
const parts: [string, string][] = [
  ['solver', path.join(here, 'solver.ts')],
  ...readdirSync(path.join(here, 'sections'))
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f): [string, string] => [f.replace(/\.ts$/, ''), path.join(here, 'sections', f)]),
];

/**
 * Runs of plain lines laid out in columns (two spaces inside a line) go in a text block, so
 * Markdown keeps them as printed; tables, headings and prose stay as they are.
 */
function fenceAligned(text: string): string {
  const out: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.some((line) => /\S {2,}\S/.test(line))) out.push('```text', ...run, '```');
    else out.push(...run);
    run = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '' || /^\s*[|#]/.test(line)) {
      flush();
      out.push(line);
    } else {
      run.push(line);
    }
  }
  flush();
  return out.join('\n');
}

console.log(`# Benchmark — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.arch}`);
const ran = new Map<string, string>();
const print = console.log;
for (const [name, file] of parts) {
  if (only.length && !only.includes(name)) continue;
  const stamp = runStamp();
  const printed: string[] = [];
  // Everything a section prints is markdown: shown as it comes, and kept for docs/benchmarks.md.
  console.log = (...values: unknown[]) => {
    printed.push(values.map(String).join(' '));
    print(...values);
  };
  try {
    const section = (await import(pathToFileURL(file).href)) as Section;
    await section.run();
  } catch (error) {
    if (!(error instanceof PuzzleSetsMissingError)) throw error;
    console.log = print;
    console.error(error.message);
    process.exit(2);
  } finally {
    console.log = print;
  }
  // The section's own heading first (or its name), then where and when it ran.
  const text = printed.join('\n').trim();
  const [heading, rest] = text.startsWith('## ')
    ? [text.split('\n', 1)[0]!, text.includes('\n') ? text.slice(text.indexOf('\n') + 1) : '']
    : [`## ${name}`, text];
  ran.set(name, `${heading}\n\n_${stamp}_\n\n${fenceAligned(rest.trim())}\n`);
}
if (write && ran.size > 0) {
  writeBenchmarks(
    ran,
    parts.map(([name]) => name),
  );
  print(`\n(written to ${path.relative(process.cwd(), BENCHMARKS_FILE)}: ${[...ran.keys()].join(', ')})`);
}
