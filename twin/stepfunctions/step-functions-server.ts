/**
 * The twin's Step Functions: the calls the function makes of the large-file state machine
 * (StartExecution, DescribeExecution; AWS JSON 1.0 protocol, as @aws-sdk/client-sfn sends them),
 * each decided against the synthesized policies like every S3 call. Execution names behave as AWS's
 * (sfn-executions.ts): unique per state machine whatever the earlier execution's status, kept after
 * it ends; the same name and input while it runs is that execution, any other use
 * ExecutionAlreadyExists. Each execution is run by the local large-file runner (large-file-run.ts);
 * with a data folder the executions outlive the twin and are resumed when it starts again there.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  FILES_TIMEOUT_ENV,
  LARGE_FILE_STATE_MACHINE_ENV,
  type LargeFileJob,
} from '../../functions/contract/large-files.js';
import { Authorizer, type Caller } from '../iam/decide.js';
import { callersByAccessKey, largeFileStateMachineArn } from '../iam/local-callers.js';
import type { PolicyModel } from '../iam/policy-model.js';
import { localPolicyModel } from '../iam/local-policies.js';
import { loadStackTemplate } from '../iam/stack-template.js';
import { localS3Client } from '../s3/local-s3-client.js';
import { SDK_ENDPOINT_ENV } from '../lambda/function-environment.js';
import { invokeFunction } from '../lambda/executions.js';
import { deployedLargeFileDefinition, mapMaxConcurrency } from './asl-definition.js';
import { type LargeFileRunSummary, runLargeFileJob, type StepInvoker } from './large-file-run.js';
import {
  type ExecutionRecord,
  ExecutionRecords,
  type ExecutionStatus,
  invalidExecutionName,
} from './sfn-executions.js';

export interface LocalStepFunctionsOptions {
  model: PolicyModel;
  /** The large-file state machine's S3 client (its role reads the manifests). */
  client: S3Client;
  /** One step of a job: by default an execution of its own, ended at `timeoutMs`. */
  invoke?: StepInvoker;
  timeoutMs: number;
  /** Ranges in flight at once (default: the stack's, at most one per CPU here). */
  maxConcurrency?: number;
  retryIntervalSeconds?: number;
  port?: number;
  /** Where the executions are kept (none: in memory only); executions running there when the twin stopped are resumed. */
  dataDirectory?: string;
  /** The clock names are kept by (tests move it past the retention). */
  now?: () => number;
  /** Told when an execution ends. */
  onExecutionDone?: (name: string, summary: LargeFileRunSummary) => void;
}

/** An execution as the twin runs it: its record, and its run in this process (once started or resumed here). */
export interface LocalExecution {
  input: string;
  done: Promise<LargeFileRunSummary>;
  summary?: LargeFileRunSummary;
  readonly status: ExecutionStatus;
}

export interface LocalStepFunctions {
  endpoint: string;
  stateMachineArn: string;
  /** Executions run by this twin, by name: their input and how they ended (once they have). */
  executions: Map<string, LocalExecution>;
  /**
   * Test-only, in place of StopExecution and of the machine's 7-day timeout: ends a running
   * execution as ABORTED or TIMED_OUT at once (as AWS does, no further state runs, the fail step
   * neither; a step already running finishes on its own).
   */
  stop(name: string, status: 'ABORTED' | 'TIMED_OUT'): boolean;
  /** Resolves once every execution started so far has ended. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** A step in an execution of its own, as Step Functions sees a Lambda task end. */
export function workerInvoker(timeoutMs: number): StepInvoker {
  return async (event) => {
    const invocation = await invokeFunction(event, { timeoutMs, env: { SOLVER_THREADS: '1' } });
    if (invocation.ok) return { ok: true, result: invocation.result };
    return {
      ok: false,
      error: invocation.errorType,
      cause: JSON.stringify({ errorType: invocation.errorType, errorMessage: invocation.errorMessage }),
    };
  };
}

function accessKeyOf(request: IncomingMessage): string | undefined {
  return /Credential=([^/,\s]+)/.exec(String(request.headers.authorization ?? ''))?.[1];
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
  response.end(JSON.stringify(body));
}

function fault(response: ServerResponse, status: number, type: string, message: string): void {
  response.setHeader('x-amzn-errortype', type);
  answer(response, status, { __type: type, message });
}

type Answer = { status: 200; body: unknown } | { status: 400; type: string; message: string };

const OPERATIONS = ['StartExecution', 'DescribeExecution'] as const;
type Operation = (typeof OPERATIONS)[number];

/** The action IAM decides a call by, and the resource it names. */
function authorizationOf(operation: Operation, request: Record<string, unknown>) {
  return operation === 'StartExecution'
    ? { action: 'states:StartExecution', resource: String(request.stateMachineArn ?? '') }
    : { action: 'states:DescribeExecution', resource: String(request.executionArn ?? '') };
}

/** Epoch seconds with a fraction, as the JSON protocol carries timestamps. */
const seconds = (ms: number): number => ms / 1000;

export async function startLocalStepFunctions(options: LocalStepFunctionsOptions): Promise<LocalStepFunctions> {
  const authorizer = new Authorizer(options.model);
  const callers = callersByAccessKey(options.model);
  const stateMachineArn = largeFileStateMachineArn(options.model);
  const executionPrefix = `${stateMachineArn.replace(':stateMachine:', ':execution:')}:`;
  const invoke = options.invoke ?? workerInvoker(options.timeoutMs);
  // The deployed map's width (the template's MaxConcurrency), at most one range per CPU here.
  const maxConcurrency =
    options.maxConcurrency ??
    Math.min(
      mapMaxConcurrency(await deployedLargeFileDefinition()) ?? Number.POSITIVE_INFINITY,
      availableParallelism(),
    );
  const now = options.now ?? Date.now;
  const records = new ExecutionRecords(options.dataDirectory, now);
  const executions: LocalStepFunctions['executions'] = new Map();
  const stops = new Map<string, AbortController>();

  /** Runs (or, after a restart, runs again from its start) an execution already recorded as RUNNING. */
  const run = (record: ExecutionRecord): void => {
    const { job } = JSON.parse(record.input) as { job: LargeFileJob };
    const stop = new AbortController();
    stops.set(record.name, stop);
    const done = runLargeFileJob(job, {
      client: options.client,
      invoke,
      maxConcurrency,
      signal: stop.signal,
      ...(options.retryIntervalSeconds === undefined ? {} : { retryIntervalSeconds: options.retryIntervalSeconds }),
    });
    const entry: LocalExecution = {
      input: record.input,
      done,
      get status() {
        return records.get(record.name)?.status ?? 'RUNNING';
      },
    };
    executions.set(record.name, entry);
    void done.then((summary) => {
      entry.summary = summary;
      stops.delete(record.name);
      // A stopped execution's end was recorded when it was stopped; the run's own end is then ignored.
      records.end(
        record.name,
        summary.status,
        summary.error ? { error: summary.error.Error, cause: summary.error.Cause } : undefined,
      );
      options.onExecutionDone?.(record.name, summary);
    });
  };

  const startExecution = (request: { stateMachineArn?: string; name?: string; input?: string }): Answer => {
    if (request.stateMachineArn !== stateMachineArn)
      return {
        status: 400,
        type: 'StateMachineDoesNotExist',
        message: `State Machine Does Not Exist: '${request.stateMachineArn}'`,
      };
    const name = request.name ?? crypto.randomUUID();
    const invalid = invalidExecutionName(name);
    if (invalid) return { status: 400, type: 'InvalidName', message: invalid };
    const input = request.input ?? '{}';
    const executionArn = `${executionPrefix}${name}`;
    const existing = records.get(name);
    if (existing) {
      // As AWS: the same name and input while it runs is the same execution; otherwise the name is taken.
      if (existing.input === input && existing.status === 'RUNNING')
        return { status: 200, body: { executionArn, startDate: seconds(existing.startDate) } };
      return { status: 400, type: 'ExecutionAlreadyExists', message: `Execution Already Exists: '${executionArn}'` };
    }
    const record: ExecutionRecord = { name, executionArn, input, status: 'RUNNING', startDate: now() };
    records.put(record);
    run(record);
    return { status: 200, body: { executionArn, startDate: seconds(record.startDate) } };
  };

  const describeExecution = (request: { executionArn?: string }): Answer => {
    const arn = request.executionArn ?? '';
    const record = arn.startsWith(executionPrefix) ? records.get(arn.slice(executionPrefix.length)) : undefined;
    if (!record) return { status: 400, type: 'ExecutionDoesNotExist', message: `Execution Does Not Exist: '${arn}'` };
    const summary = executions.get(record.name)?.summary;
    return {
      status: 200,
      body: {
        executionArn: record.executionArn,
        stateMachineArn,
        name: record.name,
        status: record.status,
        startDate: seconds(record.startDate),
        ...(record.stopDate === undefined ? {} : { stopDate: seconds(record.stopDate) }),
        input: record.input,
        inputDetails: { included: true },
        ...(record.status === 'SUCCEEDED'
          ? { output: JSON.stringify({ finish: summary?.finish ?? {} }), outputDetails: { included: true } }
          : {}),
        ...(record.error === undefined ? {} : { error: record.error }),
        ...(record.cause === undefined ? {} : { cause: record.cause }),
        redriveCount: 0,
        redriveStatus: 'NOT_REDRIVABLE',
      },
    };
  };

  const call = async (caller: Caller, operation: Operation, request: Record<string, unknown>): Promise<Answer> => {
    const { action, resource } = authorizationOf(operation, request);
    const decision = await authorizer.decide({ caller, action, resource });
    if (decision.decision !== 'Allowed')
      return {
        status: 400,
        type: 'AccessDeniedException',
        message: `User: ${decision.principal} is not authorized to perform: ${action} on resource: ${resource} ${decision.reason ?? `because no identity-based policy allows the ${action} action`}`,
      };
    return operation === 'StartExecution' ? startExecution(request) : describeExecution(request);
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const target = String(request.headers['x-amz-target'] ?? '');
        const key = accessKeyOf(request);
        const caller = key === undefined ? undefined : callers.get(key);
        if (!caller)
          return fault(
            response,
            400,
            'UnrecognizedClientException',
            'The security token included in the request is invalid.',
          );
        const operation = OPERATIONS.find((name) => target === `AWSStepFunctions.${name}`);
        if (!operation)
          return fault(
            response,
            400,
            'UnknownOperationException',
            `The twin's Step Functions answers ${OPERATIONS.join(' and ')} only, not ${target}`,
          );
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as typeof body;
        } catch {
          return fault(response, 400, 'SerializationException', 'The request body is not JSON');
        }
        const result = await call(caller, operation, body);
        if (result.status === 200) return answer(response, 200, result.body);
        return fault(response, result.status, result.type, result.message);
      })().catch((error: unknown) => fault(response, 500, 'InternalFailure', String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  // Started again on the folder of a twin that stopped mid-run: each execution it left running runs
  // again from its start (a range writes its staging objects whole, so solving one again is safe).
  for (const record of records.running()) run(record);
  return {
    endpoint,
    stateMachineArn,
    executions,
    stop: (name, status) => {
      const ended = records.end(name, status, {
        error: status === 'TIMED_OUT' ? 'States.Timeout' : 'States.Aborted',
        cause: status === 'TIMED_OUT' ? 'The execution ran past its timeout' : 'The execution was stopped',
      });
      if (ended) stops.get(name)?.abort();
      return ended;
    },
    idle: async () => {
      for (;;) {
        const open = [...executions.values()].filter((e) => !e.summary);
        if (open.length === 0) return;
        await Promise.all(open.map((e) => e.done));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Where the twin keeps its executions beside a local S3's data folder (not in it: s3rver would list a folder there as a bucket). */
export function executionsDirectoryFor(s3Directory: string): string {
  return `${s3Directory.replace(/[\\/]+$/, '')}-executions`;
}

/** Points the function's Step Functions client at the twin, with the state machine's ARN. */
export function useLocalStepFunctions(
  env: NodeJS.ProcessEnv,
  sfn: Pick<LocalStepFunctions, 'endpoint' | 'stateMachineArn'>,
  timeoutMs: number,
): void {
  env[SDK_ENDPOINT_ENV.sfn] = sfn.endpoint;
  env[LARGE_FILE_STATE_MACHINE_ENV] = sfn.stateMachineArn;
  // The timeout the function plans its ranges by: the one the twin ends its executions at.
  env[FILES_TIMEOUT_ENV] = String(timeoutMs / 1000);
}

/** The twin's Step Functions for a local S3 at `endpoint`: the stack's policies, the large-file machine's role. */
export async function startStackStepFunctions(
  endpoint: string,
  bucket: string,
  timeoutMs: number,
  overrides: Partial<LocalStepFunctionsOptions> = {},
): Promise<LocalStepFunctions> {
  const model = localPolicyModel(await loadStackTemplate(), bucket);
  const client = localS3Client(endpoint, 'largeFile');
  const sfn = await startLocalStepFunctions({ model, client, timeoutMs, ...overrides });
  return {
    ...sfn,
    close: async () => {
      await sfn.close();
      client.destroy();
    },
  };
}
