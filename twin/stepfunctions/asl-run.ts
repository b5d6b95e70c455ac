/**
 * A state machine run as its deployed definition says (asl-definition.ts reads it, asl-data.ts
 * moves its data): each state's Parameters, ResultPath and OutputPath, its Retry and Catch rules,
 * Choice rules, a Distributed Map's ItemReader, ItemSelector and item processor (each item a child
 * run), and Step Functions' data quota on every state's input and output and on a Map's gathered
 * results. What the twin adds: who answers a Lambda task (`invoke`) and where a manifest is read.
 *
 * Errors as AWS treats them: `States.DataLimitExceeded` and `States.Runtime` are terminal (no Retry,
 * no `States.ALL` Catch); a child run that fails is an item failure, which fails its Map with
 * `States.ExceedToleratedFailureThreshold` (a catchable error) past the tolerated percentage.
 * Retries wait IntervalSeconds x BackoffRate^n capped by MaxDelaySeconds, without the jitter
 * (a wait drawn at random would only make the twin's runs harder to reproduce).
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { setTimeout as delay } from 'node:timers/promises';
import { ServiceError } from '../../functions/contract/service-error.js';
import { forEachBounded } from '../../functions/pipeline/concurrency.js';
import { readJson } from '../../functions/pipeline/object-versions.js';
import {
  applyPath,
  applyResultPath,
  applyTemplate,
  checkStateData,
  DataLimitExceeded,
  PathNotFound,
  type StateContext,
  select,
  selectOptional,
} from './asl-data.js';
import type { AslMachine, AslState, ChoiceRule, Retrier } from './asl-definition.js';

/** A state (or run) that failed, as Step Functions names it: its error and cause. */
export class StateFailed extends ServiceError<'STATE_FAILED'> {
  override readonly name = 'StateFailed';
  constructor(
    readonly error: string,
    readonly detail: string,
  ) {
    super('STATE_FAILED', `${error}: ${detail}`);
  }
}

/** The errors no Retry and no `States.ALL` Catch handles. */
const TERMINAL = new Set(['States.DataLimitExceeded', 'States.Runtime']);

const matches = (errorEquals: string[], error: string): boolean =>
  errorEquals.includes(error) || (errorEquals.includes('States.ALL') && !TERMINAL.has(error));

function asFailure(error: unknown): StateFailed {
  if (error instanceof StateFailed) return error;
  if (error instanceof DataLimitExceeded || error instanceof PathNotFound)
    return new StateFailed(error.error, error.message);
  return new StateFailed('States.Runtime', error instanceof Error ? error.message : String(error));
}

export interface AslRunOptions {
  /** Answers a Lambda task: its result, or its error's name and cause. */
  invoke: (payload: unknown) => Promise<{ ok: true; result: unknown } | { ok: false; error: string; cause: string }>;
  /** The state machine's client and the bucket its item readers read (the twin's bucket for the template's). */
  client: S3Client;
  bucket: string;
  /** A Map's children in flight at once (default: its MaxConcurrency). */
  maxConcurrency?: number;
  /** Every retrier's IntervalSeconds replaced, its MaxDelaySeconds scaled alike (tests wait 0). */
  retryIntervalSeconds?: number;
  /** Told each retry, and each Map's item count as it starts. */
  onRetry?: () => void;
  onMap?: (state: string, items: number) => void;
  /** Aborted when the execution is stopped (aborted, timed out): no state or retry starts after it, and no Catch sees it. */
  signal?: AbortSignal;
}

function evaluate(rule: ChoiceRule, input: unknown): boolean {
  if (rule.And) return rule.And.every((r) => evaluate(r, input));
  if (rule.Or) return rule.Or.some((r) => evaluate(r, input));
  if (rule.Not) return !evaluate(rule.Not, input);
  const value = selectOptional(input, rule.Variable!);
  if (rule.IsPresent !== undefined) return (value !== undefined) === rule.IsPresent;
  if (rule.StringEquals !== undefined) return value === rule.StringEquals;
  throw new StateFailed('States.Runtime', `a Choice rule the twin does not model: ${JSON.stringify(rule)}`);
}

export class AslRun {
  constructor(private readonly options: AslRunOptions) {}

  /** Runs `machine` from its StartAt to a Succeed or End (its output), or throws the StateFailed that ended it. */
  async run(machine: AslMachine, input: unknown): Promise<unknown> {
    let name = machine.StartAt;
    let data = input;
    for (;;) {
      this.throwIfStopped();
      const state = machine.States[name]!;
      checkStateData(name, 'has an input', data);
      let step: { output: unknown; next?: string | undefined };
      try {
        step = await this.state(name, state, data);
      } catch (error) {
        const failure = asFailure(error);
        if (this.options.signal?.aborted) throw failure;
        const catcher = state.Catch?.find((c) => matches(c.ErrorEquals, failure.error));
        if (!catcher) throw failure;
        step = {
          output: applyResultPath(data, { Error: failure.error, Cause: failure.detail }, catcher.ResultPath),
          next: catcher.Next,
        };
      }
      checkStateData(name, 'has an output', step.output);
      if (step.next === undefined) return step.output;
      name = step.next;
      data = step.output;
    }
  }

  private throwIfStopped(): void {
    if (this.options.signal?.aborted) throw new StateFailed('States.Stopped', 'the execution was stopped');
  }

  private async state(
    name: string,
    state: AslState,
    data: unknown,
  ): Promise<{ output: unknown; next?: string | undefined }> {
    const input = applyPath(data, state.InputPath);
    const finish = (result: unknown) =>
      applyPath(
        applyResultPath(
          data,
          state.ResultSelector === undefined ? result : applyTemplate(state.ResultSelector, result),
          state.ResultPath,
        ),
        state.OutputPath,
      );
    const next = state.End ? undefined : state.Next;
    switch (state.Type) {
      case 'Succeed':
        return { output: applyPath(input, state.OutputPath) };
      case 'Fail':
        throw new StateFailed(
          state.Error ?? String(select(data, state.ErrorPath!)),
          state.Cause ?? String(select(data, state.CausePath!)),
        );
      case 'Choice': {
        const rule = state.Choices!.find((r) => evaluate(r, input));
        const target = rule?.Next ?? state.Default;
        if (target === undefined)
          throw new StateFailed('States.NoChoiceMatched', `no Choice rule of '${name}' matched`);
        return { output: applyPath(input, state.OutputPath), next: target };
      }
      case 'Pass':
        return {
          output: finish(
            state.Result ?? (state.Parameters === undefined ? input : applyTemplate(state.Parameters, input)),
          ),
          next,
        };
      case 'Task': {
        const payload = state.Parameters === undefined ? input : applyTemplate(state.Parameters, input);
        checkStateData(name, 'has an input after Parameters', payload);
        const result = await this.retrying(state.Retry ?? [], async () => {
          const outcome = await this.options.invoke(payload);
          if (!outcome.ok) throw new StateFailed(outcome.error, outcome.cause);
          return outcome.result;
        });
        checkStateData(name, 'returned a result', result);
        return { output: finish(result), next };
      }
      case 'Map':
        return { output: finish(await this.map(name, state, input)), next };
    }
  }

  private async retrying(retriers: Retrier[], attempt: () => Promise<unknown>): Promise<unknown> {
    const used = new Map<Retrier, number>();
    for (;;) {
      this.throwIfStopped();
      try {
        return await attempt();
      } catch (error) {
        const failure = asFailure(error);
        const retrier = retriers.find((r) => matches(r.ErrorEquals, failure.error));
        const n = retrier ? (used.get(retrier) ?? 0) : 0;
        if (!retrier || n >= (retrier.MaxAttempts ?? 3)) throw failure;
        used.set(retrier, n + 1);
        this.options.onRetry?.();
        // A test's shorter interval shortens the cap with it, so a long throttling retrier (2 s up to
        // 5 minutes, many attempts) keeps its shape at the test's scale instead of reaching minutes.
        const interval = retrier.IntervalSeconds ?? 1;
        const scale =
          this.options.retryIntervalSeconds === undefined ? 1 : this.options.retryIntervalSeconds / interval;
        const wait = Math.min(interval * (retrier.BackoffRate ?? 2) ** n, retrier.MaxDelaySeconds ?? Infinity);
        await delay(wait * scale * 1000);
      }
    }
  }

  /** A Distributed Map without a ResultWriter: every child's output gathered, in item order. */
  private async map(name: string, state: AslState, input: unknown): Promise<unknown[]> {
    const { Key } = applyTemplate(state.ItemReader!.Parameters, input) as { Key: string };
    let items: unknown[];
    try {
      items = await readJson<unknown[]>(this.options.client, this.options.bucket, Key);
    } catch (error) {
      throw new StateFailed('States.ItemReaderFailed', `reading s3://${this.options.bucket}/${Key}: ${String(error)}`);
    }
    this.options.onMap?.(state.Label ?? name, items.length);
    const results: unknown[] = new Array(items.length);
    const tolerated = Math.floor((items.length * (state.ToleratedFailurePercentage ?? 0)) / 100);
    let failed = 0;
    const limit = this.options.maxConcurrency ?? state.MaxConcurrency ?? 1000;
    await forEachBounded(
      items.map((value, index) => ({ value, index })),
      limit,
      async ({ value, index }) => {
        const context: StateContext = { Map: { Item: { Index: index, Value: value } } };
        try {
          const childInput =
            state.ItemSelector === undefined ? value : applyTemplate(state.ItemSelector, input, context);
          checkStateData(`${name} child ${index}`, 'has an execution input', childInput);
          results[index] = await this.run(state.ItemProcessor!, childInput);
        } catch (error) {
          // As AWS: the child's error stays in its own history; the map fails with its own.
          const child = asFailure(error);
          if (++failed > tolerated)
            throw new StateFailed(
              'States.ExceedToleratedFailureThreshold',
              `The specified tolerated failure threshold was exceeded (item ${index} failed: ${child.error}: ${child.detail})`,
            );
          results[index] = null;
        }
      },
    );
    // Without a ResultWriter the children's outputs are gathered BEFORE ResultPath applies
    // (aws-cdk#24799): a ResultPath of null discards them, but only after they were held here.
    checkStateData(name, 'gathered the results of its child executions', results);
    return results;
  }
}
