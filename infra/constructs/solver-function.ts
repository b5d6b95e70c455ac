// The solver, deployed from the prebuilt `dist/handler` bundle: the same code (`index.handler`) as
// two functions, one behind the HTTP API and one for files, each with its own concurrency, memory
// and timeout, so a flood of requests can neither starve the files nor run up an unbounded bill.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct, type IConstruct } from 'constructs';
import {
  type FunctionPurpose,
  METRICS_NAMESPACE,
  prefixes,
  OUTPUT_PREFIXES,
  RUN_REPORTS_PREFIX,
  SOLVER_THREADS_ENV,
  solverThreadsForMemory,
} from '../../functions/contract/service-layout.js';
import { FILES_TIMEOUT_ENV } from '../../functions/contract/large-files.js';
import { routeKey } from '../../functions/contract/api-routes.js';
import { UNRESERVED_POOL_METADATA } from '../template-metadata.js';

export interface SolverFunctionProps {
  /** Folder holding `index.mjs` (+ `.map`), as `npm run build` writes it. */
  readonly bundleDir: string;
  readonly purpose: FunctionPurpose;
  /** The data bucket: granted per prefix to the files function; the API function gets no access to it. */
  readonly bucket: s3.Bucket;
  readonly memoryMb: number;
  readonly timeoutSeconds: number;
  /** 0 = no reservation (the function shares the account's unreserved pool). */
  readonly reservedConcurrency: number;
  /**
   * Without a reservation, the executions of the unreserved pool the stack sizes the function for:
   * written to the template's Metadata (UNRESERVED_POOL_METADATA) so the twin enforces it too.
   */
  readonly unreservedPool: number;
  readonly logRetentionDays: number;
  /** Powertools' service name: the `service` of every log line and the dimension of every metric it emits. */
  readonly serviceName: string;
}

const descriptions: Record<FunctionPurpose, string> = {
  api: `Sudoku solver behind the HTTP API (${(['solve', 'health', 'openapi', 'page'] as const).map(routeKey).join(', ')})`,
  files: `Sudoku solver for files: S3 uploads under ${prefixes.incoming} and the batch run's map items`,
};

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
      description:
        props.purpose === 'files'
          ? 'Sudoku files function: logs, traces, and the data bucket per prefix'
          : 'Sudoku API function: logs and traces only (solving a request touches no stored data)',
    });
    this.logGroup.grantWrite(this.role);

    // Node.js 24 on Graviton (cheaper per ms, as fast for integer work), the prebuilt ESM bundle
    // with source maps on, JSON logs, and Lambda's recursive loop detection stopping any loop.
    // Reserved concurrency is both a ceiling (the cost bound) and a floor no other function can take.
    this.function = new lambda.Function(this, 'Function', {
      description: descriptions[props.purpose],
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      code: lambda.Code.fromAsset(props.bundleDir),
      handler: 'index.handler',
      memorySize: props.memoryMb,
      timeout: Duration.seconds(props.timeoutSeconds),
      ...(props.reservedConcurrency > 0 ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      tracing: lambda.Tracing.ACTIVE,
      recursiveLoop: lambda.RecursiveLoop.TERMINATE,
      environment: {
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
        // Files are solved on as many threads as the memory buys vCPUs (1 at the default 1,769 MB); a request solves in one.
        ...(props.purpose === 'files' ? { [SOLVER_THREADS_ENV]: String(solverThreadsForMemory(props.memoryMb)) } : {}),
        // A file's range plan is sized by the time one invocation has: the function reads its own timeout here.
        ...(props.purpose === 'files' ? { [FILES_TIMEOUT_ENV]: String(props.timeoutSeconds) } : {}),
      },
    });

    if (props.reservedConcurrency === 0)
      (this.function.node.defaultChild as lambda.CfnFunction).addMetadata(
        UNRESERVED_POOL_METADATA,
        props.unreservedPool,
      );

    const policy = this.role.node.findChild('DefaultPolicy');
    Validations.of(policy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions (added by Tracing.ACTIVE).',
    });
    if (props.purpose === 'files') this.grantBucket(props.bucket, policy);
  }

  /**
   * Least privilege on the bucket, per prefix: read the two input prefixes; read its own outputs
   * too, because the idempotency check HEADs the output and the report (HeadObject is s3:GetObject);
   * write (single and multipart) only to the output prefixes (OUTPUT_PREFIXES), and never to the
   * run results Step Functions writes under run-reports/.
   */
  private grantBucket(bucket: s3.Bucket, policy: IConstruct): void {
    const objects = (...keys: string[]): string[] => keys.map((prefix) => bucket.arnForObjects(`${prefix}*`));
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ReadInputs',
        actions: ['s3:GetObject'],
        resources: objects(prefixes.incoming, prefixes.batch),
      }),
    );
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ReadOwnOutputs',
        actions: ['s3:GetObject'],
        resources: objects(...OUTPUT_PREFIXES),
      }),
    );
    const write = ['s3:PutObject', 's3:AbortMultipartUpload'];
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'WriteOutputs',
        actions: write,
        resources: objects(...OUTPUT_PREFIXES),
      }),
    );
    // An explicit deny wins over the allow above: a bug or a crafted key cannot overwrite or
    // forge the map run's own result files.
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'NeverWriteRunResults',
        effect: iam.Effect.DENY,
        actions: write,
        resources: objects(RUN_REPORTS_PREFIX),
      }),
    );
    // ListBucket (key names only, no content) makes HeadObject on a missing key answer 404 instead
    // of 403, which is how the idempotency check tells "not solved yet" from "forbidden".
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ sid: 'ListKeys', actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }),
    );

    const bucketId = Stack.of(this).getLogicalId(bucket.node.defaultChild as s3.CfnBucket);
    for (const prefix of [prefixes.incoming, prefixes.batch, ...OUTPUT_PREFIXES]) {
      Validations.of(policy).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}*]`,
        reason: `Object keys are data, not known in advance: the wildcard covers only the ${prefix} prefix of the service's own bucket.`,
      });
    }
  }
}
