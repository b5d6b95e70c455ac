// Once per test run, before any worker starts: synthesize the stack (or take the cached template)
// whose policies the local S3 servers decide by, and build (or find current) the bundle their
// s3rver processes run, so parallel test files do not each make them.
import { stackTemplateFile } from '../twin/iam/stack-template.js';
import { s3rverProcessBundle } from '../twin/s3/s3rver-bundle.js';

export default async function setup(): Promise<void> {
  await Promise.all([stackTemplateFile(), s3rverProcessBundle()]);
}
