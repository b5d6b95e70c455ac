// The local S3 decides every request by the stack's synthesized policies, as AWS would: the
// caller's role and the bucket policy, through the IAM evaluator. A denied call gets S3's 403
// AccessDenied; a HEAD of a missing key is 404 only for a caller that may list the bucket.
// A denial reaches the test over the server process's IPC channel, which can trail the 403 on the
// HTTP socket: the checks of the denial list wait for it (vi.waitFor) instead of reading it at once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadStackTemplate } from '../../../twin/iam/stack-template.js';
import type { CloudFormationTemplate } from '../../../twin/iam/resolve-template.js';
import { handleS3Event } from '../../../functions/s3/index.js';
import { EASY, EASY_SOLUTION } from '../../helpers/boards.js';
import { clientFor, outcomeOf, startTestS3 } from '../../helpers/local-s3.js';
import type { TestS3 } from '../../helpers/local-s3.js';

describe('the local S3 with the stack as synthesized', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3();
    await s3.put('incoming/auth/a.txt', `${EASY}\n`);
  });
  afterAll(async () => {
    await s3?.close();
  });

  it("solves a file with the files function's role: every call it makes is allowed", async () => {
    await handleS3Event(await s3.eventFor('incoming/auth/a.txt'), { client: s3.client });
    expect(await s3.text('solved/auth/a.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect(s3.denials).toEqual([]);
  });

  it('answers 403 AccessDenied, with the principal, action and resource, to a call no policy allows', async () => {
    const api = clientFor(s3.server.endpoint, 'api');
    expect(await outcomeOf(api.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'incoming/auth/a.txt' })))).toEqual({
      status: 403,
      code: 'AccessDenied',
    });
    await vi.waitFor(() =>
      expect(s3.denials.at(-1)).toMatchObject({
        operation: 'GetObject',
        action: 's3:GetObject',
        resource: `arn:aws:s3:::${s3.bucket}/incoming/auth/a.txt`,
        message: expect.stringMatching(
          /^User: arn:aws:sts::\d{12}:assumed-role\/ApiSolverRole\w+\/sudoku-api is not authorized to perform: s3:GetObject on resource: .* because no identity-based policy allows the action$/,
        ),
      }),
    );
    api.destroy();
  });

  it('refuses the files function a write to incoming/ (it could trigger itself) and to run-reports/ (explicit deny)', async () => {
    for (const key of ['incoming/auth/self.txt', 'run-reports/forged/manifest.json'])
      expect(await outcomeOf(s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: 'x' })))).toEqual(
        {
          status: 403,
          code: 'AccessDenied',
        },
      );
    await vi.waitFor(() =>
      expect(s3.denials.at(-1)?.message).toMatch(/with an explicit deny in an identity-based policy$/),
    );
    expect(await s3.exists('incoming/auth/self.txt')).toBe(false);
  });

  it('answers a HEAD of a missing key 404 to a caller allowed s3:ListBucket, 403 to one that is not', async () => {
    const head = (client: typeof s3.client, key: string) =>
      outcomeOf(client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key })));
    expect(await head(s3.client, 'reports/auth/missing.txt.json')).toEqual({ status: 404, code: 'NotFound' });
    // The run's role may read run-reports/ but list only batch/ and incoming/: the missing key is hidden.
    const run = clientFor(s3.server.endpoint, 'run');
    expect((await head(run, 'run-reports/missing/manifest.json')).status).toBe(403);
    await vi.waitFor(() =>
      expect(s3.denials.at(-1)).toMatchObject({ action: 's3:ListBucket', resource: `arn:aws:s3:::${s3.bucket}` }),
    );
    run.destroy();
  });

  it("decides ListObjectsV2 with its s3:prefix: the run's role may list batch/ but not solved/", async () => {
    const run = clientFor(s3.server.endpoint, 'run');
    const list = (prefix: string) =>
      outcomeOf(run.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix })));
    expect(await list('batch/')).toEqual({ status: 200, code: 'OK' });
    expect(await list('solved/')).toEqual({ status: 403, code: 'AccessDenied' });
    run.destroy();
  });

  it('decides each key of a DeleteObjects: the files function may delete nothing, the admin may', async () => {
    await s3.put('solved/auth/delete-me.txt', 'x');
    const request = new DeleteObjectsCommand({
      Bucket: s3.bucket,
      Delete: { Objects: [{ Key: 'solved/auth/delete-me.txt' }] },
    });
    expect(await outcomeOf(s3.client.send(request))).toEqual({ status: 403, code: 'AccessDenied' });
    expect(await s3.exists('solved/auth/delete-me.txt')).toBe(true);
    expect(await outcomeOf(s3.admin.send(request))).toEqual({ status: 200, code: 'OK' });
    expect(await s3.exists('solved/auth/delete-me.txt')).toBe(false);
  });

  it('refuses an unknown access key (InvalidAccessKeyId) and an unsigned request', async () => {
    const stranger = clientFor(s3.server.endpoint);
    stranger.config.credentials = async () => ({ accessKeyId: 'AKIANOBODY', secretAccessKey: 'x' });
    expect(
      await outcomeOf(stranger.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'incoming/auth/a.txt' }))),
    ).toEqual({ status: 403, code: 'InvalidAccessKeyId' });
    stranger.destroy();
    const anonymous = await fetch(`${s3.server.endpoint}/${s3.bucket}/incoming/auth/a.txt`);
    expect(anonymous.status).toBe(403);
    expect(await anonymous.text()).toContain('<Code>AccessDenied</Code>');
  });
});

describe('the local S3 with one grant removed from the synthesized stack', () => {
  let s3: TestS3;
  beforeAll(async () => {
    // The files role as it was before the fix: no s3:GetObject on its own outputs.
    const template = structuredClone(await loadStackTemplate()) as CloudFormationTemplate;
    let removed = 0;
    for (const resource of Object.values(template.Resources)) {
      if (resource.Type !== 'AWS::IAM::Policy') continue;
      const document = resource.Properties!.PolicyDocument as { Statement: { Sid?: string }[] };
      const before = document.Statement.length;
      document.Statement = document.Statement.filter((s) => s.Sid !== 'ReadOwnOutputs');
      removed += before - document.Statement.length;
    }
    expect(removed).toBe(1);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sudoku-policy-')), 'template.json');
    writeFileSync(file, JSON.stringify(template));
    s3 = await startTestS3({ policyTemplate: file });
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('fails the file exactly as AWS would: the idempotency HEAD answers 403, nothing is written, the event is retried', async () => {
    await s3.put('incoming/auth/b.txt', `${EASY}\n`);
    const handled = handleS3Event(await s3.eventFor('incoming/auth/b.txt'), { client: s3.client });
    await expect(handled).rejects.toThrow();
    await vi.waitFor(() =>
      expect(s3.denials.map((d) => `${d.operation} ${d.action} ${d.resource.split(':::')[1]}`)).toContain(
        `HeadObject s3:GetObject ${s3.bucket}/solved/auth/b.txt`,
      ),
    );
    expect(await s3.exists('solved/auth/b.txt')).toBe(false);
    expect(await s3.exists('reports/auth/b.txt.json')).toBe(false);
  });
});
