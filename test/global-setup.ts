// Once per test run, before any worker starts: synthesize the stack (or take the cached template)
// whose policies the local S3 servers decide by, so parallel test files do not each synthesize it.
import { stackTemplateFile } from '../twin/iam/stack-template.js';

export default async function setup(): Promise<void> {
  await stackTemplateFile();
}
