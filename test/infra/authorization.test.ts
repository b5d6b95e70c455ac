// Every service-to-service edge of the stack, decided as AWS would decide it: the synthesized
// template's policies (identity, trust and resource-based) through a maintained IAM evaluator, the
// same one the local S3 uses. A grant asserted as written proves nothing; a request decided
// against the policy does. And every Allow must be needed: dropping any one of them flips an edge.
import { describe, expect, it } from 'vitest';
import { type Caller, Authorizer } from '../../twin/iam/decide.js';
import { LOCAL_ACCOUNT_ID } from '../../twin/iam/local-account.js';
import { callerFor } from '../../twin/iam/local-callers.js';
import { dataBucketId, localPolicyModel } from '../../twin/iam/local-policies.js';
import { buildPolicyModel, type PolicyModel } from '../../twin/iam/policy-model.js';
import { type CloudFormationTemplate, TemplateResolver } from '../../twin/iam/resolve-template.js';
import {
  LARGE_FILE_STATE_MACHINE_ENV,
  LARGE_FILE_STATES,
  largeFileExecutionName,
  largeFileJobId,
} from '../../functions/contract/large-files.js';
import { mapStates } from '../../infra/constructs/batch-run.js';
import type { S3EventRoute } from '../../infra/settings.js';
import { synth } from './helpers.js';

const BUCKET = 'sudoku-data';
const OTHER_ACCOUNT = '210987654321';

interface Edge {
  name: string;
  caller: Caller;
  action: string;
  resource: string;
  context?: Record<string, string>;
  allowed: boolean;
}

/** A state machine's executions: `arn:...:execution:<machine>`, the name to follow after a colon. */
const executionsOf = (machineArn: string): string => machineArn.replace(':stateMachine:', ':execution:');
/** A file's run as the files function names it (largeFileExecutionName). */
const fileRun = (machineArn: string): string =>
  `${executionsOf(machineArn)}:${largeFileExecutionName(largeFileJobId('incoming/a.txt', 'e1'), 2)}`;

function templateFor(route: S3EventRoute): CloudFormationTemplate {
  return synth({ s3Events: route }).template.toJSON() as CloudFormationTemplate;
}

/**
 * The twin's policy model of the template (its buckets named as the twin names them), with each
 * state machine that has a fixed name (StateMachineName) under that name, as CloudFormation
 * deploys it: the large-file machine's ARN is built from its name, not taken from a Ref.
 */
function modelOf(template: CloudFormationTemplate): PolicyModel {
  const names: Record<string, string> = { [dataBucketId(template)]: BUCKET };
  const resolver = new TemplateResolver(template);
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type === 'AWS::S3::Bucket' && !(id in names)) names[id] = `${BUCKET}-${id.toLowerCase()}`;
    const fixedName = resource.Properties?.StateMachineName;
    if (resource.Type === 'AWS::StepFunctions::StateMachine' && fixedName !== undefined)
      names[id] = String(resolver.resolve(fixedName));
  }
  return buildPolicyModel(template, { names });
}

/** The one resource of `type` whose logical ID starts with `prefix`. */
function idOf(template: CloudFormationTemplate, type: string, prefix: string): string {
  const ids = Object.entries(template.Resources)
    .filter(([id, r]) => r.Type === type && id.startsWith(prefix))
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`expected one ${type} named ${prefix}*, found ${ids.join(', ') || 'none'}`);
  return ids[0]!;
}

/** Every edge of the stack deployed with `route`, with what AWS must decide for it. */
function edgesOf(template: CloudFormationTemplate, model: PolicyModel, route: S3EventRoute): Edge[] {
  const r = model.resolver;
  const fn = (purpose: string) => [...model.functions.values()].find((f) => f.purpose === purpose)!;
  const files = fn('files');
  const api = fn('api');
  const role = (id: string): Caller => ({ role: id });
  const roleArn = (id: string) => model.roles.get(id)!.arn;
  const filesRole = role(files.role);
  const apiRole = role(api.role);
  const run = model.stateMachines.get(idOf(template, 'AWS::StepFunctions::StateMachine', 'BatchStateMachine'))!;
  const starter = model.stateMachines.get(idOf(template, 'AWS::StepFunctions::StateMachine', 'BatchStarter'))!;
  const largeFile = model.stateMachines.get(idOf(template, 'AWS::StepFunctions::StateMachine', 'LargeFile'))!;
  const largeFileRole = role(largeFile.role);
  const filesEnv = (
    template.Resources[files.logicalId]!.Properties!.Environment as { Variables: Record<string, unknown> }
  ).Variables;
  /** What the files function calls StartExecution on: the ARN its environment carries. */
  const largeFileArnInEnv = String(r.resolve(filesEnv[LARGE_FILE_STATE_MACHINE_ENV]));
  const schedulerRole = idOf(template, 'AWS::IAM::Role', 'SchedulerRoleForTarget');
  const notificationsRole = idOf(template, 'AWS::IAM::Role', 'BucketNotificationsHandler');
  const bucketArn = r.arnOf(dataBucketId(template));
  const accessLogsArn = r.arnOf(idOf(template, 'AWS::S3::Bucket', 'StorageAccessLogs'));
  const object = (key: string) => `${bucketArn}/${key}`;
  const logStream = (purpose: 'ApiSolver' | 'FilesSolver') =>
    `${r.arnOf(idOf(template, 'AWS::Logs::LogGroup', `${purpose}Logs`)).replace(/:\*$/, '')}:log-stream:2026/12/02/[$LATEST]abc`;
  const failedEvents = r.arnOf(idOf(template, 'AWS::SQS::Queue', 'FailedEvents'));
  const failedStarts = r.arnOf(idOf(template, 'AWS::SQS::Queue', 'BatchFailedStarts'));
  const topic = r.arnOf(idOf(template, 'AWS::SNS::Topic', 'AlarmsTopic'));
  const alarm = r.arnOf(idOf(template, 'AWS::CloudWatch::Alarm', 'AlarmsFilesFunctionErrors'));
  const apiId = String(r.resolve({ Ref: idOf(template, 'AWS::ApiGatewayV2::Api', 'HttpApi') }));
  const execute = (id: string, route: string) =>
    `arn:aws:execute-api:us-east-1:${LOCAL_ACCOUNT_ID}:${id}/$default/${route}`;
  const from = (arn: string, account = LOCAL_ACCOUNT_ID) => ({ 'aws:SourceArn': arn, 'aws:SourceAccount': account });
  const service = (name: string): Caller => ({ service: name });
  const allow = (name: string, caller: Caller, action: string, resource: string, context?: Record<string, string>) =>
    ({ name, caller, action, resource, allowed: true, ...(context ? { context } : {}) }) satisfies Edge;
  const deny = (name: string, caller: Caller, action: string, resource: string, context?: Record<string, string>) =>
    ({ ...allow(name, caller, action, resource, context), allowed: false }) satisfies Edge;
  /** A Distributed Map's child executions: started, watched and redriven by its own machine's role. */
  const childExecutions = (who: string, machine: typeof run, labels: readonly string[]): Edge[] => {
    const execution = (name: string) => `arn:aws:states:us-east-1:${LOCAL_ACCOUNT_ID}:execution:${machine.name}${name}`;
    return [
      allow(`${who} -> StartExecution of its own children`, role(machine.role), 'states:StartExecution', machine.arn),
      allow(`${who} -> DescribeExecution of a child`, role(machine.role), 'states:DescribeExecution', execution(':c1')),
      ...labels.map((label) =>
        allow(
          `${who} -> RedriveExecution of a ${label} map run`,
          role(machine.role),
          'states:RedriveExecution',
          execution(`/${label}:map-run-1`),
        ),
      ),
    ];
  };
  const delivery = (who: string, caller: Caller): Edge[] => [
    allow(`${who} -> CloudWatch Logs delivery`, caller, 'logs:CreateLogDelivery', '*'),
    allow(`${who} -> X-Ray traces`, caller, 'xray:PutTraceSegments', '*'),
  ];

  const edges: Edge[] = [
    // Who may act as each role.
    allow('Lambda assumes the files role', service('lambda.amazonaws.com'), 'sts:AssumeRole', roleArn(files.role)),
    allow('Lambda assumes the API role', service('lambda.amazonaws.com'), 'sts:AssumeRole', roleArn(api.role)),
    allow(
      "Lambda assumes CDK's notifications handler role",
      service('lambda.amazonaws.com'),
      'sts:AssumeRole',
      roleArn(notificationsRole),
    ),
    allow(
      'Step Functions assumes the run role',
      service('states.amazonaws.com'),
      'sts:AssumeRole',
      roleArn(run.role),
      from(run.arn),
    ),
    allow(
      'Step Functions assumes the starter role',
      service('states.amazonaws.com'),
      'sts:AssumeRole',
      roleArn(starter.role),
      from(starter.arn),
    ),
    deny(
      "another account's state machine may not assume the run role",
      service('states.amazonaws.com'),
      'sts:AssumeRole',
      roleArn(run.role),
      from(run.arn.replace(LOCAL_ACCOUNT_ID, OTHER_ACCOUNT), OTHER_ACCOUNT),
    ),
    allow(
      'Step Functions assumes the large-file role',
      service('states.amazonaws.com'),
      'sts:AssumeRole',
      roleArn(largeFile.role),
      from(largeFile.arn),
    ),
    deny(
      "another account's state machine may not assume the large-file role",
      service('states.amazonaws.com'),
      'sts:AssumeRole',
      roleArn(largeFile.role),
      from(largeFile.arn.replace(LOCAL_ACCOUNT_ID, OTHER_ACCOUNT), OTHER_ACCOUNT),
    ),
    allow(
      'Scheduler assumes its role',
      service('scheduler.amazonaws.com'),
      'sts:AssumeRole',
      roleArn(schedulerRole),
      from(`arn:aws:scheduler:us-east-1:${LOCAL_ACCOUNT_ID}:schedule-group/default`),
    ),

    // The files function: reads its inputs and its own outputs (the idempotency HEADs), writes its outputs.
    allow('files -> GetObject incoming/', filesRole, 's3:GetObject', object('incoming/a.txt')),
    allow('files -> GetObject batch/', filesRole, 's3:GetObject', object('batch/a.txt')),
    allow('files -> HeadObject solved/ (idempotency)', filesRole, 's3:GetObject', object('solved/a.txt')),
    allow('files -> HeadObject reports/ (idempotency)', filesRole, 's3:GetObject', object('reports/a.txt.json')),
    allow('files -> ListBucket (a missing key is 404, not 403)', filesRole, 's3:ListBucket', bucketArn),
    allow('files -> PutObject solved/ (multipart too)', filesRole, 's3:PutObject', object('solved/a.txt')),
    allow('files -> AbortMultipartUpload solved/', filesRole, 's3:AbortMultipartUpload', object('solved/a.txt')),
    allow('files -> PutObject reports/', filesRole, 's3:PutObject', object('reports/a.txt.json')),
    allow('files -> HeadObject batch-solved/ (idempotency)', filesRole, 's3:GetObject', object('batch-solved/a.txt')),
    allow('files -> PutObject batch-solved/', filesRole, 's3:PutObject', object('batch-solved/a.txt')),
    allow('files -> PutObject batch-reports/', filesRole, 's3:PutObject', object('batch-reports/a.txt.json')),
    allow(
      'files -> PutObject long-keys/ (a report past 1,024 bytes)',
      filesRole,
      's3:PutObject',
      object('long-keys/0f.json'),
    ),
    deny(
      'files may not write the run results under run-reports/',
      filesRole,
      's3:PutObject',
      object('run-reports/x.json'),
    ),
    deny('files may not write incoming/ (no self-trigger)', filesRole, 's3:PutObject', object('incoming/a.txt')),
    deny('files may not write batch/', filesRole, 's3:PutObject', object('batch/a.txt')),
    deny('files may not write run-reports/', filesRole, 's3:PutObject', object('run-reports/x/manifest.json')),
    deny('files over plain HTTP is refused', filesRole, 's3:GetObject', object('incoming/a.txt'), {
      'aws:SecureTransport': 'false',
    }),
    deny('the admin over plain HTTP is refused', { admin: true }, 's3:GetObject', object('incoming/a.txt'), {
      'aws:SecureTransport': 'false',
    }),
    // A file too large for one invocation: the files function starts the large-file machine (and
    // no other) and works in staging/; the output's parts are copied from staging/ (UploadPartCopy:
    // s3:GetObject on the source, s3:PutObject on the destination).
    allow('files -> StartExecution large-file', filesRole, 'states:StartExecution', largeFileArnInEnv),
    deny('files may not start the batch run', filesRole, 'states:StartExecution', run.arn),
    deny('files may not start the starter', filesRole, 'states:StartExecution', starter.arn),
    // How a version's earlier runs ended: this machine's file runs only.
    allow(
      'files -> DescribeExecution of a file run',
      filesRole,
      'states:DescribeExecution',
      fileRun(largeFileArnInEnv),
    ),
    deny(
      'files may not describe other executions of it',
      filesRole,
      'states:DescribeExecution',
      `${executionsOf(largeFileArnInEnv)}:other`,
    ),
    deny(
      'files may not describe batch runs',
      filesRole,
      'states:DescribeExecution',
      `${executionsOf(run.arn)}:file-x-1`,
    ),
    ...(
      [
        ['PutObject staging/ (manifest, range answers)', 's3:PutObject', 'staging/j1/ranges.json'],
        ['GetObject staging/ (a range of an inflated .gz)', 's3:GetObject', 'staging/j1/source'],
        ['DeleteObject staging/ (the job ends)', 's3:DeleteObject', 'staging/j1/range-3'],
        ['AbortMultipartUpload staging/', 's3:AbortMultipartUpload', 'staging/j1/range-3'],
        ['UploadPartCopy: GetObject of the staging/ source', 's3:GetObject', 'staging/j1/range-0'],
        ['UploadPartCopy: PutObject of the solved/ part', 's3:PutObject', 'solved/big.txt'],
      ] as const
    ).map(([what, action, key]) => allow(`files -> ${what}`, filesRole, action, object(key))),
    allow('files -> ListObjectsV2 staging/ (cleanup)', filesRole, 's3:ListBucket', bucketArn, {
      's3:prefix': 'staging/j1/',
    }),
    deny('files may not delete solved/ blind', filesRole, 's3:DeleteObject', object('solved/a.txt')),
    allow(
      'files -> DeleteObject solved/ If-Match (a superseded output)',
      filesRole,
      's3:DeleteObject',
      object('solved/a.txt'),
      {
        's3:if-match': '"0123456789abcdef0123456789abcdef"',
      },
    ),
    deny('files may not delete reports/ blind', filesRole, 's3:DeleteObject', object('reports/a.txt.json')),
    allow(
      'files -> DeleteObject reports/ If-Match (a superseded run takes back its running report)',
      filesRole,
      's3:DeleteObject',
      object('reports/a.txt.json'),
      { 's3:if-match': '"0123456789abcdef0123456789abcdef"' },
    ),
    deny('files may not delete incoming/', filesRole, 's3:DeleteObject', object('incoming/a.txt')),
    allow('files -> its log group', filesRole, 'logs:PutLogEvents', logStream('FilesSolver')),
    allow('files -> X-Ray', filesRole, 'xray:PutTraceSegments', '*'),

    // The API function touches no stored data.
    deny('API may not read incoming/', apiRole, 's3:GetObject', object('incoming/a.txt')),
    deny('API may not read solved/', apiRole, 's3:GetObject', object('solved/a.txt')),
    deny('API may not list the bucket', apiRole, 's3:ListBucket', bucketArn),
    deny('API may not write solved/', apiRole, 's3:PutObject', object('solved/a.txt')),
    allow('API -> its log group', apiRole, 'logs:PutLogEvents', logStream('ApiSolver')),
    allow('API -> X-Ray', apiRole, 'xray:PutTraceSegments', '*'),
    deny("API may not write the files function's logs", apiRole, 'logs:PutLogEvents', logStream('FilesSolver')),
    deny('API may not start the large-file machine', apiRole, 'states:StartExecution', largeFile.arn),
    deny('API may not describe file runs', apiRole, 'states:DescribeExecution', fileRun(largeFileArnInEnv)),
    deny('API may not read staging/', apiRole, 's3:GetObject', object('staging/j1/ranges.json')),

    // API Gateway -> the API function, every route (the $default route catches the rest).
    ...[
      'POST/solve',
      'POST/grade',
      'POST/hint',
      'GET/puzzle',
      'GET/',
      'GET/health',
      'GET/openapi.json',
      '$default',
    ].map((route) =>
      allow(
        `API Gateway ${route} -> API function`,
        service('apigateway.amazonaws.com'),
        'lambda:InvokeFunction',
        api.arn,
        {
          'aws:SourceArn': execute(apiId, route),
        },
      ),
    ),
    deny(
      'another API may not invoke the API function',
      service('apigateway.amazonaws.com'),
      'lambda:InvokeFunction',
      api.arn,
      {
        'aws:SourceArn': execute('otherapi', 'POST/solve'),
      },
    ),
    deny(
      'API Gateway may not invoke the files function',
      service('apigateway.amazonaws.com'),
      'lambda:InvokeFunction',
      files.arn,
      {
        'aws:SourceArn': execute(apiId, 'POST/solve'),
      },
    ),

    // CloudWatch alarms -> the topic.
    allow('CloudWatch alarm -> SNS Publish', service('cloudwatch.amazonaws.com'), 'sns:Publish', topic, from(alarm)),
    deny(
      "another account's alarm may not publish",
      service('cloudwatch.amazonaws.com'),
      'sns:Publish',
      topic,
      from(alarm.replace(LOCAL_ACCOUNT_ID, OTHER_ACCOUNT), OTHER_ACCOUNT),
    ),

    // Scheduler -> starter -> run.
    allow('Scheduler -> StartExecution starter', role(schedulerRole), 'states:StartExecution', starter.arn),
    deny('Scheduler may not start the run directly', role(schedulerRole), 'states:StartExecution', run.arn),
    allow('Scheduler -> its failed-starts queue', role(schedulerRole), 'sqs:SendMessage', failedStarts),
    allow('starter -> StartExecution run', role(starter.role), 'states:StartExecution', run.arn),
    ...delivery('starter', role(starter.role)),

    // The run's Distributed Map: lists its prefixes, invokes the files function, writes its results, runs children.
    allow('run -> ListObjectsV2 batch/', role(run.role), 's3:ListBucket', bucketArn, { 's3:prefix': 'batch/' }),
    allow('run -> ListObjectsV2 incoming/ (sweep)', role(run.role), 's3:ListBucket', bucketArn, {
      's3:prefix': 'incoming/',
    }),
    deny('run may not list solved/', role(run.role), 's3:ListBucket', bucketArn, { 's3:prefix': 'solved/' }),
    allow('run -> InvokeFunction files', role(run.role), 'lambda:InvokeFunction', files.arn),
    deny('run may not invoke the API function', role(run.role), 'lambda:InvokeFunction', api.arn),
    allow(
      'run ResultWriter -> PutObject run-reports/',
      role(run.role),
      's3:PutObject',
      object('run-reports/r1/manifest.json'),
    ),
    allow(
      'run ResultWriter -> GetObject run-reports/',
      role(run.role),
      's3:GetObject',
      object('run-reports/r1/manifest.json'),
    ),
    deny('run may not write solved/', role(run.role), 's3:PutObject', object('solved/a.txt')),
    deny('run may not write incoming/', role(run.role), 's3:PutObject', object('incoming/a.txt')),
    deny('run may not read the inputs', role(run.role), 's3:GetObject', object('batch/a.txt')),
    ...childExecutions('run', run, Object.values(mapStates)),
    ...delivery('run', role(run.role)),

    // The large-file machine: reads the manifest, invokes the files function per range (and its
    // finish and fail steps), runs its maps' children; nothing else in the bucket.
    allow('large-file -> InvokeFunction files', largeFileRole, 'lambda:InvokeFunction', files.arn),
    deny('large-file may not invoke the API function', largeFileRole, 'lambda:InvokeFunction', api.arn),
    allow(
      'large-file ItemReader -> GetObject staging/ manifest',
      largeFileRole,
      's3:GetObject',
      object('staging/j1/ranges.json'),
    ),
    deny('large-file may not read incoming/', largeFileRole, 's3:GetObject', object('incoming/a.txt')),
    deny('large-file may not write staging/', largeFileRole, 's3:PutObject', object('staging/j1/ranges.json')),
    deny('large-file may not list the bucket', largeFileRole, 's3:ListBucket', bucketArn, {
      's3:prefix': 'staging/',
    }),
    deny('large-file may not start the batch run', largeFileRole, 'states:StartExecution', run.arn),
    ...childExecutions('large-file', largeFile, Object.values(LARGE_FILE_STATES)),
    ...delivery('large-file', role(largeFile.role)),

    // CDK's deploy-time notifications handler, and the access logs.
    allow(
      'notifications handler -> PutBucketNotification',
      role(notificationsRole),
      's3:PutBucketNotification',
      bucketArn,
    ),
    allow(
      'S3 server access logs -> the logs bucket',
      service('logging.s3.amazonaws.com'),
      's3:PutObject',
      `${accessLogsArn}/data-bucket/log`,
      from(bucketArn),
    ),
    deny(
      "another bucket's access logs may not land there",
      service('logging.s3.amazonaws.com'),
      's3:PutObject',
      `${accessLogsArn}/data-bucket/log`,
      from('arn:aws:s3:::someone-else', OTHER_ACCOUNT),
    ),
  ];

  // Exactly one route carries uploads to the files function.
  const viaS3 = from(bucketArn);
  const asyncFailures = allow(
    'files -> failed-events queue (async failures)',
    filesRole,
    'sqs:SendMessage',
    failedEvents,
  );
  if (route === 'notification') {
    edges.push(
      allow(
        'S3 notification -> files function',
        service('s3.amazonaws.com'),
        'lambda:InvokeFunction',
        files.arn,
        viaS3,
      ),
    );
    edges.push(
      deny(
        "another bucket's notification may not invoke it",
        service('s3.amazonaws.com'),
        'lambda:InvokeFunction',
        files.arn,
        {
          'aws:SourceArn': 'arn:aws:s3:::someone-else',
          'aws:SourceAccount': OTHER_ACCOUNT,
        },
      ),
    );
    edges.push(asyncFailures);
  } else {
    edges.push(
      deny(
        `S3 may not invoke the function directly (route ${route})`,
        service('s3.amazonaws.com'),
        'lambda:InvokeFunction',
        files.arn,
        viaS3,
      ),
    );
  }
  if (route === 'eventbridge') {
    const rule = r.arnOf(idOf(template, 'AWS::Events::Rule', 'UploadsIncoming'));
    edges.push(
      allow('EventBridge rule -> files function', service('events.amazonaws.com'), 'lambda:InvokeFunction', files.arn, {
        'aws:SourceArn': rule,
      }),
    );
    edges.push(
      allow(
        'EventBridge rule -> failed-events queue',
        service('events.amazonaws.com'),
        'sqs:SendMessage',
        failedEvents,
        { 'aws:SourceArn': rule },
      ),
    );
    edges.push(
      deny('another rule may not invoke it', service('events.amazonaws.com'), 'lambda:InvokeFunction', files.arn, {
        'aws:SourceArn': `${rule}-other`,
      }),
    );
    edges.push(asyncFailures);
  }
  if (route === 'sqs') {
    const queue = r.arnOf(idOf(template, 'AWS::SQS::Queue', 'UploadsQueue'));
    edges.push(allow('S3 notification -> uploads queue', service('s3.amazonaws.com'), 'sqs:SendMessage', queue, viaS3));
    edges.push(
      deny('another bucket may not send to the queue', service('s3.amazonaws.com'), 'sqs:SendMessage', queue, {
        'aws:SourceArn': 'arn:aws:s3:::someone-else',
      }),
    );
    edges.push(allow('files polls the uploads queue', filesRole, 'sqs:ReceiveMessage', queue));
    edges.push(allow('files deletes what it solved', filesRole, 'sqs:DeleteMessage', queue));
    edges.push(
      deny(
        'files may not write the failed-events queue (the redrive moves messages)',
        filesRole,
        'sqs:SendMessage',
        failedEvents,
      ),
    );
  }
  return edges;
}

async function decideAll(model: PolicyModel, edges: Edge[]): Promise<boolean[]> {
  const authorizer = new Authorizer(model);
  return Promise.all(edges.map(async (e) => (await authorizer.decide(e)).decision === 'Allowed'));
}

/** Every Allow statement of the template (identity, trust, resource policies, Lambda permissions), as a way to drop it. */
function allowStatements(template: CloudFormationTemplate): { label: string; drop: () => CloudFormationTemplate }[] {
  const found: { label: string; drop: () => CloudFormationTemplate }[] = [];
  const copy = (): CloudFormationTemplate => structuredClone(template);
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type === 'AWS::Lambda::Permission') {
      found.push({
        label: `${id} (${resource.Properties?.Principal})`,
        drop: () => {
          const t = copy();
          delete t.Resources[id];
          return t;
        },
      });
      continue;
    }
    const documentKey = {
      'AWS::IAM::Policy': 'PolicyDocument',
      'AWS::IAM::Role': 'AssumeRolePolicyDocument',
      'AWS::S3::BucketPolicy': 'PolicyDocument',
      'AWS::SNS::TopicPolicy': 'PolicyDocument',
      'AWS::SQS::QueuePolicy': 'PolicyDocument',
    }[resource.Type];
    if (!documentKey) continue;
    const policy = resource.Properties?.[documentKey] as
      | { Statement: { Effect: string; Action?: unknown; Sid?: string }[] }
      | undefined;
    const statements = policy?.Statement ?? [];
    statements.forEach((statement, index) => {
      if (statement.Effect !== 'Allow') return;
      const actions = [statement.Action].flat().join(',');
      found.push({
        label: `${id} #${index}${statement.Sid ? ` ${statement.Sid}` : ''} (${actions.length > 60 ? `${actions.slice(0, 57)}...` : actions})`,
        drop: () => {
          const t = copy();
          (t.Resources[id]!.Properties![documentKey] as { Statement: unknown[] }).Statement.splice(index, 1);
          return t;
        },
      });
    });
  }
  return found;
}

/** The service principals a template names: trust policies, resource policies and Lambda permissions. */
function servicePrincipals(template: CloudFormationTemplate): Set<string> {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key === 'Service') for (const name of [item].flat()) found.add(String(name));
        else visit(item);
      }
    }
  };
  for (const resource of Object.values(template.Resources)) {
    visit(resource.Properties?.AssumeRolePolicyDocument);
    visit(resource.Properties?.PolicyDocument);
    if (resource.Type === 'AWS::Lambda::Permission') found.add(String(resource.Properties?.Principal));
  }
  return found;
}

describe.each(['notification', 'eventbridge', 'sqs'] as const)('the stack with s3Events=%s', (route) => {
  const template = templateFor(route);
  const model = modelOf(template);
  const edges = edgesOf(template, model, route);

  it('decides every edge as it must be: each allowed call allowed, each denial denied', async () => {
    const decided = await decideAll(model, edges);
    const wrong = edges
      .filter((edge, i) => decided[i] !== edge.allowed)
      .map((e) => `${e.name}: expected ${e.allowed ? 'allow' : 'deny'}`);
    expect(wrong).toEqual([]);
  });

  it("tells the files function the large-file machine's ARN as deployed (built from its fixed name, not a Ref)", () => {
    const files = [...model.functions.values()].find((f) => f.purpose === 'files')!;
    const env = (template.Resources[files.logicalId]!.Properties!.Environment as { Variables: Record<string, unknown> })
      .Variables;
    const largeFile = model.stateMachines.get(idOf(template, 'AWS::StepFunctions::StateMachine', 'LargeFile'))!;
    expect(env[LARGE_FILE_STATE_MACHINE_ENV]).not.toHaveProperty('Ref');
    expect(model.resolver.resolve(env[LARGE_FILE_STATE_MACHINE_ENV])).toBe(largeFile.arn);
    expect(largeFile.arn).toBe(`arn:aws:states:us-east-1:${LOCAL_ACCOUNT_ID}:stateMachine:Sudoku-large-file`);
  });

  it("gives the twin's batch-run key (LOCALBATCHRUN) the batch run's role, not the large-file machine's", () => {
    const run = model.stateMachines.get(idOf(template, 'AWS::StepFunctions::StateMachine', 'BatchStateMachine'))!;
    expect(callerFor(model, 'run')).toEqual({ role: run.role, session: 'sudoku-run' });
  });

  it('covers every role and every service principal of the template', () => {
    const roles = Object.entries(template.Resources)
      .filter(([, r]) => r.Type === 'AWS::IAM::Role')
      .map(([id]) => id);
    const rolesInEdges = new Set(
      edges.flatMap((e) => [
        'role' in e.caller ? e.caller.role : '',
        ...roles.filter((id) => e.action === 'sts:AssumeRole' && model.roles.get(id)!.arn === e.resource),
      ]),
    );
    expect(roles.filter((id) => !rolesInEdges.has(id))).toEqual([]);
    const services = new Set(edges.flatMap((e) => ('service' in e.caller ? [e.caller.service] : [])));
    expect([...servicePrincipals(template)].filter((s) => !services.has(s))).toEqual([]);
  });

  it('needs every Allow: dropping any one of them flips some edge from allowed to denied', async () => {
    const allowed = edges.filter((e) => e.allowed);
    const rows: { statement: string; flips: string }[] = [];
    for (const statement of allowStatements(template)) {
      const authorizer = new Authorizer(modelOf(statement.drop()));
      let flipped = '(nothing: the grant is not needed)';
      for (const edge of allowed) {
        if ((await authorizer.decide(edge)).decision !== 'Allowed') {
          flipped = edge.name;
          break;
        }
      }
      rows.push({ statement: statement.label, flips: flipped });
    }
    console.log(
      `s3Events=${route}: each Allow statement dropped in turn, and the first edge it denies\n${rows.map((r) => `  ${r.statement.padEnd(100)} -> ${r.flips}`).join('\n')}`,
    );
    expect(rows.filter((r) => r.flips.startsWith('(nothing'))).toEqual([]);
  });
});

describe('the two faults that broke the first deploy', () => {
  it('the files function may HEAD reports/ (the idempotency check), as AWS decides it', async () => {
    const template = templateFor('notification');
    const model = localPolicyModel(template, BUCKET);
    const files = [...model.functions.values()].find((f) => f.purpose === 'files')!;
    const decision = await new Authorizer(model).decide({
      caller: { role: files.role },
      action: 's3:GetObject',
      resource: `arn:aws:s3:::${BUCKET}/reports/a.txt.json`,
    });
    expect(decision.decision).toBe('Allowed');
  });

  it('CloudWatch may publish alarms to the topic whose policy enforces TLS', async () => {
    const template = templateFor('notification');
    const model = localPolicyModel(template, BUCKET);
    const r = model.resolver;
    const topic = r.arnOf(idOf(template, 'AWS::SNS::Topic', 'AlarmsTopic'));
    const alarm = r.arnOf(idOf(template, 'AWS::CloudWatch::Alarm', 'AlarmsApiServerErrors'));
    const decision = await new Authorizer(model).decide({
      caller: { service: 'cloudwatch.amazonaws.com' },
      action: 'sns:Publish',
      resource: topic,
      context: { 'aws:SourceArn': alarm, 'aws:SourceAccount': LOCAL_ACCOUNT_ID },
    });
    expect(decision.decision).toBe('Allowed');
  });
});
