// `npx cdk synth` end to end, as a deployer runs it: offline, no AWS credentials, cdk-nag on.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { handlerBundleDir, root } from '../../infra/paths.js';

const run = promisify(execFile);

/** The environment without anything that could reach an AWS account. */
function offlineEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(AWS_|CDK_)/.test(key)) env[key] = value;
  }
  return {
    ...env,
    AWS_CONFIG_FILE: '/dev/null',
    AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
}

describe('npx cdk synth', () => {
  it('synthesizes the Sudoku stack offline, without credentials, with no cdk-nag or template finding', async () => {
    expect(existsSync(path.join(handlerBundleDir, 'index.mjs')), 'dist/handler missing: run `npm run build`').toBe(
      true,
    );
    const out = mkdtempSync(path.join(tmpdir(), 'sudoku-synth-'));
    await run(path.join(root, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '--output', out], {
      cwd: root,
      env: offlineEnv(),
      timeout: 110_000,
    });
    const template = JSON.parse(readFileSync(path.join(out, 'Sudoku.template.json'), 'utf8')) as {
      Resources: Record<string, { Type: string }>;
    };
    const types = new Set(Object.values(template.Resources).map((r) => r.Type));
    for (const type of [
      'AWS::Lambda::Function',
      'AWS::ApiGatewayV2::Api',
      'AWS::StepFunctions::StateMachine',
      'AWS::Scheduler::Schedule',
    ]) {
      expect(types).toContain(type);
    }
    const report = JSON.parse(readFileSync(path.join(out, 'validation-report.json'), 'utf8')) as {
      pluginReports: { violations: unknown[] }[];
    };
    expect(report.pluginReports.flatMap((r) => r.violations)).toEqual([]);
  }, 120_000);
});
