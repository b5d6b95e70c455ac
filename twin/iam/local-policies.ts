/**
 * The policy model of the stack as deployed into the twin: the synthesized template with the data
 * bucket named as the local bucket, so its policies name the bucket the twin serves.
 */
import { readFileSync } from 'node:fs';
import { buildPolicyModel, notifyingBucketId, type PolicyModel } from './policy-model.js';
import type { CloudFormationTemplate } from './resolve-template.js';

/** The logical ID of the data bucket: the one whose events the stack routes. */
export function dataBucketId(template: CloudFormationTemplate): string {
  const id = notifyingBucketId(template);
  if (id) return id;
  throw new Error('no bucket of the template has its events routed (the data bucket)');
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
