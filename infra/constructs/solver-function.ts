// The one Lambda function behind every trigger, deployed from the prebuilt `dist/handler` bundle.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import {
  METRICS_NAMESPACE,
  prefixes,
  SERVICE_NAME,
  SOLVER_THREADS_ENV,
  solverThreadsForMemory,
} from '../../functions/contract/service-layout.js';

export interface SolverFunctionProps {
  /** Folder holding `index.mjs` (+ `.map`), as `npm run build` writes it. */
  readonly bundleDir: string;
  readonly bucket: s3.Bucket;
  readonly memoryMb: number;
  readonly timeoutSeconds: number;
  readonly logRetentionDays: number;
}

export class SolverFunction extends Construct {
  readonly function: lambda.Function;
  readonly logGroup: logs.LogGroup;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: SolverFunctionProps) {
    super(scope, id);
    // Fail the synth early and clearly when the bundle has not been built.
    const entry = path.join(props.bundleDir, 'index.mjs');
    if (!existsSync(entry)) {
      throw new Error(
        `Lambda bundle not found: ${entry}. Run \`npm run build\` first (\`npm run synth\` and \`npm run deploy\` do).`,
      );
    }

    // Its own log group, so retention is set on purpose and the role can be scoped to it.
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetentionDays as logs.RetentionDays,
    });

    // A role with only what the function uses (no managed policies): its log group, X-Ray, and the
    // bucket per prefix.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Sudoku solver function: logs, traces, and the data bucket per prefix',
    });
    this.logGroup.grantWrite(this.role);

    // Node.js 22 on Graviton (cheaper per ms, as fast for integer work), the prebuilt ESM bundle
    // with source maps on, JSON logs, and Lambda's recursive loop detection stopping any loop.
    this.function = new lambda.Function(this, 'Function', {
      description: 'Solves Sudoku puzzles from the HTTP API, S3 uploads and the batch run',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      code: lambda.Code.fromAsset(props.bundleDir),
      handler: 'index.handler',
      memorySize: props.memoryMb,
      timeout: Duration.seconds(props.timeoutSeconds),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      tracing: lambda.Tracing.ACTIVE,
      recursiveLoop: lambda.RecursiveLoop.TERMINATE,
      environment: {
        BUCKET: props.bucket.bucketName,
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
        // Files are solved on as many threads as the memory buys vCPUs (1 at the default 1,769 MB).
        [SOLVER_THREADS_ENV]: String(solverThreadsForMemory(props.memoryMb)),
      },
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Pinned to Node.js 22 on purpose: the runtime the bundle (esbuild target node20, ESM) and the test suite are verified on; moving to a newer runtime is a tested one-line change.',
    });

    // Least privilege on the bucket, per prefix: read the two input prefixes; read solved/ too,
    // because the idempotency check is a HeadObject there; write (single and multipart) only to
    // the two output prefixes.
    const objects = (...keys: string[]): string[] => keys.map((prefix) => props.bucket.arnForObjects(`${prefix}*`));
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ReadInputs',
        actions: ['s3:GetObject'],
        resources: objects(prefixes.incoming, prefixes.batch, prefixes.solved),
      }),
    );
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'WriteOutputs',
        actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
        resources: objects(prefixes.solved, prefixes.reports),
      }),
    );
    // ListBucket (key names only, no content) makes HeadObject on a missing key answer 404 instead
    // of 403, which is how the idempotency check tells "not solved yet" from "forbidden".
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ sid: 'ListKeys', actions: ['s3:ListBucket'], resources: [props.bucket.bucketArn] }),
    );

    // cdk-nag acknowledgements for the deliberate wildcards of this role.
    const policy = this.role.node.findChild('DefaultPolicy');
    Validations.of(policy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions (added by Tracing.ACTIVE).',
    });
    const bucketId = Stack.of(this).getLogicalId(props.bucket.node.defaultChild as s3.CfnBucket);
    for (const prefix of [prefixes.incoming, prefixes.batch, prefixes.solved, prefixes.reports]) {
      Validations.of(policy).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}*]`,
        reason: `Object keys are data, not known in advance: the wildcard covers only the ${prefix} prefix of the service's own bucket.`,
      });
    }
  }
}
