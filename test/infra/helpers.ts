// Builders for the infra tests: a stand-in Lambda bundle and one synthesized stack per call.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { root } from '../../infra/paths.js';
import { readSettings } from '../../infra/settings.js';
import { SudokuStack } from '../../infra/sudoku-stack.js';

/** A folder shaped like `dist/handler` (index.mjs + map), so the infra tests need no real build. */
export function fakeBundle(): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sudoku-infra-')), 'handler');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'index.mjs'), 'export const handler = async () => ({ statusCode: 200 });\n');
  writeFileSync(path.join(dir, 'index.mjs.map'), '{"version":3,"sources":[],"mappings":""}\n');
  return dir;
}

export interface Synthesized {
  readonly app: App;
  readonly stack: SudokuStack;
  readonly template: Template;
  readonly bundleDir: string;
}

/** The `context` block of cdk.json: the settings and feature flags `npx cdk synth` uses. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(path.join(root, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  return cdkJson.context;
}

/**
 * Synthesizes the stack as `npx cdk synth` would (cdk.json's context), with `context` on top,
 * skipping CDK's built-in template validation for speed.
 */
export function synth(context: Record<string, unknown> = {}): Synthesized {
  const app = new App({
    context: { ...cdkJsonContext(), ...context },
    outdir: mkdtempSync(path.join(tmpdir(), 'sudoku-cdk-out-')),
    builtinCloudFormationValidation: false,
  });
  const bundleDir = fakeBundle();
  const stack = new SudokuStack(app, 'Sudoku', { settings: readSettings(app.node), bundleDir });
  const template = Template.fromStack(stack);
  return { app, stack, template, bundleDir };
}

/** A CloudFormation value rendered as text: `{Ref: X}` -> `${X}`, `{Fn::GetAtt: [X, A]}` -> `${X.A}`. */
export function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, unknown>;
  if ('Ref' in v) return `\${${String(v.Ref)}}`;
  if ('Fn::GetAtt' in v) return `\${${(v['Fn::GetAtt'] as string[]).join('.')}}`;
  if ('Fn::Join' in v) {
    const [sep, parts] = v['Fn::Join'] as [string, unknown[]];
    return parts.map(flatten).join(sep);
  }
  return JSON.stringify(v);
}

export interface Acknowledgement {
  readonly path: string;
  readonly id: string;
  readonly reason: string;
}

/** Every `Validations.of(x).acknowledge(...)` recorded in the tree under `scope`. */
export function acknowledgements(scope: IConstruct): Acknowledgement[] {
  const found: Acknowledgement[] = [];
  for (const construct of scope.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (
        entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY ||
        typeof entry.data !== 'object' ||
        entry.data === null
      )
        continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, unknown>)) {
        found.push({ path: construct.node.path, id: id.replace(/^annotation::/i, ''), reason: String(reason) });
      }
    }
  }
  return found;
}

/** The findings cdk-nag's AwsSolutions pack still reports under `scope`, one line each, so a failure names them. */
export function unacknowledgedFindings(scope: IConstruct): string[] {
  const report = new AwsSolutionsChecks().validateScope(scope);
  return report.violations.flatMap((v) =>
    v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}: ${v.description}`),
  );
}
