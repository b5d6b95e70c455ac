// The bucket that holds every input and output, and the bucket that receives its access logs.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { prefixes } from '../../functions/contract/service-layout.js';
import { STAGING_EXPIRATION_DAYS } from './large-file.js';

export interface StorageProps {
  readonly inputExpirationDays: number;
  readonly outputExpirationDays: number;
  readonly retainBucket: boolean;
}

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

    // The data bucket: uploads under incoming/ and batch/, results under solved/ and reports/, a
    // large file's work objects under staging/. Old objects expire by prefix (staging/ once no job
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
        ...[prefixes.solved, prefixes.reports].map((prefix) => ({
          id: `expire-${prefix.slice(0, -1)}`,
          prefix,
          expiration: Duration.days(props.outputExpirationDays),
        })),
        { id: 'expire-staging', prefix: prefixes.staging, expiration: Duration.days(STAGING_EXPIRATION_DAYS) },
      ],
    });
  }
}
