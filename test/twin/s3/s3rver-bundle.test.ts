// The s3rver process runs from a bundle of its sources (twin/s3/s3rver-bundle.ts): reused only
// while every source it was built from is unchanged, so the twin never serves yesterday's code.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedSources, readManifest, S3RVER_BUILD_DIR, s3rverProcessBundle } from '../../../twin/s3/s3rver-bundle.js';

describe('the bundle the s3rver process runs', () => {
  it('is built from the twin sources the process imports, each kept with its hash', async () => {
    const bundle = await s3rverProcessBundle();
    expect(existsSync(bundle)).toBe(true);
    const manifest = readManifest()!;
    expect(path.join(S3RVER_BUILD_DIR, manifest.bundle)).toBe(bundle);
    // Its own sources and those they import (the IAM decisions, the file store), not the packages.
    expect(Object.keys(manifest.inputs)).toEqual(
      expect.arrayContaining([
        'twin/s3/s3rver-process.ts',
        'twin/s3/long-key-store.ts',
        'twin/iam/decide.ts',
        'twin/iam/resource-classes.ts',
      ]),
    );
    expect(Object.keys(manifest.inputs).filter((file) => file.includes('node_modules'))).toEqual([]);
    expect(changedSources(manifest)).toEqual([]);
  });

  it('counts as stale when a source it was built from changed or is gone', async () => {
    await s3rverProcessBundle();
    const manifest = readManifest()!;
    const inputs = { ...manifest.inputs, 'twin/iam/decide.ts': '0'.repeat(64), 'twin/s3/gone.ts': '1'.repeat(64) };
    expect(changedSources({ ...manifest, inputs }).sort()).toEqual(['twin/iam/decide.ts', 'twin/s3/gone.ts']);
  });
});
