// The s3Events=sqs route as AWS's SQS-with-Lambda guidance has it: the poller within the files
// pool's share for events, and a redrive that survives a few throttled receives.
import { describe, expect, it } from 'vitest';
import { LAMBDA_SQS_MAX_CONCURRENCY, SQS_LAMBDA_MIN_MAX_RECEIVE_COUNT } from '../../functions/contract/aws-quotas.js';
import { synth } from './helpers.js';

type Json = Record<string, unknown>;

function sqsRoute(context: Record<string, unknown> = {}) {
  const { template } = synth({ s3Events: 'sqs', ...context });
  const queues = Object.values(template.findResources('AWS::SQS::Queue')).map(
    (q) => (q as { Properties: Json }).Properties,
  );
  const uploads = queues.filter((q) => q.RedrivePolicy !== undefined);
  const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).map(
    (m) => (m as { Properties: Json }).Properties,
  );
  return { uploads, mappings };
}

describe('s3Events=sqs', () => {
  it('dead-letters an upload only after 5 receives, so a few throttled deliveries do not lose it', () => {
    const { uploads } = sqsRoute();
    expect(uploads).toHaveLength(1);
    const { maxReceiveCount } = uploads[0]!.RedrivePolicy as { maxReceiveCount: number };
    expect(maxReceiveCount).toBeGreaterThanOrEqual(SQS_LAMBDA_MIN_MAX_RECEIVE_COUNT);
  });

  it("polls with a maximum concurrency of the files pool's share for events, so the poller does not throttle itself", () => {
    const { mappings } = sqsRoute();
    expect(mappings).toHaveLength(1);
    expect(mappings[0]).toMatchObject({ ScalingConfig: { MaximumConcurrency: 10 } });
    const small = sqsRoute({ filesReservedConcurrency: 12 }).mappings[0];
    expect(small).toMatchObject({ ScalingConfig: { MaximumConcurrency: LAMBDA_SQS_MAX_CONCURRENCY.min } });
    expect(sqsRoute({ filesEventConcurrency: 4 }).mappings[0]).toMatchObject({
      ScalingConfig: { MaximumConcurrency: 4 },
    });
  });

  it('refuses a share for events below the event source minimum of 2', () => {
    expect(() => sqsRoute({ filesEventConcurrency: 1 })).toThrow(
      'context "filesEventConcurrency" must be an integer from 2',
    );
  });
});
