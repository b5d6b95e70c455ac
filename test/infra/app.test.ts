// The app deploys the bundle `npm run build` writes, and refuses to synthesize without it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { SolverFunction } from '../../infra/constructs/solver-function.js';
import { handlerBundleDir, root } from '../../infra/paths.js';

function isBundles(value: unknown): value is { handlerBundleDir: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { handlerBundleDir?: unknown }).handlerBundleDir === 'string'
  );
}

describe('the Lambda bundle', () => {
  it('is taken from the folder scripts/bundles.mjs builds (dist/handler)', async () => {
    const specifier = path.join(root, 'scripts', 'bundles.mjs');
    const bundles: unknown = await import(specifier);
    expect(isBundles(bundles)).toBe(true);
    expect(handlerBundleDir).toBe(isBundles(bundles) ? bundles.handlerBundleDir : undefined);
    expect(path.relative(root, handlerBundleDir)).toBe(path.join('dist', 'handler'));
  });

  it('missing makes the synth fail with a message that says to run npm run build', () => {
    const stack = new Stack(new App(), 'Missing');
    const empty = mkdtempSync(path.join(tmpdir(), 'sudoku-no-bundle-'));
    expect(
      () =>
        new SolverFunction(stack, 'Solver', {
          bundleDir: empty,
          purpose: 'files',
          bucket: new Bucket(stack, 'Bucket'),
          memoryMb: 1769,
          timeoutSeconds: 900,
          reservedConcurrency: 0,
          unreservedPool: 40,
          logRetentionDays: 30,
          serviceName: 'sudoku',
        }),
    ).toThrow(/Lambda bundle not found: .*index\.mjs\. Run `npm run build` first/);
  });
});
