// The Sudoku stack holds the SudokuService as its `Default` child, which CDK leaves out of logical
// IDs and unique names: every resource keeps the logical ID, type and given name it had when the
// stack built the resources itself (the committed fixture), so an existing deployment updates in
// place and keeps its bucket, state machines and log groups.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type DeployedIdentity, deployedIdentity, synth } from './helpers.js';

interface Fixture {
  readonly variants: Record<string, DeployedIdentity & { readonly context: Record<string, unknown> }>;
}

const fixture = JSON.parse(
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'deployed-identity.json'), 'utf8'),
) as Fixture;

describe('the Sudoku stack, built by the SudokuService construct', () => {
  it('is checked against settings that between them make every kind of resource (each route of uploads, iam, a bucket destroyed with the stack)', () => {
    const contexts = Object.values(fixture.variants).map((v) => v.context);
    expect(contexts.map((c) => c.s3Events ?? 'notification').sort()).toEqual(['eventbridge', 'notification', 'sqs']);
    expect(contexts.some((c) => c.retainBucket === false && c.apiAuth === 'iam')).toBe(true);
  });

  it.each(Object.keys(fixture.variants))(
    'keeps every logical ID, type, given physical name and output of the stack as deployed before it (%s)',
    (name) => {
      const { context, ...before } = fixture.variants[name]!;
      expect(deployedIdentity(synth(context).template)).toEqual(before);
    },
  );
});
