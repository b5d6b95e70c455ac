/**
 * The state machine definitions the stack deploys, read from its synthesized template (the one the
 * twin decides IAM by), for the twin to run as written: a change to infra/constructs/ changes what
 * the twin runs and measures. Only the part of the Amazon States Language the stack uses is
 * modelled (asl-data.ts); `checkAslSubset` names anything else, so a definition that grows past the
 * subset fails a test instead of being run wrongly.
 */
import { ServiceError } from '../../functions/contract/service-error.js';
import { REFERENCE_PATH } from './asl-data.js';
import type { CloudFormationTemplate } from '../iam/resolve-template.js';
import { TemplateResolver } from '../iam/resolve-template.js';
import { loadStackTemplate } from '../iam/stack-template.js';

export interface Retrier {
  ErrorEquals: string[];
  IntervalSeconds?: number;
  MaxAttempts?: number;
  BackoffRate?: number;
  MaxDelaySeconds?: number;
  JitterStrategy?: string;
}

export interface Catcher {
  ErrorEquals: string[];
  ResultPath?: string | null;
  Next: string;
}

export interface ChoiceRule {
  Variable?: string;
  IsPresent?: boolean;
  StringEquals?: string;
  And?: ChoiceRule[];
  Or?: ChoiceRule[];
  Not?: ChoiceRule;
  Next?: string;
}

/** One state, every field the subset reads (which fields a type may have is checked by checkAslSubset). */
export interface AslState {
  Type: 'Task' | 'Map' | 'Choice' | 'Pass' | 'Succeed' | 'Fail';
  Next?: string;
  End?: boolean;
  InputPath?: string | null;
  OutputPath?: string | null;
  Parameters?: unknown;
  ResultSelector?: unknown;
  ResultPath?: string | null;
  Result?: unknown;
  Resource?: string;
  Retry?: Retrier[];
  Catch?: Catcher[];
  ItemReader?: { Resource: string; ReaderConfig?: { InputType?: string }; Parameters: Record<string, unknown> };
  ItemSelector?: unknown;
  ItemProcessor?: AslMachine & { ProcessorConfig?: { Mode?: string; ExecutionType?: string } };
  MaxConcurrency?: number;
  Label?: string;
  ToleratedFailurePercentage?: number;
  ItemBatcher?: { MaxItemsPerBatch?: number; MaxInputBytesPerBatch?: number; BatchInput?: unknown };
  Choices?: ChoiceRule[];
  Default?: string;
  Error?: string;
  Cause?: string;
  ErrorPath?: string;
  CausePath?: string;
}

export interface AslMachine {
  StartAt: string;
  States: Record<string, AslState>;
}

const COMMON = ['Type', 'Comment', 'Next', 'End', 'InputPath', 'OutputPath'];
const ALLOWED: Record<AslState['Type'], string[]> = {
  Task: [...COMMON, 'Resource', 'Parameters', 'ResultSelector', 'ResultPath', 'Retry', 'Catch'],
  Map: [
    ...COMMON,
    'ItemReader',
    'ItemSelector',
    'ItemProcessor',
    'MaxConcurrency',
    'Label',
    'ToleratedFailurePercentage',
    'ResultPath',
    'Catch',
  ],
  Choice: ['Type', 'Comment', 'InputPath', 'OutputPath', 'Choices', 'Default'],
  Pass: [...COMMON, 'Parameters', 'Result', 'ResultPath'],
  Succeed: ['Type', 'Comment', 'InputPath', 'OutputPath'],
  Fail: ['Type', 'Comment', 'Error', 'Cause', 'ErrorPath', 'CausePath'],
};
const MACHINE_FIELDS = ['StartAt', 'States', 'Comment', 'TimeoutSeconds', 'ProcessorConfig'];
const RETRIER_FIELDS = [
  'ErrorEquals',
  'IntervalSeconds',
  'MaxAttempts',
  'BackoffRate',
  'MaxDelaySeconds',
  'JitterStrategy',
];
const CATCHER_FIELDS = ['ErrorEquals', 'ResultPath', 'Next'];
const CHOICE_FIELDS = ['Variable', 'IsPresent', 'StringEquals', 'And', 'Or', 'Not', 'Next'];

/** A definition that uses more of the language than the twin models. */
export class AslSubsetError extends ServiceError<'ASL_OUTSIDE_SUBSET'> {
  override readonly name = 'AslSubsetError';
  constructor(readonly problems: string[]) {
    super(
      'ASL_OUTSIDE_SUBSET',
      `the state machine uses what the twin does not model (extend twin/stepfunctions/asl-data.ts and asl-definition.ts): ${problems.join('; ')}`,
    );
  }
}

/** Everything in `machine` outside the subset, each with its place (state and field); none: it runs as AWS would. */
export function aslSubsetProblems(machine: AslMachine, where = ''): string[] {
  const problems: string[] = [];
  const extra = (place: string, value: object, allowed: string[]) => {
    for (const key of Object.keys(value)) if (!allowed.includes(key)) problems.push(`${place}: ${key}`);
  };
  const path = (place: string, value: unknown) => {
    if (value !== null && value !== undefined && !REFERENCE_PATH.test(String(value)))
      problems.push(`${place}: path ${JSON.stringify(value)}`);
  };
  const template = (place: string, value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, item] of Object.entries(value)) {
      if (key.endsWith('.$')) path(`${place}.${key}`, item);
      else template(`${place}.${key}`, item);
    }
  };
  const choice = (place: string, rule: ChoiceRule) => {
    extra(place, rule, CHOICE_FIELDS);
    path(`${place}.Variable`, rule.Variable);
    for (const inner of [...(rule.And ?? []), ...(rule.Or ?? []), ...(rule.Not ? [rule.Not] : [])])
      choice(place, inner);
  };
  extra(`${where}machine`, machine, MACHINE_FIELDS);
  for (const [name, state] of Object.entries(machine.States)) {
    const place = `${where}${name}`;
    const allowed = ALLOWED[state.Type];
    if (!allowed) {
      problems.push(`${place}: Type ${state.Type}`);
      continue;
    }
    extra(place, state, allowed);
    for (const field of ['InputPath', 'OutputPath', 'ResultPath', 'ErrorPath', 'CausePath'] as const)
      path(`${place}.${field}`, state[field]);
    for (const field of ['Parameters', 'ResultSelector', 'ItemSelector'] as const)
      template(`${place}.${field}`, state[field]);
    for (const retrier of state.Retry ?? []) extra(`${place}.Retry`, retrier, RETRIER_FIELDS);
    for (const catcher of state.Catch ?? []) extra(`${place}.Catch`, catcher, CATCHER_FIELDS);
    for (const rule of state.Choices ?? []) choice(`${place}.Choices`, rule);
    if (state.Type === 'Task' && !/^arn:[^:]+:lambda:[^:]*:[^:]*:function:/.test(state.Resource ?? ''))
      problems.push(`${place}: Resource ${state.Resource} (only a Lambda function's ARN)`);
    if (state.Type === 'Map') {
      if (state.ItemProcessor?.ProcessorConfig?.Mode !== 'DISTRIBUTED') problems.push(`${place}: an inline Map`);
      if (
        state.ItemReader?.Resource !== 'arn:aws:states:::s3:getObject' ||
        state.ItemReader.ReaderConfig?.InputType !== 'JSON'
      )
        problems.push(
          `${place}: ItemReader ${JSON.stringify(state.ItemReader)} (only a JSON array read by s3:getObject)`,
        );
      if (state.ItemProcessor) problems.push(...aslSubsetProblems(state.ItemProcessor, `${place}/`));
    }
  }
  return problems;
}

export function checkAslSubset(machine: AslMachine): AslMachine {
  const problems = aslSubsetProblems(machine);
  if (problems.length) throw new AslSubsetError(problems);
  return machine;
}

/** Every state machine of `template`, by logical ID, its definition resolved (ARNs as the twin names them). */
export function stateMachineDefinitions(template: CloudFormationTemplate): Map<string, AslMachine> {
  const resolver = new TemplateResolver(template);
  const machines = new Map<string, AslMachine>();
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::StepFunctions::StateMachine') continue;
    machines.set(id, JSON.parse(String(resolver.resolve(resource.Properties?.DefinitionString))) as AslMachine);
  }
  return machines;
}

/** The large-file machine: the one whose Distributed Map reads a manifest (s3:getObject), as local-callers.ts finds it. */
export function largeFileDefinition(template: CloudFormationTemplate): AslMachine {
  for (const machine of stateMachineDefinitions(template).values()) {
    if (Object.values(machine.States).some((s) => s.ItemReader?.Resource.endsWith(':s3:getObject'))) return machine;
  }
  throw new Error('the template has no state machine whose Distributed Map reads a manifest with s3:getObject');
}

/**
 * The widest Map's MaxConcurrency in a machine (the ranges' map in the large-file machine);
 * undefined when none sets one (0 or absent: Step Functions sets no limit).
 */
export function mapMaxConcurrency(machine: AslMachine): number | undefined {
  const widths = Object.values(machine.States).flatMap((s) => (s.MaxConcurrency ? [s.MaxConcurrency] : []));
  return widths.length === 0 ? undefined : Math.max(...widths);
}

let deployed: Promise<AslMachine> | undefined;
/** The deployed large-file machine (cdk.json's context), checked against the subset; read once per process. */
export function deployedLargeFileDefinition(): Promise<AslMachine> {
  deployed ??= loadStackTemplate().then((template) => checkAslSubset(largeFileDefinition(template)));
  return deployed;
}
