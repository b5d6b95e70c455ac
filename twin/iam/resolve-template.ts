/**
 * CloudFormation intrinsics resolved as one deployment of the template would resolve them, so the
 * synthesized policies can be evaluated: `Ref`, `Fn::GetAtt`, `Fn::Join`, `Fn::Select`,
 * `Fn::Split` and `Fn::Sub`. Each resource gets a physical name made of its logical ID (the data
 * bucket gets the local bucket's name), and its ARN is built the way its service builds ARNs.
 */
import { LOCAL_ACCOUNT_ID, LOCAL_PARTITION, LOCAL_REGION } from './local-account.js';

export interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
}

export interface CloudFormationTemplate {
  Resources: Record<string, TemplateResource>;
}

export interface Deployment {
  /** Physical names by logical ID where the twin's own names must be used (the buckets). */
  names?: Record<string, string>;
}

const pseudo: Record<string, string> = {
  'AWS::AccountId': LOCAL_ACCOUNT_ID,
  'AWS::Region': LOCAL_REGION,
  'AWS::Partition': LOCAL_PARTITION,
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': 'Sudoku',
  'AWS::StackId': `arn:${LOCAL_PARTITION}:cloudformation:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:stack/Sudoku/00000000-0000-4000-8000-000000000000`,
};

const arnPrefix = (service: string, global = false): string =>
  `arn:${LOCAL_PARTITION}:${service}:${global ? '' : LOCAL_REGION}:${global && service === 's3' ? '' : LOCAL_ACCOUNT_ID}`;

/** A resolver of one template's intrinsics, for one deployment. */
/** The property that names each kind of resource, where the template may set one. */
const PHYSICAL_NAME_PROPERTIES: Readonly<Record<string, string>> = {
  'AWS::StepFunctions::StateMachine': 'StateMachineName',
  'AWS::Lambda::Function': 'FunctionName',
  'AWS::IAM::Role': 'RoleName',
  'AWS::SQS::Queue': 'QueueName',
  'AWS::SNS::Topic': 'TopicName',
};

export class TemplateResolver {
  constructor(
    readonly template: CloudFormationTemplate,
    private readonly deployment: Deployment = {},
  ) {}

  /** The physical name of a resource (what `Ref` gives for most types). */
  nameOf(logicalId: string): string {
    const given = this.deployment.names?.[logicalId];
    if (given !== undefined) return given;
    // A physical name the template sets (a state machine named so its ARN can be written before it exists).
    const property = PHYSICAL_NAME_PROPERTIES[this.template.Resources[logicalId]?.Type ?? ''];
    const explicit = property ? this.template.Resources[logicalId]?.Properties?.[property] : undefined;
    return explicit === undefined ? logicalId : String(this.resolve(explicit));
  }

  typeOf(logicalId: string): string {
    const resource = this.template.Resources[logicalId];
    if (!resource) throw new Error(`the template has no resource ${logicalId}`);
    return resource.Type;
  }

  /** The ARN of a resource, as `Fn::GetAtt [id, Arn]` gives it. */
  arnOf(logicalId: string): string {
    const name = this.nameOf(logicalId);
    switch (this.typeOf(logicalId)) {
      case 'AWS::S3::Bucket':
        return `arn:${LOCAL_PARTITION}:s3:::${name}`;
      case 'AWS::Lambda::Function':
        return `${arnPrefix('lambda')}:function:${name}`;
      case 'AWS::IAM::Role':
        return `arn:${LOCAL_PARTITION}:iam::${LOCAL_ACCOUNT_ID}:role/${name}`;
      case 'AWS::Logs::LogGroup':
        return `${arnPrefix('logs')}:log-group:${this.logGroupName(logicalId)}:*`;
      case 'AWS::SQS::Queue':
        return `${arnPrefix('sqs')}:${name}`;
      case 'AWS::SNS::Topic':
        return `${arnPrefix('sns')}:${name}`;
      case 'AWS::StepFunctions::StateMachine':
        return `${arnPrefix('states')}:stateMachine:${name}`;
      case 'AWS::Events::Rule':
        return `${arnPrefix('events')}:rule/${name}`;
      case 'AWS::Scheduler::Schedule':
        return `${arnPrefix('scheduler')}:schedule/default/${name}`;
      case 'AWS::CloudWatch::Alarm':
        return `${arnPrefix('cloudwatch')}:alarm:${name}`;
      default:
        return `${arnPrefix('cloudformation')}:resource/${name}`;
    }
  }

  private logGroupName(logicalId: string): string {
    const explicit = this.template.Resources[logicalId]?.Properties?.LogGroupName;
    return explicit === undefined ? this.nameOf(logicalId) : String(this.resolve(explicit));
  }

  private ref(logicalId: string): string {
    if (logicalId in pseudo) return pseudo[logicalId]!;
    switch (this.typeOf(logicalId)) {
      case 'AWS::SNS::Topic':
      case 'AWS::StepFunctions::StateMachine':
        return this.arnOf(logicalId);
      case 'AWS::SQS::Queue':
        return `https://sqs.${LOCAL_REGION}.amazonaws.com/${LOCAL_ACCOUNT_ID}/${this.nameOf(logicalId)}`;
      case 'AWS::Logs::LogGroup':
        return this.logGroupName(logicalId);
      case 'AWS::ApiGatewayV2::Api':
        return this.nameOf(logicalId).toLowerCase();
      default:
        return this.nameOf(logicalId);
    }
  }

  private getAtt(logicalId: string, attribute: string): string {
    if (attribute === 'Arn') return this.arnOf(logicalId);
    if (attribute === 'Name' || attribute === 'QueueName' || attribute === 'TopicName') return this.nameOf(logicalId);
    if (attribute === 'QueueUrl') return this.ref(logicalId);
    if (attribute === 'RoleId') return `AROA${this.nameOf(logicalId).toUpperCase().slice(0, 17)}`;
    return `${this.nameOf(logicalId)}.${attribute}`;
  }

  /** `value` with every intrinsic replaced by what it resolves to. */
  resolve(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.resolve(item));
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 1) {
      const [[name, argument]] = entries as [[string, unknown]];
      switch (name) {
        case 'Ref':
          return this.ref(String(argument));
        case 'Fn::GetAtt': {
          const [id, attribute] = Array.isArray(argument) ? argument : String(argument).split('.');
          return this.getAtt(String(id), String(attribute));
        }
        case 'Fn::Join': {
          const [separator, parts] = argument as [string, unknown[]];
          return (this.resolve(parts) as unknown[]).map(String).join(separator);
        }
        case 'Fn::Select': {
          const [index, list] = argument as [unknown, unknown];
          return (this.resolve(list) as unknown[])[Number(this.resolve(index))];
        }
        case 'Fn::Split': {
          const [separator, text] = argument as [string, unknown];
          return String(this.resolve(text)).split(separator);
        }
        case 'Fn::Sub': {
          const [text, variables] = Array.isArray(argument) ? argument : [argument, {}];
          const bound = this.resolve(variables ?? {}) as Record<string, unknown>;
          return String(text).replace(/\$\{([^}]+)\}/g, (_, key: string) => {
            if (key in bound) return String(bound[key]);
            const [id, attribute] = key.split('.');
            return attribute ? this.getAtt(id!, attribute) : this.ref(id!);
          });
        }
      }
    }
    return Object.fromEntries(entries.map(([key, item]) => [key, this.resolve(item)]));
  }
}
