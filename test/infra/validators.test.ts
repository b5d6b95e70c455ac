// The synthesized template and the state machine definition, checked by the validators AWS
// publishes for them: cfn-lint (CloudFormation's linter, a Python tool on the machine image) and
// asl-validator (Amazon States Language, npm). Each is first shown a broken input, so a validator
// that silently checks nothing fails the test instead of passing it.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../infra/paths.js';
import { synth } from './helpers.js';

const run = promisify(execFile);

interface CfnTemplate {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
}

let templatePath: string;
let template: CfnTemplate;

beforeAll(() => {
  const { app } = synth();
  const assembly = app.synth();
  templatePath = path.join(assembly.directory, 'Sudoku.template.json');
  template = JSON.parse(readFileSync(templatePath, 'utf8')) as CfnTemplate;
});

const cfnLintFound = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' }).status === 0;

interface CfnLintMatch {
  Level: string;
  Rule: { Id: string };
  Message: string;
  Location: { Path?: unknown[] };
}

/** cfn-lint's findings for a template file (it exits non-zero whenever it finds anything, warnings included). */
async function cfnLint(file: string): Promise<CfnLintMatch[]> {
  const result = await run('cfn-lint', ['--format', 'json', '--', file], { timeout: 110_000 }).catch(
    (error: { stdout?: string; code?: number }) => {
      // Exit codes are a bit set: 2 errors, 4 warnings, 8 informational; anything else is cfn-lint failing.
      if (typeof error.code !== 'number' || (error.code & ~14) !== 0) throw error;
      return { stdout: error.stdout ?? '[]' };
    },
  );
  return JSON.parse(result.stdout || '[]') as CfnLintMatch[];
}

const errorsOf = (matches: CfnLintMatch[]) =>
  matches
    .filter((m) => m.Level === 'Error')
    .map((m) => `${m.Rule.Id} at ${JSON.stringify(m.Location.Path)}: ${m.Message}`);

describe('cfn-lint', () => {
  it('finds no error in the synthesized template, and does find one in a broken copy of it', async (context) => {
    if (!cfnLintFound) {
      // CI must check the template; a developer without the tool is told why the check did not run.
      expect(process.env.CI, 'cfn-lint is not on PATH, and CI must run the template through it').toBeFalsy();
      context.skip('cfn-lint is not on PATH (install it with `pip install cfn-lint`); the template was not linted');
    }
    const broken = structuredClone(template);
    const fn = Object.values(broken.Resources).find((r) => r.Type === 'AWS::Lambda::Function' && r.Properties?.Runtime);
    expect(fn).toBeDefined();
    fn!.Properties!.Runtime = 'nodejs8.10';
    const brokenPath = path.join(mkdtempSync(path.join(tmpdir(), 'sudoku-cfn-lint-')), 'Broken.template.json');
    writeFileSync(brokenPath, JSON.stringify(broken));
    const [real, wrong] = await Promise.all([cfnLint(templatePath), cfnLint(brokenPath)]);
    expect(errorsOf(real)).toEqual([]);
    expect(errorsOf(wrong).join('\n')).toMatch(/nodejs8\.10/);
  }, 120_000);
});

/**
 * The definition string of a state machine with CloudFormation's intrinsic functions replaced by
 * values of the shape they take when deployed, so the validator also checks the ARNs.
 */
function resolveDefinition(definition: unknown, resources: CfnTemplate['Resources']): string {
  if (typeof definition === 'string') return definition;
  const join = (definition as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) throw new Error(`Unexpected DefinitionString: ${JSON.stringify(definition).slice(0, 200)}`);
  return join[1]
    .map((part) => {
      if (typeof part === 'string') return part;
      const ref = (part as { Ref?: string }).Ref;
      if (ref === 'AWS::Partition') return 'aws';
      if (ref === 'AWS::Region') return 'eu-west-1';
      if (ref === 'AWS::AccountId') return '123456789012';
      if (ref) return ref.toLowerCase();
      const [id, attribute] = (part as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
      const type = resources[id]?.Type ?? '';
      if (attribute === 'Arn' && type === 'AWS::Lambda::Function')
        return `arn:aws:lambda:eu-west-1:123456789012:function:${id}`;
      if (attribute === 'Arn') return `arn:aws:${type.split('::')[1]?.toLowerCase()}:eu-west-1:123456789012:${id}`;
      throw new Error(`Unexpected Fn::GetAtt ${id}.${attribute}`);
    })
    .join('');
}

/** asl-validator's verdict on a definition (it exits 1 and prints the errors for an invalid one). */
async function aslValidate(definition: string): Promise<{ valid: boolean; output: string }> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sudoku-asl-')), 'definition.json');
  writeFileSync(file, definition);
  const cli = path.join(root, 'node_modules', 'asl-validator', 'dist', 'bin', 'asl-validator.js');
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, '--json-path', file], { timeout: 60_000 });
    return { valid: true, output: stdout + stderr };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { valid: false, output: stdout + stderr };
  }
}

describe('asl-validator', () => {
  it('accepts every state machine definition of the stack, and rejects a broken one', async () => {
    const machines = Object.entries(template.Resources).filter(
      ([, r]) => r.Type === 'AWS::StepFunctions::StateMachine',
    );
    expect(machines.length).toBeGreaterThan(0);
    for (const [id, machine] of machines) {
      const definition = resolveDefinition(machine.Properties?.DefinitionString, template.Resources);
      const verdict = await aslValidate(definition);
      expect(verdict, `${id}: ${verdict.output}`).toMatchObject({ valid: true });

      const broken = JSON.parse(definition) as { StartAt: string };
      broken.StartAt = 'NoSuchState';
      expect(await aslValidate(JSON.stringify(broken))).toMatchObject({ valid: false });
    }
  }, 120_000);
});
