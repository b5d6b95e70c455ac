/**
 * Who may do what, read from a synthesized template: each role with its trust policy and identity
 * policies, each resource-based policy (bucket, topic and queue policies, and a function's
 * `AWS::Lambda::Permission`s as the policy Lambda keeps for it), and which role each function and
 * state machine runs as. Nothing here is written by hand: change the stack and the model follows.
 */
import { LOCAL_ACCOUNT_ID } from './local-account.js';
import { type CloudFormationTemplate, type Deployment, TemplateResolver } from './resolve-template.js';

export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Principal?: unknown;
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Record<string, Record<string, unknown>>;
}

export interface PolicyDocument {
  Version: string;
  Statement: PolicyStatement[];
}

export interface RoleModel {
  logicalId: string;
  name: string;
  arn: string;
  trustPolicy: PolicyDocument;
  identityPolicies: { name: string; policy: PolicyDocument }[];
  /** AWS managed policies by ARN: their statements are AWS's, not in the template. */
  managedPolicyArns: string[];
}

export interface RunnerModel {
  logicalId: string;
  name: string;
  arn: string;
  /** Logical ID of the role it runs as. */
  role: string;
}

export interface FunctionModel extends RunnerModel {
  /** FUNCTION_PURPOSE of its environment (`api`, `files`), if any. */
  purpose: string | undefined;
}

export interface PolicyModel {
  resolver: TemplateResolver;
  roles: Map<string, RoleModel>;
  functions: Map<string, FunctionModel>;
  stateMachines: Map<string, RunnerModel>;
  /** Resource-based policies by the ARN they guard (a bucket's also guards its objects). */
  resourcePolicies: Map<string, PolicyDocument>;
}

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

function document(statements: PolicyStatement[]): PolicyDocument {
  return { Version: '2012-10-17', Statement: statements };
}

function refOf(value: unknown): string | undefined {
  const ref = (value as { Ref?: unknown } | null)?.Ref;
  if (typeof ref === 'string') return ref;
  const att = (value as { 'Fn::GetAtt'?: unknown } | null)?.['Fn::GetAtt'];
  return Array.isArray(att) ? String(att[0]) : undefined;
}

/** The statement Lambda adds to a function's policy for `add-permission` (what AWS::Lambda::Permission creates). */
function permissionStatement(properties: Record<string, unknown>, functionArn: string): PolicyStatement {
  const principal = String(properties.Principal);
  const condition: Record<string, Record<string, unknown>> = {};
  if (properties.SourceArn !== undefined) condition.ArnLike = { 'AWS:SourceArn': properties.SourceArn };
  if (properties.SourceAccount !== undefined)
    condition.StringEquals = { 'AWS:SourceAccount': properties.SourceAccount };
  return {
    Effect: 'Allow',
    Principal: principal.endsWith('.amazonaws.com') ? { Service: principal } : { AWS: principal },
    Action: String(properties.Action),
    Resource: functionArn,
    ...(Object.keys(condition).length ? { Condition: condition } : {}),
  };
}

export function buildPolicyModel(template: CloudFormationTemplate, deployment: Deployment = {}): PolicyModel {
  const resolver = new TemplateResolver(template, deployment);
  const roles = new Map<string, RoleModel>();
  const functions = new Map<string, FunctionModel>();
  const stateMachines = new Map<string, RunnerModel>();
  const resourcePolicies = new Map<string, PolicyDocument>();
  const addResourceStatements = (arn: string, statements: PolicyStatement[]): void => {
    const existing = resourcePolicies.get(arn);
    if (existing) existing.Statement.push(...statements);
    else resourcePolicies.set(arn, document([...statements]));
  };

  const resources = Object.entries(template.Resources);
  for (const [id, resource] of resources) {
    if (resource.Type !== 'AWS::IAM::Role') continue;
    const p = (resolver.resolve(resource.Properties ?? {}) ?? {}) as Record<string, unknown>;
    roles.set(id, {
      logicalId: id,
      name: resolver.nameOf(id),
      arn: resolver.arnOf(id),
      trustPolicy: p.AssumeRolePolicyDocument as PolicyDocument,
      identityPolicies: asArray(p.Policies as { PolicyName: string; PolicyDocument: PolicyDocument }[]).map((x) => ({
        name: x.PolicyName,
        policy: x.PolicyDocument,
      })),
      managedPolicyArns: asArray(p.ManagedPolicyArns as string[]),
    });
  }
  for (const [id, resource] of resources) {
    const raw = resource.Properties ?? {};
    switch (resource.Type) {
      case 'AWS::IAM::Policy': {
        const p = resolver.resolve(raw) as { PolicyName: string; PolicyDocument: PolicyDocument };
        for (const role of asArray(raw.Roles as unknown[])) {
          const roleId = refOf(role);
          if (roleId) roles.get(roleId)?.identityPolicies.push({ name: p.PolicyName, policy: p.PolicyDocument });
        }
        break;
      }
      case 'AWS::Lambda::Function': {
        const env = (raw.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
        functions.set(id, {
          logicalId: id,
          name: resolver.nameOf(id),
          arn: resolver.arnOf(id),
          role: refOf(raw.Role) ?? '',
          purpose: typeof env?.FUNCTION_PURPOSE === 'string' ? env.FUNCTION_PURPOSE : undefined,
        });
        break;
      }
      case 'AWS::StepFunctions::StateMachine':
        stateMachines.set(id, {
          logicalId: id,
          name: resolver.nameOf(id),
          arn: resolver.arnOf(id),
          role: refOf(raw.RoleArn) ?? '',
        });
        break;
      case 'AWS::S3::BucketPolicy': {
        const p = resolver.resolve(raw) as { Bucket: string; PolicyDocument: PolicyDocument };
        addResourceStatements(`arn:aws:s3:::${p.Bucket}`, p.PolicyDocument.Statement);
        break;
      }
      case 'AWS::SNS::TopicPolicy': {
        const p = resolver.resolve(raw) as { Topics: string[]; PolicyDocument: PolicyDocument };
        for (const topic of p.Topics) addResourceStatements(topic, p.PolicyDocument.Statement);
        break;
      }
      case 'AWS::SQS::QueuePolicy': {
        const p = resolver.resolve(raw) as { PolicyDocument: PolicyDocument };
        for (const queue of asArray(raw.Queues as unknown[])) {
          const queueId = refOf(queue);
          if (queueId) addResourceStatements(resolver.arnOf(queueId), p.PolicyDocument.Statement);
        }
        break;
      }
      case 'AWS::Lambda::Permission': {
        const p = resolver.resolve(raw) as Record<string, unknown>;
        const functionArn = String(p.FunctionName).startsWith('arn:')
          ? String(p.FunctionName)
          : resolver.arnOf(refOf(raw.FunctionName) ?? String(p.FunctionName));
        addResourceStatements(functionArn, [permissionStatement(p, functionArn)]);
        break;
      }
    }
  }
  return { resolver, roles, functions, stateMachines, resourcePolicies };
}

/** The resource-based policy that guards `arn` (an S3 object is guarded by its bucket's policy). */
export function resourcePolicyFor(model: PolicyModel, arn: string): PolicyDocument | undefined {
  const s3 = /^arn:aws:s3:::([^/]+)/.exec(arn);
  return model.resourcePolicies.get(s3 ? `arn:aws:s3:::${s3[1]}` : arn.replace(/:\*$/, ''));
}

/** The account that owns a resource ARN (S3 ARNs name none: the bucket is the twin's own). */
export function accountOf(arn: string): string {
  return arn.split(':')[4] || LOCAL_ACCOUNT_ID;
}
