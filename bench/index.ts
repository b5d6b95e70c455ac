/**
 * `npm run bench`: the solver tables first, then every section in bench/sections/ (bundle, S3
 * pipeline, ...). `npm run bench -- solver` (or a section's file name) runs just that part.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface Section {
  run(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const parts: [string, string][] = [
  ['solver', path.join(here, 'solver.ts')],
  ...readdirSync(path.join(here, 'sections'))
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f): [string, string] => [f.replace(/\.ts$/, ''), path.join(here, 'sections', f)]),
];

console.log(`# Benchmark — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.arch}`);
for (const [name, file] of parts) {
  if (only.length && !only.includes(name)) continue;
  const section = (await import(pathToFileURL(file).href)) as Section;
  await section.run();
}
