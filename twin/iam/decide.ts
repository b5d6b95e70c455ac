/**
 * IAM's decision on one request, by a maintained evaluator (`@cloud-copilot/iam-simulate`:
 * identity and resource policies, every condition operator, service principals, explicit denies),
 * never by a hand-written one. Decisions are cached: the same caller, action, resource and
 * context always get the same answer from the same policies, and so do S3 objects the policies
 * cannot tell apart (resource-classes.ts), which spares the twin's S3 an evaluation per new key.
 *
 * The evaluator is AGPL-3.0: it is a dev dependency of the twin and the tests only, never in the
 * Lambda bundle (test/handler/bundle.test.ts checks).
 */
import { anonymousPrincipal, runSimulation } from '@cloud-copilot/iam-simulate';
import { LOCAL_ACCOUNT_ID, LOCAL_ADMIN_ARN } from './local-account.js';
import { accountOf, type PolicyDocument, type PolicyModel, resourcePolicyFor } from './policy-model.js';
import { bucketArnOfObject, ResourceClasses, resourcePatternsOf } from './resource-classes.js';

/** Who makes a request: a role's session (by the role's logical ID), a service, the admin, or nobody. */
export type Caller = { role: string; session?: string } | { service: string } | { admin: true } | { anonymous: true };

export interface AuthorizationRequest {
  caller: Caller;
  action: string;
  resource: string;
  context?: Record<string, string | string[]>;
}

export type Decision = 'Allowed' | 'ExplicitlyDenied' | 'ImplicitlyDenied';

export interface DecisionDetail {
  decision: Decision;
  /** The principal ARN (or service) the request was decided for. */
  principal: string;
  /** Why not, in the words S3 and IAM use: which kind of policy allowed nothing or denied. */
  reason?: string;
}

const ADMIN_POLICY: PolicyDocument = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }],
};

export interface AuthorizerOptions {
  /** Decide S3 objects the policies cannot tell apart once (resource-classes.ts); true unless a test compares. */
  classes?: boolean;
}

export class Authorizer {
  private readonly cache = new Map<string, Promise<DecisionDetail>>();
  /** The Resource patterns a caller's requests on a bucket are decided by, by caller and bucket policy. */
  private readonly classes = new Map<string, ResourceClasses>();
  private readonly useClasses: boolean;

  constructor(
    readonly model: PolicyModel,
    options: AuthorizerOptions = {},
  ) {
    this.useClasses = options.classes ?? true;
  }

  /** The principal ARN a caller's requests carry. */
  principalOf(caller: Caller): string {
    if ('admin' in caller) return LOCAL_ADMIN_ARN;
    if ('service' in caller) return caller.service;
    if ('anonymous' in caller) return '*';
    const role = this.model.roles.get(caller.role);
    if (!role) throw new Error(`the template has no role ${caller.role}`);
    return `arn:aws:sts::${LOCAL_ACCOUNT_ID}:assumed-role/${role.name}/${caller.session ?? role.name}`;
  }

  /** The context keys IAM sets on every request of this caller, before the request's own. */
  private baseContext(caller: Caller): Record<string, string> {
    const context: Record<string, string> = {
      'aws:SecureTransport': 'true',
      'aws:CurrentTime': new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      'aws:EpochTime': String(Math.floor(Date.now() / 1000)),
    };
    if ('role' in caller || 'admin' in caller) {
      context['aws:PrincipalArn'] =
        'admin' in caller ? LOCAL_ADMIN_ARN : (this.model.roles.get(caller.role)?.arn ?? '');
      context['aws:PrincipalAccount'] = LOCAL_ACCOUNT_ID;
      context['aws:PrincipalType'] = 'admin' in caller ? 'User' : 'AssumedRole';
    }
    if ('service' in caller) context['aws:PrincipalServiceName'] = caller.service;
    return context;
  }

  private identityPolicies(caller: Caller): { name: string; policy: PolicyDocument }[] {
    if ('admin' in caller) return [{ name: 'AdministratorAccess', policy: ADMIN_POLICY }];
    if ('role' in caller) return this.model.roles.get(caller.role)?.identityPolicies ?? [];
    return [];
  }

  decide(request: AuthorizationRequest): Promise<DecisionDetail> {
    const resourceClass = this.useClasses ? this.classOf(request) : undefined;
    const key = JSON.stringify([
      request.caller,
      request.action,
      resourceClass === undefined ? request.resource : { class: resourceClass },
      request.context ?? {},
    ]);
    let cached = this.cache.get(key);
    if (!cached) {
      cached = this.evaluate(request);
      this.cache.set(key, cached);
    }
    return cached;
  }

  /** The class of the request's resource among the patterns of the policies that decide it, if it has one. */
  private classOf(request: AuthorizationRequest): string | undefined {
    const bucketArn = bucketArnOfObject(request.resource);
    if (bucketArn === undefined) return undefined;
    const resourcePolicy = resourcePolicyFor(this.model, request.resource);
    const key = JSON.stringify([request.caller, bucketArn]);
    let classes = this.classes.get(key);
    if (!classes) {
      classes = new ResourceClasses(
        resourcePatternsOf([
          ...this.identityPolicies(request.caller).flatMap((p) => p.policy.Statement),
          ...(resourcePolicy?.Statement ?? []),
        ]),
      );
      this.classes.set(key, classes);
    }
    return classes.classOf(request.resource);
  }

  private async evaluate(request: AuthorizationRequest): Promise<DecisionDetail> {
    const { caller } = request;
    const principal = this.principalOf(caller);
    const resourcePolicy =
      request.action === 'sts:AssumeRole' && 'service' in caller
        ? this.trustPolicyOf(request.resource)
        : resourcePolicyFor(this.model, request.resource);
    const result = await runSimulation(
      {
        request: {
          principal: 'anonymous' in caller ? anonymousPrincipal : principal,
          action: request.action,
          resource: { resource: request.resource, accountId: accountOf(request.resource) },
          // The time keys are those of the first evaluation: no policy of the stack reads them.
          contextVariables: { ...this.baseContext(caller), ...(request.context ?? {}) },
        },
        identityPolicies: 'anonymous' in caller ? [] : this.identityPolicies(caller),
        serviceControlPolicies: [],
        resourceControlPolicies: [],
        ...(resourcePolicy ? { resourcePolicy } : {}),
        additionalSettings: { s3: { blockPublicAccess: true } },
      },
      {},
    );
    if (result.resultType === 'error')
      throw new Error(
        `the IAM evaluator rejected ${request.action} on ${request.resource}: ${JSON.stringify(result.errors)}`,
      );
    const decision = result.overallResult as Decision;
    return { decision, principal, ...(decision === 'Allowed' ? {} : { reason: reasonFor(result, decision, caller) }) };
  }

  private trustPolicyOf(roleArn: string): PolicyDocument | undefined {
    for (const role of this.model.roles.values()) if (role.arn === roleArn) return role.trustPolicy;
    return undefined;
  }
}

/** "because no identity-based policy allows ..." / "with an explicit deny in a resource-based policy", as AWS words it. */
function reasonFor(result: unknown, decision: Decision, caller: Caller): string {
  const analysis = (result as { result?: { analysis?: Record<string, { result?: string } | undefined> } }).result
    ?.analysis;
  if (decision === 'ExplicitlyDenied') {
    const where =
      analysis?.resourceAnalysis?.result === 'ExplicitlyDenied'
        ? 'a resource-based policy'
        : 'an identity-based policy';
    return `with an explicit deny in ${where}`;
  }
  const side = 'service' in caller || 'anonymous' in caller ? 'resource-based' : 'identity-based';
  return `because no ${side} policy allows the action`;
}
