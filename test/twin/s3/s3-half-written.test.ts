// A process killed while s3rver wrote an object's metadata left a truncated
// `._S3rver_metadata.json` under staging/, and every listing of the bucket then answered 500
// (issue 36 item 5). The twin writes metadata whole or not at all, lists past a record that does
// not parse, and removes such an object when its server starts.
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../../helpers/local-s3.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3({ onServerExit: () => undefined });
});
afterAll(async () => {
  await s3?.close();
});

const metadataFile = (key: string) => path.join(s3.server.directory, s3.bucket, `${key}._S3rver_metadata.json`);

async function listed(prefix: string): Promise<string[]> {
  const page = await s3.admin.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((object) => object.Key!);
}

async function until(probe: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("an object's metadata cut short by a killed process", () => {
  it('does not break listings: they answer, without that object', async () => {
    await s3.put('staging/job-1/whole.json', '{"a":1}');
    await s3.put('staging/job-1/cut.json', '{"b":2}', { 'source-etag': 'x' });
    const file = metadataFile('staging/job-1/cut.json');
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 12));
    expect(await listed('staging/')).toEqual(['staging/job-1/whole.json']);
    expect(await listed('')).toContain('staging/job-1/whole.json');
  });

  it('is removed when the server starts again on the same data: its write never completed', async () => {
    const first = s3.server.pid!;
    process.kill(first, 'SIGKILL');
    await until(() => s3.server.pid !== first);
    await s3.server.serving();
    expect(await s3.exists('staging/job-1/cut.json')).toBe(false);
    expect(await s3.text('staging/job-1/whole.json')).toBe('{"a":1}');
  });
});
