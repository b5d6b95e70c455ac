// The twin's Step Functions keeps execution names as AWS does: a name is taken by its execution
// whatever that execution's status, and stays taken for SFN_EXECUTION_NAME_RETENTION_DAYS after it
// ends; the same name and input while it runs is that execution. DescribeExecution answers each
// status, decided by the synthesized policies like StartExecution.
import {
  DescribeExecutionCommand,
  type DescribeExecutionCommandOutput,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SFN_EXECUTION_NAME_RETENTION_DAYS,
  SFN_MAX_EXECUTION_NAME_CHARS,
} from '../../../functions/contract/aws-quotas.js';
import type { LargeFileJob } from '../../../functions/contract/large-files.js';
import { localCredentials } from '../../../twin/iam/local-account.js';
import type { StepOutcome } from '../../../twin/stepfunctions/large-file-run.js';
import { type LocalStepFunctions, startStackStepFunctions } from '../../../twin/stepfunctions/step-functions-server.js';
import { startTestS3, type TestS3 } from '../../helpers/local-s3.js';

const DAY_MS = 24 * 60 * 60 * 1000;

let s3: TestS3;
let sfn: LocalStepFunctions;
let files: SFNClient;
let clock = Date.now();
/** How each job's one range ends, by the job's source key: a step the test releases, or a failure. */
const ranges = new Map<string, Promise<StepOutcome>>();

beforeAll(async () => {
  s3 = await startTestS3();
  await s3.admin.send(
    new PutObjectCommand({
      Bucket: s3.bucket,
      Key: 'staging/names/ranges.json',
      Body: JSON.stringify([{ index: 0, start: 0, end: 1 }]),
    }),
  );
  sfn = await startStackStepFunctions(s3.server.endpoint, s3.bucket, 5000, {
    retryIntervalSeconds: 0,
    now: () => clock,
    // The steps of a job, played by the test: a range as the map below says, every other step done at once.
    invoke: async (event) =>
      event.largeFile === 'range'
        ? (ranges.get(event.job.sourceKey) ?? Promise.resolve({ ok: true, result: { index: 0, rows: 1 } }))
        : { ok: true, result: {} },
  });
  files = clientAs('files');
});
afterAll(async () => {
  files?.destroy();
  await sfn?.close();
  await s3?.close();
});

function clientAs(caller: 'files' | 'api'): SFNClient {
  return new SFNClient({ endpoint: sfn.endpoint, region: 'us-east-1', credentials: localCredentials(caller) });
}

/** An input the runner can run: one range of a manifest under staging/. */
function inputFor(sourceKey: string): string {
  const job = { bucket: s3.bucket, sourceKey, manifestKey: 'staging/names/ranges.json' } as LargeFileJob;
  return JSON.stringify({ job });
}

function start(name: string, input = inputFor(name), client = files) {
  return client.send(new StartExecutionCommand({ stateMachineArn: sfn.stateMachineArn, name, input }));
}

function describeRun(name: string, client = files): Promise<DescribeExecutionCommandOutput> {
  const executionArn = `${sfn.stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
  return client.send(new DescribeExecutionCommand({ executionArn }));
}

/** A range that waits for the test: the execution stays RUNNING until `release`. */
function heldRange(sourceKey: string): { release(outcome: StepOutcome): void } {
  let release!: (outcome: StepOutcome) => void;
  ranges.set(sourceKey, new Promise((resolve) => (release = resolve)));
  return { release };
}

const failing: StepOutcome = { ok: false, error: 'S3ServiceException', cause: '{"errorMessage":"SlowDown"}' };

describe("the twin's execution names", () => {
  it('are taken whatever the earlier execution ended as: ExecutionAlreadyExists for any input', async () => {
    ranges.set('file-failed', Promise.resolve(failing));
    heldRange('file-aborted');
    heldRange('file-timed-out');
    for (const name of ['file-succeeded', 'file-failed', 'file-aborted', 'file-timed-out']) await start(name);
    expect(sfn.stop('file-aborted', 'ABORTED')).toBe(true);
    expect(sfn.stop('file-timed-out', 'TIMED_OUT')).toBe(true);
    await Promise.all(['file-succeeded', 'file-failed'].map((name) => sfn.executions.get(name)!.done));
    for (const name of ['file-succeeded', 'file-failed', 'file-aborted', 'file-timed-out']) {
      await expect(start(name), name).rejects.toMatchObject({ name: 'ExecutionAlreadyExists' });
      await expect(start(name, inputFor('another')), name).rejects.toMatchObject({ name: 'ExecutionAlreadyExists' });
    }
  });

  it('answer a second start with the same name and input while it runs with that execution; another input is refused', async () => {
    const held = heldRange('file-running');
    const first = await start('file-running');
    const again = await start('file-running');
    expect(again.executionArn).toBe(first.executionArn);
    expect(again.startDate).toEqual(first.startDate);
    await expect(start('file-running', inputFor('other'))).rejects.toMatchObject({ name: 'ExecutionAlreadyExists' });
    expect(sfn.executions.size).toBe(5);
    held.release({ ok: true, result: { index: 0, rows: 1 } });
    await sfn.executions.get('file-running')!.done;
  });

  it(`are refused past ${SFN_MAX_EXECUTION_NAME_CHARS} characters or with a character AWS refuses`, async () => {
    await expect(start('n'.repeat(SFN_MAX_EXECUTION_NAME_CHARS + 1))).rejects.toMatchObject({ name: 'InvalidName' });
    await expect(start('a:b')).rejects.toMatchObject({ name: 'InvalidName' });
    await expect(start('a b')).rejects.toMatchObject({ name: 'InvalidName' });
  });
});

describe("the twin's DescribeExecution", () => {
  it('answers RUNNING, SUCCEEDED, FAILED, TIMED_OUT and ABORTED with the fields the SDK reads', async () => {
    const held = heldRange('file-described');
    await start('file-described');
    const running = await describeRun('file-described');
    expect(running).toMatchObject({ status: 'RUNNING', name: 'file-described', stateMachineArn: sfn.stateMachineArn });
    expect(running.startDate).toBeInstanceOf(Date);
    expect(running.stopDate).toBeUndefined();
    expect(JSON.parse(running.input!)).toMatchObject({ job: { sourceKey: 'file-described' } });
    held.release({ ok: true, result: { index: 0, rows: 1 } });
    await sfn.executions.get('file-described')!.done;
    const succeeded = await describeRun('file-described');
    expect(succeeded.status).toBe('SUCCEEDED');
    expect(succeeded.stopDate!.getTime()).toBeGreaterThanOrEqual(succeeded.startDate!.getTime());
    expect(await describeRun('file-failed')).toMatchObject({
      status: 'FAILED',
      error: 'States.ExceedToleratedFailureThreshold',
      cause: expect.stringContaining('SlowDown'),
    });
    expect(await describeRun('file-timed-out')).toMatchObject({ status: 'TIMED_OUT', error: 'States.Timeout' });
    expect(await describeRun('file-aborted')).toMatchObject({ status: 'ABORTED', error: 'States.Aborted' });
    await expect(describeRun('file-never-started')).rejects.toMatchObject({ name: 'ExecutionDoesNotExist' });
  });

  it("is decided by the policies: a role without states:DescribeExecution (the API function's) is denied", async () => {
    const api = clientAs('api');
    try {
      await expect(describeRun('file-described', api)).rejects.toMatchObject({
        name: 'AccessDeniedException',
        message: expect.stringContaining('states:DescribeExecution'),
      });
    } finally {
      api.destroy();
    }
  });

  it('lets the files function describe only the runs it names (file-*), not other executions of the machine', async () => {
    await start('manual-run');
    await sfn.executions.get('manual-run')!.done;
    await expect(describeRun('manual-run')).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(describeRun('file-0123-1')).rejects.toMatchObject({ name: 'ExecutionDoesNotExist' });
  });
});

// Last: it moves the clock past every name's retention.
describe("the twin's execution names, months later", () => {
  it(`are free again ${SFN_EXECUTION_NAME_RETENTION_DAYS} days after their execution ended, not before`, async () => {
    await start('file-kept');
    await sfn.executions.get('file-kept')!.done;
    clock += (SFN_EXECUTION_NAME_RETENTION_DAYS - 1) * DAY_MS;
    await expect(start('file-kept')).rejects.toMatchObject({ name: 'ExecutionAlreadyExists' });
    clock += 2 * DAY_MS;
    await expect(describeRun('file-kept')).rejects.toMatchObject({ name: 'ExecutionDoesNotExist' });
    await expect(start('file-kept')).resolves.toMatchObject({ executionArn: expect.stringMatching(/:file-kept$/) });
    await sfn.executions.get('file-kept')!.done;
  });
});
