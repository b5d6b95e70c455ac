// The same uploads reach the function three ways: straight from S3 (s3-pipeline.test.ts), through
// EventBridge, and through an SQS queue. Each route is handled against the real local S3 server.
import type { S3ObjectCreatedNotificationEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../functions/handler/dispatch.js';
import { createLambdaContext } from '../../twin/lambda/lambda-context.js';
import {
  handleEventBridgeObjectCreated,
  handleSqsS3Event,
  isEventBridgeObjectCreated,
  isS3Event,
  isSqsEvent,
  S3RecordsFailedError,
  s3EventBridgeKind,
  s3SqsKind,
} from '../../functions/s3/index.js';
import { EASY, EASY_SOLUTION } from '../helpers/boards.js';
import { clientFor, startTestS3 } from '../helpers/local-s3.js';
import type { TestS3 } from '../helpers/local-s3.js';
import { startS3Proxy } from '../helpers/s3-proxy.js';
import type { S3Proxy } from '../helpers/s3-proxy.js';

let s3: TestS3;
let proxy: S3Proxy;
beforeAll(async () => {
  s3 = await startTestS3();
  proxy = await startS3Proxy(s3.server.endpoint);
});
afterAll(async () => {
  await proxy?.close();
  await s3?.close();
});

/** An EventBridge "Object Created" event as S3 sends it: the key as it is, not URL-encoded. */
function eventBridgeEvent(key: string, bucket = s3.bucket): S3ObjectCreatedNotificationEvent {
  return {
    version: '0',
    id: '17793124-05d4-b198-2fde-7ededc63b103',
    'detail-type': 'Object Created',
    source: 'aws.s3',
    account: '123456789012',
    time: '2026-11-29T12:00:00Z',
    region: 'us-east-1',
    resources: [`arn:aws:s3:::${bucket}`],
    detail: {
      version: '0',
      bucket: { name: bucket },
      object: {
        key,
        size: 82,
        etag: 'b1946ac92492d2347c6235b4d2611184',
        'version-id': '',
        sequencer: '617f08299329d189',
      },
      'request-id': 'N4N7GDK58NMKJ12R',
      requester: '123456789012',
      'source-ip-address': '127.0.0.1',
      reason: 'PutObject',
    },
  };
}

/** An SQS record whose body is `body` as JSON (or as given when a string). */
function sqsRecord(messageId: string, body: unknown): SQSRecord {
  return {
    messageId,
    receiptHandle: `handle-${messageId}`,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '1795953600000',
      SenderId: 'AIDAJHIPRHEMV73VRJEBU',
      ApproximateFirstReceiveTimestamp: '1795953600002',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:sudoku-incoming',
    awsRegion: 'us-east-1',
  };
}

const S3_TEST_EVENT = {
  Service: 'Amazon S3',
  Event: 's3:TestEvent',
  Time: '2026-11-29T11:59:58.000Z',
  Bucket: 'test-bucket',
  RequestId: '5582815E1AEA5ADF',
  HostId: '8cLeGAmw098X5cv4Zkwcmo8vvZa3eH3eKxsPzbB9wrR+YstdA6Knx4Ip8EXAMPLE',
};

describe('recognising the routes', () => {
  it('tells each shape apart, and the dispatcher hands each to its kind', async () => {
    const eventBridge = eventBridgeEvent('incoming/x.txt');
    const sqs: SQSEvent = { Records: [sqsRecord('m1', S3_TEST_EVENT)] };
    expect([isEventBridgeObjectCreated(eventBridge), isSqsEvent(eventBridge), isS3Event(eventBridge)]).toEqual([
      true,
      false,
      false,
    ]);
    expect([isEventBridgeObjectCreated(sqs), isSqsEvent(sqs), isS3Event(sqs)]).toEqual([false, true, false]);
    expect(isEventBridgeObjectCreated({ ...eventBridge, 'detail-type': 'Object Deleted' })).toBe(false);
    expect(isSqsEvent({ Records: [{ ...sqsRecord('m1', {}), eventSource: 'aws:kinesis' }] })).toBe(false);
    for (const odd of [null, 'x', [], { Records: [] }, { source: 'aws.s3' }, { detail: null }]) {
      expect(s3EventBridgeKind.recognises(odd)).toBe(false);
      expect(s3SqsKind.recognises(odd)).toBe(false);
    }
    // Through the entry point: the SQS test event is skipped, so the answer is an empty partial-batch response.
    expect(await dispatch(sqs, createLambdaContext())).toEqual({ batchItemFailures: [] });
  });
});

describe('EventBridge "Object Created"', () => {
  it('solves the file at its key as given: EventBridge does not URL-encode keys', async () => {
    // Decoding this key as a notification's would turn '+' into a space and fail on '%'.
    const key = 'incoming/eventbridge/100%+sure été.txt';
    await s3.put(key, `${EASY}\n`);
    const results = await handleEventBridgeObjectCreated(eventBridgeEvent(key), { client: s3.client });
    expect(results).toMatchObject([{ status: 'processed' }]);
    expect(await s3.text('solved/eventbridge/100%+sure été.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect((await s3.report(key)).source.key).toBe(key);
    // A second delivery (EventBridge is at least once too) does no work.
    expect(await handleEventBridgeObjectCreated(eventBridgeEvent(key), { client: s3.client })).toMatchObject([
      { status: 'skipped', reason: 'already-solved' },
    ]);
  });

  it('ignores objects outside incoming/ (a rule on the whole bucket also sees the outputs)', async () => {
    const results = await handleEventBridgeObjectCreated(eventBridgeEvent('solved/eventbridge/a.txt'), {
      client: s3.client,
    });
    expect(results).toEqual([{ status: 'ignored', reason: 'outside-prefix', sourceKey: 'solved/eventbridge/a.txt' }]);
  });

  it('fails the invocation when S3 fails, so EventBridge retries it', async () => {
    const key = 'incoming/eventbridge/unlucky.txt';
    await s3.put(key, `${EASY}\n`);
    proxy.failWhere((request) => request.url.includes('unlucky.txt'));
    try {
      const failing = handleEventBridgeObjectCreated(eventBridgeEvent(key), {
        client: clientFor(proxy.endpoint, 'files'),
      });
      await expect(failing).rejects.toBeInstanceOf(S3RecordsFailedError);
      await expect(failing).rejects.toMatchObject({ failedKeys: [key] });
    } finally {
      proxy.failWhere(undefined);
    }
    expect(await s3.exists('solved/eventbridge/unlucky.txt')).toBe(false);
  });
});

describe('SQS messages carrying S3 notifications', () => {
  it("skips S3's test event, solves each message's files, and names only the failed messages for retry", async () => {
    const keys = {
      good: 'incoming/sqs/good one.txt',
      second: 'incoming/sqs/second.txt',
      failing: 'incoming/sqs/fails.txt',
      bridged: 'incoming/sqs/via eventbridge+queue.txt',
    };
    for (const key of Object.values(keys)) await s3.put(key, `${EASY}\n`);
    // The failing file's message also names a good file: the message is retried, the good file is then skipped.
    const failingNotification = await s3.eventFor(keys.failing);
    failingNotification.Records.push(...(await s3.eventFor(keys.second)).Records);
    const event: SQSEvent = {
      Records: [
        sqsRecord('test-event', S3_TEST_EVENT),
        sqsRecord('good', await s3.eventFor(keys.good)),
        sqsRecord('failing', failingNotification),
        sqsRecord('not-json', 'hello'),
        sqsRecord('not-s3', { Records: [{ eventSource: 'aws:dynamodb' }] }),
        sqsRecord('bridged', eventBridgeEvent(keys.bridged)),
      ],
    };
    proxy.failWhere((request) => request.url.includes('fails.txt'));
    let response: Awaited<ReturnType<typeof handleSqsS3Event>>;
    try {
      response = await handleSqsS3Event(event, { client: clientFor(proxy.endpoint, 'files') });
    } finally {
      proxy.failWhere(undefined);
    }
    expect(response).toEqual({
      batchItemFailures: [{ itemIdentifier: 'failing' }, { itemIdentifier: 'not-json' }, { itemIdentifier: 'not-s3' }],
    });
    expect(await s3.text('solved/sqs/good one.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect(await s3.text('solved/sqs/second.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect(await s3.text('solved/sqs/via eventbridge+queue.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect(await s3.exists('solved/sqs/fails.txt')).toBe(false);

    // SQS delivers the failed message again: now it succeeds, and the file already done is skipped.
    const retried = await handleSqsS3Event(
      { Records: [sqsRecord('failing', failingNotification)] },
      { client: s3.client },
    );
    expect(retried).toEqual({ batchItemFailures: [] });
    expect(await s3.text('solved/sqs/fails.txt')).toBe(`${EASY_SOLUTION}\n`);
  });
});
