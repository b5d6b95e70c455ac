/**
 * The policy model of the stack as deployed into the twin: the synthesized template with the data
 * bucket named as the local bucket, so its policies name the bucket the twin serves.
 */
import { readFileSync } from 'node:fs';
import { buildPolicyModel, type PolicyModel } from './policy-model.js';
import type { CloudFormationTemplate } from './resolve-template.js';

/** The logical ID of the bucket the files function is told to use (its BUCKET variable). */
export function dataBucketId(template: CloudFormationTemplate): string {
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const env = (resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
    const ref = (env?.BUCKET as { Ref?: unknown } | undefined)?.Ref;
    if (typeof ref === 'string') return ref;
  }
  throw new Error('no function of the template names its bucket (BUCKET)');
}

export function localPolicyModel(template: CloudFormationTemplate, bucket: string): PolicyModel {
  const names: Record<string, string> = { [dataBucketId(template)]: bucket };
  for (const [id, resource] of Object.entries(template.Resources))
    if (resource.Type === 'AWS::S3::Bucket' && !(id in names)) names[id] = `${bucket}-${id.toLowerCase()}`;
  return buildPolicyModel(template, { names });
}

export function localPolicyModelFromFile(templateFile: string, bucket: string): PolicyModel {
  return localPolicyModel(JSON.parse(readFileSync(templateFile, 'utf8')) as CloudFormationTemplate, bucket);
}
