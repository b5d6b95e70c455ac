// The suite proves what is deployed only if it runs on the Node.js major the stack deploys.
// `npm test` runs on the pinned Node (the node-<platform> optional dependencies put `node` first
// on the scripts' PATH); .ci/run runs the suite once more on the machine's own Node, declared by
// SUDOKU_COMPAT_NODE, to keep the code working on every Node the package accepts (engines).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../infra/paths.js';
import { synth } from './helpers.js';

interface PackageJson {
  engines: { node: string };
  optionalDependencies?: Record<string, string>;
}

const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as PackageJson;
const major = (version: string): number => Number(/\d+/.exec(version)?.[0]);

/** The Node.js major of every Lambda function the stack deploys, e.g. 24 for `nodejs24.x`. */
function deployedMajors(): number[] {
  const functions = synth().template.findResources('AWS::Lambda::Function');
  const runtimes = Object.values(functions)
    .map((f) => (f as { Properties: { Runtime?: string } }).Properties.Runtime)
    .filter((r): r is string => typeof r === 'string' && r.startsWith('nodejs'));
  return [...new Set(runtimes.map(major))];
}

describe('Node.js runtime', () => {
  const deployed = deployedMajors();
  const running = major(process.versions.node);
  const compat = process.env.SUDOKU_COMPAT_NODE;

  it('is the same major for every function the stack deploys, and for the Node pinned in package.json', () => {
    expect(deployed).toHaveLength(1);
    const pinned = Object.entries(packageJson.optionalDependencies ?? {}).filter(([name]) => name.startsWith('node-'));
    expect(pinned.length).toBeGreaterThan(0);
    for (const [name, version] of pinned) expect(major(version), name).toBe(deployed[0]);
  });

  it.runIf(compat === undefined)("runs the suite on the stack's runtime major", () => {
    expect(
      running,
      `the suite runs on Node ${process.versions.node}, the stack deploys nodejs${deployed[0]}.x: run it with npm test`,
    ).toBe(deployed[0]);
  });

  it.runIf(compat !== undefined)('runs the compatibility pass on the declared Node, one the package accepts', () => {
    expect(running).toBe(Number(compat));
    expect(running).toBeGreaterThanOrEqual(major(packageJson.engines.node));
  });
});
