// The twin decides S3 objects the policies cannot tell apart once (twin/iam/resource-classes.ts):
// every such decision must be the one the evaluator gives the object on its own, for each caller
// and object action, whatever the key (prefixes in any case, colons, wildcards, unicode, none).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { prefixes } from '../../../functions/contract/service-layout.js';
import { type AuthorizationRequest, Authorizer, type DecisionDetail } from '../../../twin/iam/decide.js';
import type { LocalCaller } from '../../../twin/iam/local-account.js';
import { callerFor } from '../../../twin/iam/local-callers.js';
import { localPolicyModel } from '../../../twin/iam/local-policies.js';
import type { PolicyModel } from '../../../twin/iam/policy-model.js';
import { ResourceClasses } from '../../../twin/iam/resource-classes.js';
import { loadStackTemplate } from '../../../twin/iam/stack-template.js';

const BUCKET = 'test-bucket';
const CALLERS: LocalCaller[] = ['files', 'api', 'run', 'largeFile', 'admin'];
const ACTIONS = ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'];
const CONTEXT = { 's3:TlsVersion': '1.3', 's3:signatureversion': 'AWS4-HMAC-SHA256', 's3:authType': 'REST-HEADER' };

/** Keys that start where the policies draw lines (every prefix, in either case) and go on with characters that could confuse a matcher. */
const keys = fc
  .tuple(
    fc.constantFrom(...Object.values(prefixes), 'run-reports/', 'staging/', 'other/', ''),
    fc.boolean(),
    fc.string({ unit: fc.constantFrom(...'aZ/:.-_ *?é0'), maxLength: 24 }),
  )
  .map(([prefix, upper, rest]) => `${upper ? prefix.toUpperCase() : prefix}${rest}`);

/** The decision, or the evaluator's refusal (an empty key has no resource type): either way, what a caller would get. */
async function outcome(authorizer: Authorizer, request: AuthorizationRequest): Promise<Partial<DecisionDetail>> {
  try {
    return await authorizer.decide(request);
  } catch (error) {
    return { reason: (error as Error).message };
  }
}

describe('decisions shared by S3 objects the policies cannot tell apart', () => {
  let model: PolicyModel;
  beforeAll(async () => {
    model = localPolicyModel(await loadStackTemplate(), BUCKET);
  });

  it('are, for every caller and object action, the decision the evaluator gives each object on its own', async () => {
    const shared = new Authorizer(model);
    const alone = new Authorizer(model, { classes: false });
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(keys, async (key) => {
        const resource = `arn:aws:s3:::${BUCKET}/${key}`;
        for (const local of CALLERS)
          for (const action of ACTIONS) {
            const request = { caller: callerFor(model, local), action, resource, context: CONTEXT };
            const [a, b] = await Promise.all([outcome(shared, request), outcome(alone, request)]);
            expect({ local, action, key, ...a }).toEqual({ local, action, key, ...b });
            seen.add(a.decision ?? 'rejected');
          }
      }),
      // The empty key (no object: the evaluator refuses it) and keys at the lines the policies draw, always.
      { numRuns: 60, seed: 37, examples: [[''], ['incoming/a'], ['run-reports/a'], ['SOLVED/a']] },
    );
    // The keys reached allowed, implicitly and explicitly denied objects alike.
    expect([...seen].sort()).toEqual(['Allowed', 'ExplicitlyDenied', 'ImplicitlyDenied', 'rejected']);
  });

  it('put objects matched by different patterns, or by one pattern only without case, in different classes', () => {
    const classes = new ResourceClasses([`arn:aws:s3:::${BUCKET}/incoming/*`, `arn:aws:s3:::${BUCKET}/solved/?.txt`]);
    const classOf = (key: string) => classes.classOf(`arn:aws:s3:::${BUCKET}/${key}`);
    expect(classOf('incoming/a.txt')).toBe(classOf('incoming/deep/er/b:c.csv'));
    expect(classOf('solved/a.txt')).toBe(classOf('solved/b.txt'));
    expect(classOf('incoming/a.txt')).not.toBe(classOf('solved/a.txt'));
    expect(classOf('solved/a.txt')).not.toBe(classOf('solved/ab.txt'));
    expect(classOf('INCOMING/a.txt')).not.toBe(classOf('incoming/a.txt'));
    expect(classOf('INCOMING/a.txt')).not.toBe(classOf('other/a.txt'));
    // Another bucket's objects are never in a class of this one's.
    expect(classes.classOf('arn:aws:s3:::other-bucket/incoming/a.txt')).not.toBe(classOf('incoming/a.txt'));
  });

  it('leave each resource to be decided on its own where a class could be wrong', () => {
    const plain = new ResourceClasses([`arn:aws:s3:::${BUCKET}/incoming/*`]);
    expect(plain.classOf(`arn:aws:s3:::${BUCKET}/incoming/*`)).toBeUndefined();
    expect(plain.classOf(`arn:aws:s3:::${BUCKET}`)).toBeUndefined();
    expect(plain.classOf('arn:aws:lambda:us-east-1:123456789012:function:f')).toBeUndefined();
    const variable = new ResourceClasses([`arn:aws:s3:::${BUCKET}/\${aws:username}/*`]);
    expect(variable.classOf(`arn:aws:s3:::${BUCKET}/incoming/a`)).toBeUndefined();
    const short = new ResourceClasses(['arn:aws:s3']);
    expect(short.classOf(`arn:aws:s3:::${BUCKET}/incoming/a`)).toBeUndefined();
    const unresolved = new ResourceClasses([{ 'Fn::Join': ['', ['arn:aws:s3:::', BUCKET, '/*']] }]);
    expect(unresolved.classOf(`arn:aws:s3:::${BUCKET}/incoming/a`)).toBeUndefined();
  });
});
