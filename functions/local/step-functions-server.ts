/**
 * The twin's Step Functions: the one call the function makes (StartExecution of the large-file
 * state machine, AWS JSON 1.0 protocol, as @aws-sdk/client-sfn sends it), decided against the
 * synthesized policies like every S3 call, idempotent by execution name as AWS is, and each
 * execution run by the local large-file runner (large-file-run.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  FILES_TIMEOUT_ENV,
  LARGE_FILE_DEFAULTS,
  LARGE_FILE_STATE_MACHINE_ENV,
  LOCAL_SFN_ENDPOINT_ENV,
  type LargeFileJob,
} from '../contract/large-files.js';
import { Authorizer, type Caller } from './iam/decide.js';
import { callersByAccessKey, largeFileStateMachineArn } from './iam/local-callers.js';
import type { PolicyModel } from './iam/policy-model.js';
import { localPolicyModel } from './iam/local-policies.js';
import { loadStackTemplate } from './iam/stack-template.js';
import { localCredentials } from './iam/local-account.js';
import { createS3Client } from '../pipeline/s3-client.js';
import { invokeFunction } from './executions.js';
import { type LargeFileRunSummary, runLargeFileJob, type StepInvoker } from './large-file-run.js';

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
  /** Told when an execution ends. */
  onExecutionDone?: (name: string, summary: LargeFileRunSummary) => void;
}

export interface LocalStepFunctions {
  endpoint: string;
  stateMachineArn: string;
  /** Executions by name: their input and how they ended (once they have). */
  executions: Map<string, { input: string; done: Promise<LargeFileRunSummary>; summary?: LargeFileRunSummary }>;
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

export async function startLocalStepFunctions(options: LocalStepFunctionsOptions): Promise<LocalStepFunctions> {
  const authorizer = new Authorizer(options.model);
  const callers = callersByAccessKey(options.model);
  const stateMachineArn = largeFileStateMachineArn(options.model);
  const invoke = options.invoke ?? workerInvoker(options.timeoutMs);
  const maxConcurrency = options.maxConcurrency ?? Math.min(LARGE_FILE_DEFAULTS.maxConcurrency, availableParallelism());
  const executions: LocalStepFunctions['executions'] = new Map();

  const startExecution = async (
    caller: Caller,
    request: { stateMachineArn?: string; name?: string; input?: string },
  ) => {
    const decision = await authorizer.decide({
      caller,
      action: 'states:StartExecution',
      resource: request.stateMachineArn ?? '',
    });
    if (decision.decision !== 'Allowed')
      return {
        status: 400,
        type: 'AccessDeniedException',
        message: `User: ${decision.principal} is not authorized to perform: states:StartExecution on resource: ${request.stateMachineArn} ${decision.reason ?? 'because no identity-based policy allows the states:StartExecution action'}`,
      };
    if (request.stateMachineArn !== stateMachineArn)
      return {
        status: 400,
        type: 'StateMachineDoesNotExist',
        message: `State Machine Does Not Exist: '${request.stateMachineArn}'`,
      };
    const name = request.name ?? crypto.randomUUID();
    const input = request.input ?? '{}';
    const executionArn = `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
    const existing = executions.get(name);
    if (existing) {
      // As AWS: the same name and input while it runs is the same execution; otherwise the name is taken.
      if (existing.input === input && !existing.summary)
        return { status: 200, body: { executionArn, startDate: Date.now() / 1000 } };
      return { status: 400, type: 'ExecutionAlreadyExists', message: `Execution Already Exists: '${executionArn}'` };
    }
    const { job } = JSON.parse(input) as { job: LargeFileJob };
    const done = runLargeFileJob(job, {
      client: options.client,
      invoke,
      maxConcurrency,
      ...(options.retryIntervalSeconds === undefined ? {} : { retryIntervalSeconds: options.retryIntervalSeconds }),
    });
    const entry: { input: string; done: Promise<LargeFileRunSummary>; summary?: LargeFileRunSummary } = { input, done };
    executions.set(name, entry);
    void done.then((summary) => {
      entry.summary = summary;
      options.onExecutionDone?.(name, summary);
    });
    return { status: 200, body: { executionArn, startDate: Date.now() / 1000 } };
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
        if (target !== 'AWSStepFunctions.StartExecution')
          return fault(
            response,
            400,
            'UnknownOperationException',
            `The twin's Step Functions answers StartExecution only, not ${target}`,
          );
        let body: { stateMachineArn?: string; name?: string; input?: string };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as typeof body;
        } catch {
          return fault(response, 400, 'SerializationException', 'The request body is not JSON');
        }
        const result = await startExecution(caller, body);
        if (result.status === 200) return answer(response, 200, result.body);
        return fault(response, result.status, result.type!, result.message!);
      })().catch((error: unknown) => fault(response, 500, 'InternalFailure', String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    stateMachineArn,
    executions,
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

/** Points the function's Step Functions client at the twin, with the state machine's ARN. */
export function useLocalStepFunctions(
  env: NodeJS.ProcessEnv,
  sfn: Pick<LocalStepFunctions, 'endpoint' | 'stateMachineArn'>,
  timeoutMs: number,
): void {
  env[LOCAL_SFN_ENDPOINT_ENV] = sfn.endpoint;
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
  const client = createS3Client({ endpoint, region: 'us-east-1', ...localCredentials('largeFile') });
  const sfn = await startLocalStepFunctions({ model, client, timeoutMs, ...overrides });
  return {
    ...sfn,
    close: async () => {
      await sfn.close();
      client.destroy();
    },
  };
}
