// `npm run deploy -- [cdk deploy arguments]`: build the bundle, check that the stack's reserved
// concurrency fits the account (infra/deploy/preflight.ts, with the same -c settings), then
// `cdk deploy` with the arguments as given. Stops at the first step that fails.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const steps = [
  ['node', ['scripts/build.mjs']],
  ['tsx', ['infra/deploy/preflight.ts', ...args]],
  ['cdk', ['deploy', ...args]],
];
for (const [command, commandArgs] of steps) {
  const { status, error } = spawnSync(command, commandArgs, { stdio: 'inherit' });
  if (error) throw error;
  if (status !== 0) process.exit(status ?? 1);
}
