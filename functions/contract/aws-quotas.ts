/**
 * AWS's documented quotas that decide whether the service works in a real account, written once:
 * the stack's synth checks, the function's plans, the twin's enforcement and docs/twin.md's quota
 * table all read these numbers. Pure data: infra/ and the twin import this file. Each value is the
 * one AWS documents today (the docs page is named beside it); where a quota was raised recently the
 * comment says from what, so a reader comparing with an old blog post is not misled.
 */

/** Step Functions: the largest input or output of a task, state or execution (UTF-8 bytes). */
export const SFN_MAX_STATE_BYTES = 256 * 1024;
/** Step Functions: an execution name's longest length (characters). */
export const SFN_MAX_EXECUTION_NAME_CHARS = 80;
/** Step Functions: how long a Standard execution's name stays taken after it ends (days). */
export const SFN_EXECUTION_NAME_RETENTION_DAYS = 90;
/** Step Functions Distributed Map: the most child workflows running at once (MaxConcurrency). */
export const SFN_MAP_MAX_CONCURRENCY = 10_000;
/** Step Functions Distributed Map: an ItemBatcher's MaxInputBytesPerBatch ceiling (bytes). */
export const SFN_MAP_MAX_BATCH_INPUT_BYTES = 256 * 1024;

/** Lambda: concurrency Lambda keeps unreserved in every account and region. */
export const LAMBDA_MIN_UNRESERVED_CONCURRENCY = 100;
/** Lambda: a synchronous invocation's request or response payload (bytes). */
export const LAMBDA_MAX_SYNC_PAYLOAD_BYTES = 6 * 1024 * 1024;
/**
 * Lambda: a synchronous invocation's result, serialized as JSON, exactly (the number in its
 * Function.ResponseSizeTooLarge error; "6 MB" in the docs). API Gateway answers 500 past it.
 */
export const LAMBDA_MAX_SYNC_RESULT_BYTES = 6_291_556;
/** Lambda: an asynchronous invocation's payload (bytes; 1 MB since October 2025, 256 KB before). */
export const LAMBDA_MAX_ASYNC_PAYLOAD_BYTES = 1024 * 1024;
/** Lambda: the longest timeout (seconds). */
export const LAMBDA_MAX_TIMEOUT_SECONDS = 900;
/** Lambda: the largest memory setting (MB); CPU grows with it, up to 6 vCPUs. */
export const LAMBDA_MAX_MEMORY_MB = 10_240;
/** Lambda: the smallest memory setting (MB). */
export const LAMBDA_MIN_MEMORY_MB = 128;
/** Lambda: all environment variables of a function together (bytes). */
export const LAMBDA_MAX_ENVIRONMENT_BYTES = 4 * 1024;
/** Lambda: the most retries of a failed asynchronous invocation. */
export const LAMBDA_MAX_ASYNC_RETRIES = 2;

/** S3: the longest object key (UTF-8 bytes). */
export const S3_MAX_KEY_BYTES = 1024;
/** S3: the most parts of one multipart upload. */
export const S3_MAX_PARTS = 10_000;
/** S3: the smallest part of a multipart upload but the last (bytes). */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;
/** S3: the largest part of a multipart upload, and the largest single PUT (bytes). */
export const S3_MAX_PART_BYTES = 5 * 1024 * 1024 * 1024;
/** S3: the largest object (bytes; 50 TB since December 2025, 5 TB before): 10,000 parts of 5 GiB. */
export const S3_MAX_OBJECT_BYTES = S3_MAX_PARTS * S3_MAX_PART_BYTES;
/** S3: user-defined metadata of one object, the UTF-8 bytes of every name (without `x-amz-meta-`) and value. */
export const S3_MAX_USER_METADATA_BYTES = 2 * 1024;

/** API Gateway HTTP API: the largest request body (bytes; cannot be raised). */
export const APIGW_MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
/** API Gateway HTTP API: the request line and header values together (bytes; cannot be raised). */
export const APIGW_MAX_REQUEST_LINE_AND_HEADER_BYTES = 10_240;
/** API Gateway HTTP API: the longest an integration may take (seconds; cannot be raised). */
export const APIGW_MAX_INTEGRATION_TIMEOUT_SECONDS = 30;

/** SQS: the largest message (bytes; 1 MiB since August 2025, 256 KiB before). */
export const SQS_MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Lambda: how long an asynchronous event (an S3 notification, an EventBridge target) may wait,
 * throttled, before Lambda drops it or sends it on failure (hours; the default and the maximum
 * MaximumEventAgeInSeconds). A throttled asynchronous invocation is retried all this time, from 1 s
 * apart growing to 5 minutes; only function errors count against the two retries.
 * https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-error-handling.html
 */
export const LAMBDA_ASYNC_MAX_EVENT_AGE_HOURS = 6;
/** Lambda: the first and the longest wait between retries of a throttled asynchronous event (seconds; same page). */
export const LAMBDA_ASYNC_THROTTLE_RETRY_SECONDS = { first: 1, max: 300 } as const;
/**
 * Lambda SQS event source: the smallest and largest MaximumConcurrency (ScalingConfig).
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-lambda-eventsourcemapping-scalingconfig.html
 */
export const LAMBDA_SQS_MAX_CONCURRENCY = { min: 2, max: 1000 } as const;
/**
 * SQS with Lambda: AWS's guidance for a queue's redrive policy, a maxReceiveCount of at least 5, so
 * a message throttled a few times is not dead-lettered.
 * https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html
 */
export const SQS_LAMBDA_MIN_MAX_RECEIVE_COUNT = 5;
/**
 * Step Functions: events in one Standard execution's history; past it the execution fails. Each
 * retry of a Lambda task adds about three (scheduled, started, failed).
 * https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html
 */
export const SFN_MAX_HISTORY_EVENTS = 25_000;
/**
 * API Gateway: the account's steady request rate per Region, shared by every API (requests/s);
 * what reaches a stage's throttle at most, and each request over it is still access-logged (429).
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html
 */
export const APIGW_ACCOUNT_RATE_LIMIT = 10_000;
