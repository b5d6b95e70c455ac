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

/** The property that holds each resource type's own physical name, where a template may set one. */
const PHYSICAL_NAME_PROPERTIES: Readonly<Record<string, string>> = {
  'AWS::ApiGatewayV2::Api': 'Name',
  'AWS::CloudWatch::Alarm': 'AlarmName',
  'AWS::CloudWatch::Dashboard': 'DashboardName',
  'AWS::Events::Rule': 'Name',
  'AWS::IAM::Role': 'RoleName',
  'AWS::Lambda::Function': 'FunctionName',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::S3::Bucket': 'BucketName',
  'AWS::Scheduler::Schedule': 'Name',
  'AWS::Scheduler::ScheduleGroup': 'Name',
  'AWS::SNS::Topic': 'TopicName',
  'AWS::SQS::Queue': 'QueueName',
  'AWS::StepFunctions::StateMachine': 'StateMachineName',
};

/** What CloudFormation keys a deployed stack by: each resource's logical ID with its type, and its physical name where the template sets one. */
export interface DeployedIdentity {
  readonly resources: Record<string, { readonly type: string; readonly name?: unknown }>;
  readonly outputs: readonly string[];
}

/** A template's DeployedIdentity: a resource whose logical ID, type or given name changes is replaced on update. */
export function deployedIdentity(template: Template): DeployedIdentity {
  const json = template.toJSON() as {
    Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
    Outputs?: Record<string, unknown>;
  };
  const resources: Record<string, { type: string; name?: unknown }> = {};
  for (const id of Object.keys(json.Resources).sort()) {
    const { Type: type, Properties: properties } = json.Resources[id]!;
    const nameProperty = PHYSICAL_NAME_PROPERTIES[type];
    const name = nameProperty ? properties?.[nameProperty] : undefined;
    resources[id] = name === undefined ? { type } : { type, name };
  }
  return { resources, outputs: Object.keys(json.Outputs ?? {}).sort() };
}
