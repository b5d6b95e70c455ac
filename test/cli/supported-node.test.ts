// The package needs Node 22 or newer (engines): the CLI and every npm script that runs code say so
// at once on an older Node, with what to do, instead of failing in some import. The older Node is
// the machine's own when it has one (Debian's Node 20 on the development machines and CI).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OLDEST_NODE_MAJOR } from '../../scripts/supported-node.mjs';
import { binPath, repoRoot, runCli } from './run-cli.js';

/** Each `node` on PATH with its version; `npm test` puts the pinned one first, the machine's follow. */
function nodesOnPath(): { file: string; version: string }[] {
  const found = spawnSync('which', ['-a', 'node'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  return found.map((file) => ({
    file,
    version: execFileSync(file, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim(),
  }));
}

const older = nodesOnPath().find((n) => Number(n.version.split('.')[0]) < OLDEST_NODE_MAJOR);
const refusal = (command: string, version: string) =>
  new RegExp(
    `^${command}: needs Node\\.js ${OLDEST_NODE_MAJOR} or newer .*this is Node ${version.replace(/\./g, '\\.')} .*Run it through npm`,
    'm',
  );

describe.runIf(older !== undefined)(`on an older Node (${older?.file}, ${older?.version})`, () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('the CLI refuses with exit 2, naming the Node it needs and the one it got', async () => {
    const run = await runCli(['solve', '-'], { command: [older!.file, binPath], stdin: '' });
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(refusal('sudoku', older!.version));
    expect(run.code).toBe(2);
  });

  it('npm start refuses before it builds or starts anything, when no Node 24 is installed beside it', () => {
    // The project without node_modules: npm finds no pinned Node, so its scripts run on the older one.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-old-node-'));
    dirs.push(dir);
    mkdirSync(path.join(dir, 'scripts'));
    for (const file of ['package.json', 'scripts/build.mjs', 'scripts/supported-node.mjs'])
      copyFileSync(path.join(repoRoot, file), path.join(dir, file));
    const pathOfOlder = [path.dirname(older!.file), '/usr/bin', '/bin'].join(path.delimiter);
    const npm = spawnSync('which', ['npm'], { encoding: 'utf8', env: { PATH: pathOfOlder } }).stdout.trim();
    const run = spawnSync(npm, ['start'], { cwd: dir, encoding: 'utf8', env: { PATH: pathOfOlder, HOME: dir } });
    expect(run.stderr).toMatch(refusal('npm start', older!.version));
    expect(run.status).not.toBe(0);
  });
});
