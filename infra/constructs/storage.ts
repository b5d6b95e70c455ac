// The bucket that holds every input and output, and the bucket that receives its access logs.
import { type CfnResource, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { OUTPUT_PREFIXES, prefixes, RUN_REPORTS_PREFIX } from '../../functions/contract/service-layout.js';
import { STAGING_EXPIRATION_DAYS } from './large-file.js';

export interface StorageProps {
  readonly inputExpirationDays: number;
  readonly outputExpirationDays: number;
  readonly retainBucket: boolean;
  /** Retention of the log group of CDK's auto-delete-objects handler (with `retainBucket=false`). */
  readonly logRetentionDays: number;
}

/** The construct id of CDK's singleton provider behind every bucket's `autoDeleteObjects`. */
const AUTO_DELETE_PROVIDER_ID = 'Custom::S3AutoDeleteObjectsCustomResourceProvider';
/** Its log group's id, in the stack beside it (as the provider, one per stack). */
const AUTO_DELETE_LOGS_ID = 'AutoDeleteObjectsHandlerLogs';

export class Storage extends Construct {
  readonly bucket: s3.Bucket;
  readonly accessLogsBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: StorageProps) {
    super(scope, id);
    const removalPolicy = props.retainBucket ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const secure = {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy,
      autoDeleteObjects: !props.retainBucket,
    };

    // Server access logs: who read or wrote which key, kept as long as the outputs. S3 log delivery
    // cannot write to SSE-KMS buckets, hence SSE-S3 on both buckets.
    this.accessLogsBucket = new s3.Bucket(this, 'AccessLogs', {
      ...secure,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(props.outputExpirationDays) }],
    });

    // The data bucket: uploads under incoming/ and batch/, results under the output prefixes
    // (solved/, reports/, batch-solved/, batch-reports/, long-keys/), batch runs' result files under
    // run-reports/, a large file's work objects under staging/. Old objects expire by prefix (staging/ once no job
    // can still need them); multipart uploads abandoned by a failed run or job, anywhere, after a day.
    this.bucket = new s3.Bucket(this, 'Bucket', {
      ...secure,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'data-bucket/',
      lifecycleRules: [
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        ...[prefixes.incoming, prefixes.batch].map((prefix) => ({
          id: `expire-${prefix.slice(0, -1)}`,
          prefix,
          expiration: Duration.days(props.inputExpirationDays),
        })),
        ...[...OUTPUT_PREFIXES, RUN_REPORTS_PREFIX].map((prefix) => ({
          id: `expire-${prefix.slice(0, -1)}`,
          prefix,
          expiration: Duration.days(props.outputExpirationDays),
        })),
        { id: 'expire-staging', prefix: prefixes.staging, expiration: Duration.days(STAGING_EXPIRATION_DAYS) },
      ],
    });
    if (!props.retainBucket) this.configureAutoDeleteHandler(props.logRetentionDays);
  }

  /**
   * CDK's auto-delete-objects handler (the deploy-time function that empties the buckets before a
   * `cdk destroy`) would log to a group Lambda creates on first use, kept forever, and CDK offers
   * no setting for it (aws-cdk#24815): point it at one with the retention setting. Its managed
   * policy (AWSLambdaBasicExecutionRole) may write to any log group, this one included. The handler
   * is one per stack, whatever number of buckets (and services) it empties: so is its log group.
   */
  private configureAutoDeleteHandler(logRetentionDays: number): void {
    const stack = Stack.of(this);
    if (stack.node.tryFindChild(AUTO_DELETE_LOGS_ID)) return;
    const handler = stack.node.tryFindChild(AUTO_DELETE_PROVIDER_ID)?.node.tryFindChild('Handler') as
      | CfnResource
      | undefined;
    if (!handler) throw new Error(`autoDeleteObjects made no ${AUTO_DELETE_PROVIDER_ID}/Handler: CDK renamed it`);
    const logGroup = new logs.LogGroup(stack, AUTO_DELETE_LOGS_ID, {
      retention: logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    handler.addPropertyOverride('LoggingConfig', { LogGroup: logGroup.logGroupName });
  }
}
