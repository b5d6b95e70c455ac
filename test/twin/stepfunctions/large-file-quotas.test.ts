// Step Functions' data quota on the large-file state machine, as the twin runs its deployed
// definition: every state's input and output and a Distributed Map's gathered results at most
// SFN_MAX_STATE_BYTES, else States.DataLimitExceeded, which fails the execution past the machine's
// `States.ALL` catch (ReportFailure never runs). The steps here are answered in process without
// solving anything, so the machine can be driven at the range counts the planner really makes
// (a file of 10^9 rows, the service's largest promised input, and MAX_RANGES) in a second or two: what is measured is the
// machine's data, which the definition alone decides.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SFN_MAX_STATE_BYTES } from '../../../functions/contract/aws-quotas.js';
import {
  LARGE_FILE_STATES,
  type LargeFileEvent,
  type LargeFileJob,
  type RangeItem,
} from '../../../functions/contract/large-files.js';
import { solverThreadsForMemory } from '../../../functions/contract/service-layout.js';
import {
  type AslMachine,
  aslSubsetProblems,
  deployedLargeFileDefinition,
  stateMachineDefinitions,
} from '../../../twin/stepfunctions/asl-definition.js';
import { loadStackTemplate } from '../../../twin/iam/stack-template.js';
import { runLargeFileJob, type StepInvoker } from '../../../twin/stepfunctions/large-file-run.js';
import { deployedStackLimits } from '../../../twin/stack-limits.js';
import { MAX_RANGES, planRanges, rangeBytesFor, SHORTEST_ROW_BYTES } from '../../../functions/pipeline/range-plan.js';
import { clientFor, startTestS3, type TestS3 } from '../../helpers/local-s3.js';

let s3: TestS3;
let machine: ReturnType<typeof clientFor>;
beforeAll(async () => {
  s3 = await startTestS3();
  machine = clientFor(s3.server.endpoint, 'largeFile');
});
afterAll(async () => {
  machine?.destroy();
  await s3?.close();
});

/** A job of `ranges` ranges whose keys are as long as S3 allows (the job rides in every state). */
async function jobOf(ranges: number, name: string): Promise<LargeFileJob> {
  const long = `${name}/${'k'.repeat(1000 - name.length)}.txt`;
  const stagingPrefix = `staging/${name}/`;
  const manifestKey = `${stagingPrefix}manifest.json`;
  const items: RangeItem[] = Array.from({ length: ranges }, (_, index) => ({
    index,
    start: index * 82,
    end: index * 82 + 82,
  }));
  await s3.put(manifestKey, JSON.stringify(items));
  return {
    bucket: s3.bucket,
    sourceKey: `incoming/${long}`,
    eTag: 'e'.repeat(32),
    readKey: `incoming/${long}`,
    readETag: 'e'.repeat(32),
    size: ranges * 82,
    outputKey: `solved/${long}`,
    reportKey: `reports/${long}.json`,
    kind: { format: 'txt', gzip: false },
    grade: false,
    rangeBytes: 82,
    ranges,
    stagingPrefix,
    manifestKey,
    startedAt: new Date(0).toISOString(),
  };
}

/** Steps answered as the function answers them, without solving: what each step returns is all the machine sees. */
function answering(overrides: Partial<Record<LargeFileEvent['largeFile'], unknown>> = {}) {
  const calls: Record<LargeFileEvent['largeFile'], number> = { range: 0, finish: 0, fail: 0 };
  const invoke: StepInvoker = async (event) => {
    calls[event.largeFile]++;
    if (event.largeFile in overrides) return { ok: true, result: overrides[event.largeFile] };
    if (event.largeFile === 'range') return { ok: true, result: { index: event.range.index, rows: 1 } };
    if (event.largeFile === 'finish') return { ok: true, result: { outcome: 'solved' } };
    return { ok: true, result: null };
  };
  return { calls, invoke };
}

/** The deployed definition with each range child ending on its whole state, as on main before the fix. */
function childrenEndingWithTheirState(definition: AslMachine): AslMachine {
  const copy = structuredClone(definition);
  for (const state of Object.values(copy.States))
    for (const child of Object.values(state.ItemProcessor?.States ?? {}))
      if (child.Type === 'Succeed') delete child.OutputPath;
  return copy;
}

const run = (job: LargeFileJob, invoke: StepInvoker, definition?: AslMachine) =>
  runLargeFileJob(job, { client: machine, invoke, retryIntervalSeconds: 0, ...(definition ? { definition } : {}) });

describe('the large-file machine under Step Functions data quotas', () => {
  // The planner's conservative plan at the stack's settings is the most ranges a file of that size
  // gets (a sampled plan only makes ranges larger); 10^9 of the shortest rows is the largest input the docs promise (docs/twin.md).
  const files = deployedStackLimits().files;
  const plan = {
    timeoutSeconds: files.timeoutSeconds,
    threads: solverThreadsForMemory(files.memoryMb),
  };
  const billionRows = 1e9 * SHORTEST_ROW_BYTES;
  const txt = { format: 'txt', gzip: false } as const;
  const counts = {
    'a file of 10^9 rows, solved': planRanges(billionRows, rangeBytesFor(txt, false, plan)).ranges,
    'a file of 10^9 rows, graded': planRanges(billionRows, rangeBytesFor(txt, true, plan)).ranges,
    'MAX_RANGES, the most the planner makes': MAX_RANGES,
  };

  it.each(Object.entries(counts))(
    'drives %s (its planned range count) to the end: one finish, no failure',
    async (label, ranges) => {
      expect(ranges).toBeGreaterThan(label.includes('graded') ? 2_000 : 250);
      const { calls, invoke } = answering();
      const summary = await run(await jobOf(ranges, `plan-${ranges}`), invoke);
      expect(summary).toMatchObject({ status: 'SUCCEEDED', finish: { outcome: 'solved' } });
      expect(calls).toEqual({ range: ranges, finish: 1, fail: 0 });
    },
  );

  it("keeps a map's gathered results far under 256 KiB at MAX_RANGES: each child ends with {}", async () => {
    const definition = await deployedLargeFileDefinition();
    const gathered = JSON.stringify(Array.from({ length: MAX_RANGES }, () => ({})));
    expect(Buffer.byteLength(gathered)).toBeLessThan(SFN_MAX_STATE_BYTES / 8);
    for (const state of Object.values(definition.States))
      for (const child of Object.values(state.ItemProcessor?.States ?? {}))
        if (child.Type === 'Succeed') expect(child.OutputPath).toBeNull();
  });

  it('fails with States.DataLimitExceeded past the catch when children end with their whole state (main before the fix)', async () => {
    const definition = childrenEndingWithTheirState(await deployedLargeFileDefinition());
    const { calls, invoke } = answering();
    const summary = await run(await jobOf(2_000, 'whole-state'), invoke, definition);
    expect(summary).toMatchObject({ status: 'FAILED', error: { Error: 'States.DataLimitExceeded' } });
    expect(summary.error!.Cause).toMatch(/SolveRanges.*gathered/);
    // Uncatchable: no finish, and ReportFailure never told the function (no report, staging left).
    expect(calls).toMatchObject({ finish: 0, fail: 0 });
  });

  it('fails with States.DataLimitExceeded past the catch when a top-level task returns more than 256 KiB', async () => {
    const { calls, invoke } = answering({ finish: { outcome: 'solved', padding: 'x'.repeat(SFN_MAX_STATE_BYTES) } });
    const summary = await run(await jobOf(3, 'big-finish'), invoke);
    expect(summary).toMatchObject({ status: 'FAILED', error: { Error: 'States.DataLimitExceeded' } });
    expect(summary.error!.Cause).toMatch(/'Finish' returned a result/);
    expect(calls.fail).toBe(0);
  });

  it("fails only the child when a range's result passes 256 KiB: the map fails catchably and ReportFailure runs", async () => {
    const { calls, invoke } = answering({ range: { index: 0, rows: 1, padding: 'x'.repeat(SFN_MAX_STATE_BYTES) } });
    const summary = await run(await jobOf(3, 'big-range'), invoke);
    expect(summary).toMatchObject({ status: 'FAILED', error: { Error: 'States.ExceedToleratedFailureThreshold' } });
    expect(summary.error!.Cause).toMatch(/States\.DataLimitExceeded/);
    expect(calls.fail).toBe(1);
  });
});

describe("the twin's ASL subset", () => {
  it('covers the large-file machine as the stack deploys it (the batch run is played by batch-run.ts instead)', async () => {
    const definitions = stateMachineDefinitions(await loadStackTemplate());
    const largeFile = [...definitions.values()].find((d) => LARGE_FILE_STATES.solve in d.States)!;
    expect(aslSubsetProblems(largeFile)).toEqual([]);
  });

  it('refuses a definition using what it does not model, naming the state and field', async () => {
    const definition = structuredClone(await deployedLargeFileDefinition());
    definition.States.Finish!.Parameters = { 'job.$': 'States.JsonMerge($.job, $.finish, false)' };
    (definition.States.Solved as unknown as Record<string, unknown>).Assign = { x: 1 };
    expect(aslSubsetProblems(definition)).toEqual([
      'Finish.Parameters.job.$: path "States.JsonMerge($.job, $.finish, false)"',
      'Solved: Assign',
    ]);
  });
});
