/**
 * Who may do what, read from a synthesized template: each role with its trust policy and identity
 * policies, each resource-based policy (bucket, topic and queue policies, and a function's
 * `AWS::Lambda::Permission`s as the policy Lambda keeps for it), and which role each function and
 * state machine runs as. Nothing here is written by hand: change the stack and the model follows.
 */
import type { FunctionPurpose } from '../../functions/contract/service-layout.js';
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
  /** What the stack wires it to: `api` behind the HTTP API, `files` behind the bucket's notifications. */
  purpose: FunctionPurpose | undefined;
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
        functions.set(id, {
          logicalId: id,
          name: resolver.nameOf(id),
          arn: resolver.arnOf(id),
          role: refOf(raw.Role) ?? '',
          purpose: undefined,
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
  for (const [id, purpose] of functionPurposes(template)) {
    const fn = functions.get(id);
    if (fn) fn.purpose = purpose;
  }
  return { resolver, roles, functions, stateMachines, resourcePolicies };
}

/**
 * Which function serves what, read from what the stack wires (as AWS knows it), not from a variable
 * set for the twin: the function an HTTP API integration targets answers the API; the one the
 * bucket's events reach handles files.
 */
export function functionPurposes(template: CloudFormationTemplate): Map<string, FunctionPurpose> {
  const purposes = new Map<string, FunctionPurpose>();
  for (const resource of Object.values(template.Resources)) {
    const raw = resource.Properties ?? {};
    if (resource.Type === 'AWS::ApiGatewayV2::Integration') {
      const id = refOf(raw.IntegrationUri);
      if (id) purposes.set(id, 'api');
    }
    // The bucket's events reach the files function by one of three routes (the stack's s3Events).
    const files: unknown[] = [];
    if (resource.Type === 'Custom::S3BucketNotifications') {
      const config = raw.NotificationConfiguration as {
        LambdaFunctionConfigurations?: { LambdaFunctionArn?: unknown }[];
      };
      files.push(...(config?.LambdaFunctionConfigurations ?? []).map((target) => target.LambdaFunctionArn));
    }
    if (resource.Type === 'AWS::Events::Rule')
      files.push(...((raw.Targets as { Arn?: unknown }[] | undefined) ?? []).map((target) => target.Arn));
    if (resource.Type === 'AWS::Lambda::EventSourceMapping') files.push(raw.FunctionName);
    for (const target of files) {
      const id = refOf(target);
      if (id && template.Resources[id]?.Type === 'AWS::Lambda::Function') purposes.set(id, 'files');
    }
  }
  return purposes;
}

/** The bucket whose events the stack routes (to the function, a queue or EventBridge): the data bucket. */
export function notifyingBucketId(template: CloudFormationTemplate): string | undefined {
  for (const resource of Object.values(template.Resources))
    if (resource.Type === 'Custom::S3BucketNotifications') return refOf(resource.Properties?.BucketName);
  return undefined;
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
