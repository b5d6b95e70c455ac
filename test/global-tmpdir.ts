// Once per test run, before any worker starts: every temporary folder the run makes goes into one
// of its own, removed when the run ends. A CDK App synthesizes into a fresh `cdk.out*` under the
// temporary folder and never removes it (runs of the suite left tens of thousands behind), and CDK
// keeps the folder it found for the life of the process, so a folder per test file would vanish
// under the files that share a worker (the fast lane's). Workers and the processes they start
// inherit TMPDIR. Every project runs its global setups: the first makes the folder, the last to
// end removes it (nested folders would pass the 108 bytes of a socket path that tsx listens on).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface RunFolder {
  outer: string | undefined;
  folder: string;
  users: number;
}
const shared = globalThis as typeof globalThis & { sudokuTestRunFolder?: RunFolder };

export default function setup(): () => void {
  if (!shared.sudokuTestRunFolder) {
    const outer = process.env.TMPDIR;
    const folder = mkdtempSync(join(tmpdir(), 'sudoku-test-'));
    process.env.TMPDIR = folder;
    shared.sudokuTestRunFolder = { outer, folder, users: 0 };
  }
  const run = shared.sudokuTestRunFolder;
  run.users += 1;
  return () => {
    run.users -= 1;
    if (run.users > 0) return;
    if (run.outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = run.outer;
    rmSync(run.folder, { recursive: true, force: true });
    shared.sudokuTestRunFolder = undefined;
  };
}
