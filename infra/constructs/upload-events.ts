// How uploads under incoming/ reach the files function: one route of three, by the s3Events
// setting. Two at once would solve every upload twice, concurrently; so a route is chosen here
// and nowhere else (a `put-bucket-notification-configuration` by hand would replace the stack's).
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as lambdaDestinations from 'aws-cdk-lib/aws-lambda-destinations';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  LAMBDA_ASYNC_MAX_EVENT_AGE_HOURS,
  SQS_LAMBDA_MIN_MAX_RECEIVE_COUNT,
} from '../../functions/contract/aws-quotas.js';
import { prefixes } from '../../functions/contract/service-layout.js';
import type { S3EventRoute } from '../settings.js';

export interface UploadEventsProps {
  readonly bucket: s3.Bucket;
  readonly handler: lambda.Function;
  readonly route: S3EventRoute;
  /** Where events the function still failed after retries are kept (the EventBridge target's and the queue's dead letters). */
  readonly failedEvents: sqs.Queue;
  /** Executions of the files pool kept for S3 events (filesEventConcurrency): the queue's poller stays within it. */
  readonly eventConcurrency: number;
}

export class UploadEvents extends Construct {
  /** The EventBridge rule (route `eventbridge`). */
  readonly rule?: events.Rule;
  /** The queue the function polls (route `sqs`). */
  readonly queue?: sqs.Queue;

  constructor(scope: Construct, id: string, props: UploadEventsProps) {
    super(scope, id);
    const { bucket, handler } = props;
    // S3 notifications and EventBridge invoke the function asynchronously: Lambda retries a failed
    // event twice, then sends it to the failed-events queue. (Polling a queue is synchronous: the
    // queue's own redrive does that part.)
    if (props.route !== 'sqs') {
      handler.configureAsyncInvoke({
        retryAttempts: 2,
        maxEventAge: Duration.hours(LAMBDA_ASYNC_MAX_EVENT_AGE_HOURS),
        onFailure: new lambdaDestinations.SqsDestination(props.failedEvents),
      });
    }
    switch (props.route) {
      case 'notification':
        // The bucket invokes the function asynchronously (Lambda retries twice, then the failed-events queue).
        bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(handler), {
          prefix: prefixes.incoming,
        });
        break;
      case 'eventbridge':
        // The bucket sends all its events to EventBridge; a rule picks incoming/ uploads. EventBridge
        // retries an invocation it could not deliver, then keeps the event in the failed-events queue.
        bucket.enableEventBridgeNotification();
        this.rule = new events.Rule(this, 'Incoming', {
          description: `Uploads under ${prefixes.incoming} of the data bucket, to the files function`,
          eventPattern: {
            source: ['aws.s3'],
            detailType: ['Object Created'],
            detail: { bucket: { name: [bucket.bucketName] }, object: { key: [{ prefix: prefixes.incoming }] } },
          },
          targets: [
            new eventTargets.LambdaFunction(handler, {
              deadLetterQueue: props.failedEvents,
              retryAttempts: 2,
              maxEventAge: Duration.hours(LAMBDA_ASYNC_MAX_EVENT_AGE_HOURS),
            }),
          ],
        });
        break;
      case 'sqs':
        // Notifications go to a queue the function polls, ten at a time, answering which messages
        // failed (partial batch responses). As AWS advises for SQS with Lambda: the poller invokes at
        // most the pool's share for events (maximum concurrency), so it is not throttled by its own
        // function; a receive that is throttled anyway (the account's pool, without a reservation)
        // still counts, so a message moves to the failed-events queue only after 5 receives; and it is
        // visible again only after six times the function's timeout.
        this.queue = new sqs.Queue(this, 'Queue', {
          encryption: sqs.QueueEncryption.SQS_MANAGED,
          enforceSSL: true,
          visibilityTimeout: Duration.seconds(Math.min(43_200, 6 * handler.timeout!.toSeconds())),
          deadLetterQueue: { queue: props.failedEvents, maxReceiveCount: SQS_LAMBDA_MIN_MAX_RECEIVE_COUNT },
        });
        bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.SqsDestination(this.queue), {
          prefix: prefixes.incoming,
        });
        handler.addEventSource(
          new SqsEventSource(this.queue, {
            batchSize: 10,
            reportBatchItemFailures: true,
            maxConcurrency: props.eventConcurrency,
          }),
        );
        break;
    }
  }
}
