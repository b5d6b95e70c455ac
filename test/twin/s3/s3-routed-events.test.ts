// events/eventbridge-*.json and events/sqs-*.json: S3 uploads as EventBridge and an SQS queue
// deliver them, in AWS's documented shapes, run through the built bundle with `npm run invoke`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_OBJECTS, seedSamples } from '../../../twin/s3/s3-samples.js';
import {
  decodeEventKey,
  isEventBridgeObjectCreated,
  isS3Event,
  isS3TestEvent,
  isSqsEvent,
} from '../../../functions/s3/index.js';
import { startTestS3 } from '../../helpers/local-s3.js';
import type { TestS3 } from '../../helpers/local-s3.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const EVENTBRIDGE = 'events/eventbridge-s3-object-created.json';
const SQS = 'events/sqs-s3-notifications.json';
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as unknown;

describe('the EventBridge and SQS samples', () => {
  it('EventBridge: an "Object Created" event from aws.s3 naming a sample object by its plain key', () => {
    const event = read(EVENTBRIDGE);
    expect(isEventBridgeObjectCreated(event)).toBe(true);
    if (!isEventBridgeObjectCreated(event)) return;
    expect(event).toMatchObject({ version: '0', source: 'aws.s3', 'detail-type': 'Object Created' });
    expect(event.detail.bucket.name).toBe('sudoku-local');
    expect(event.detail.object.key).toBe('incoming/samples/my puzzles+more.jsonl');
    expect(Object.keys(SAMPLE_OBJECTS)).toContain(event.detail.object.key);
  });

  it("SQS: S3's test event, then notifications naming sample objects, each body with its MD5", () => {
    const event = read(SQS);
    expect(isSqsEvent(event)).toBe(true);
    if (!isSqsEvent(event)) return;
    const bodies = event.Records.map((record) => {
      expect(record.md5OfBody).toBe(createHash('md5').update(record.body).digest('hex'));
      return JSON.parse(record.body) as unknown;
    });
    expect(isS3TestEvent(bodies[0])).toBe(true);
    for (const body of bodies.slice(1)) {
      expect(isS3Event(body)).toBe(true);
      if (!isS3Event(body)) continue;
      for (const record of body.Records) {
        expect(Object.keys(SAMPLE_OBJECTS)).toContain(decodeEventKey(record.s3.object.key));
      }
    }
  });
});

describe('npm run invoke with the EventBridge and SQS samples', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3({ bucket: 'sudoku-local' });
    await seedSamples(s3.admin, s3.bucket);
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('solves the files they name against the local S3 server, with an empty partial-batch response for SQS', async () => {
    const run = spawnSync(
      path.join(root, 'node_modules', '.bin', 'tsx'),
      ['twin/commands/invoke.ts', EVENTBRIDGE, SQS],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, S3_ENDPOINT: s3.server.endpoint, POWERTOOLS_LOG_LEVEL: 'SILENT' },
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const [eventBridge, sqs] = run.stdout.split(/\n(?=[[{])/).map((doc) => JSON.parse(doc) as unknown);
    expect(eventBridge).toMatchObject([{ status: 'processed' }]);
    expect(sqs).toEqual({ batchItemFailures: [] });
    for (const key of ['my puzzles+more.jsonl', 'puzzles.txt', 'kaggle.csv']) {
      expect(await s3.exists(`solved/samples/${key}`), key).toBe(true);
    }
  });
});
