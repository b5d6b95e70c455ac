import type { Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import {
  dispatch,
  eventKinds,
  handler,
  UnrecognisedEventError,
  type EventKind,
} from '../../functions/handler/index.js';
import { describeEvent } from '../../functions/handler/dispatch.js';
import { httpEventKind } from '../../functions/http/index.js';
import { buildHttpApiEvent } from '../../twin/gateway/http-api-event.js';
import { createLambdaContext } from '../../twin/lambda/lambda-context.js';
import { logger, metrics } from '../../functions/observability/powertools.js';

const context = createLambdaContext();

/** An S3 notification as AWS sends it: no HTTP kind may claim it. */
const s3Event = {
  Records: [
    {
      eventVersion: '2.1',
      eventSource: 'aws:s3',
      awsRegion: 'eu-west-1',
      eventName: 'ObjectCreated:Put',
      s3: { bucket: { name: 'b' }, object: { key: 'incoming/a.txt', size: 82, eTag: 'x' } },
    },
  ],
};

describe('the entry point', () => {
  it('hands an API Gateway HTTP API 2.0 event to the HTTP adapter', async () => {
    const result = await handler(buildHttpApiEvent({ method: 'GET', url: '/health' }), context);
    expect(result).toMatchObject({ statusCode: 200, body: '{"status":"ok"}' });
  });

  it('lists the HTTP kind among the event kinds it dispatches to', () => {
    expect(eventKinds).toContain(httpEventKind);
  });

  it.each([
    ['null', null],
    ['a string', 'hello'],
    ['an array', [1, 2]],
    ['an empty object', {}],
    ['a REST API (payload 1.0) event', { httpMethod: 'GET', path: '/health', requestContext: {} }],
    ['a 2.0 event without requestContext.http', { version: '2.0', rawPath: '/health', requestContext: {} }],
  ])('rejects %s with UnrecognisedEventError (so AWS retries and dead-letters it)', async (_, event) => {
    await expect(handler(event, context)).rejects.toBeInstanceOf(UnrecognisedEventError);
  });

  it('does not let the HTTP kind claim an S3 notification', () => {
    expect(httpEventKind.recognises(s3Event)).toBe(false);
  });

  it('logs an unrecognised event with its shape before throwing', async () => {
    const error = vi.spyOn(logger, 'error');
    await expect(dispatch({ mystery: true }, context)).rejects.toThrow(/keys \[mystery\]/);
    expect(error).toHaveBeenCalledWith(
      expect.stringContaining('Unrecognised event'),
      expect.objectContaining({ summary: 'an object with keys [mystery]' }),
    );
    error.mockRestore();
  });

  it('asks kinds in order and hands the event to the first that recognises it: a new kind plugs in beside HTTP', async () => {
    const s3Kind: EventKind<typeof s3Event, string> = {
      name: 'S3 test kind',
      recognises: (event): event is typeof s3Event => typeof event === 'object' && event !== null && 'Records' in event,
      handle: async (event: typeof s3Event, ctx: Context) =>
        `${event.Records.length} record(s) for ${ctx.awsRequestId}`,
    };
    await expect(dispatch(s3Event, context, [httpEventKind, s3Kind])).resolves.toBe(
      `1 record(s) for ${context.awsRequestId}`,
    );
    await expect(
      dispatch(buildHttpApiEvent({ method: 'GET', url: '/health' }), context, [httpEventKind, s3Kind]),
    ).resolves.toMatchObject({ statusCode: 200 });
  });

  it('describes events for logs without dumping them', () => {
    expect(describeEvent(undefined)).toBe('a value of type undefined');
    expect(describeEvent(null)).toBe('a value of type null');
    expect(describeEvent([1])).toBe('an array of 1');
  });

  it('publishes metrics after a request that solved boards, and nothing (no warning) after one that did not', async () => {
    const publish = vi.spyOn(metrics, 'publishStoredMetrics');
    await handler(buildHttpApiEvent({ method: 'GET', url: '/health' }), context);
    expect(publish).not.toHaveBeenCalled();
    const body = JSON.stringify({
      board: '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79',
    });
    await handler(
      buildHttpApiEvent({ method: 'POST', url: '/solve', headers: { 'content-type': 'application/json' }, body }),
      context,
    );
    expect(publish).toHaveBeenCalledTimes(1);
    expect(metrics.hasStoredMetrics()).toBe(false);
    publish.mockRestore();
  });

  it('publishes metrics even when the invocation throws', async () => {
    const publish = vi.spyOn(metrics, 'publishStoredMetrics');
    metrics.addMetric('BoardsSolved', 'Count', 1);
    await expect(handler({}, context)).rejects.toThrow();
    expect(publish).toHaveBeenCalledTimes(1);
    publish.mockRestore();
  });
});
