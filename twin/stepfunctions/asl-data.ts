/**
 * How data flows through a state as the Amazon States Language says (InputPath, Parameters or
 * ItemSelector, ResultSelector, ResultPath, OutputPath), for the subset of paths the stack's state
 * machines use, and Step Functions' quota on what each state holds: SFN_MAX_STATE_BYTES of UTF-8
 * JSON, past which the state fails with States.DataLimitExceeded, an error no `States.ALL` catches.
 * asl-definition.ts refuses a definition that uses anything these functions do not model, so the
 * twin never measures a guess.
 */
import { SFN_MAX_STATE_BYTES } from '../../functions/contract/aws-quotas.js';
import { ServiceError } from '../../functions/contract/service-error.js';

/** The context object's part the stack reads (`$$.Map.Item.Value`, `$$.Map.Item.Index`). */
export interface StateContext {
  Map?: { Item: { Index: number; Value: unknown } };
}

/** A reference path of the subset: `$`, `$.a.b`, `$$.Map.Item.Value` (fields only: no filters, no slices). */
export const REFERENCE_PATH = /^\$\$?(\.[A-Za-z_][A-Za-z0-9_-]*)*$/;

/** A state's data past the quota: terminal, as AWS makes it (no Retry or `States.ALL` Catch applies). */
export class DataLimitExceeded extends ServiceError<'STATE_DATA_LIMIT'> {
  override readonly name = 'DataLimitExceeded';
  readonly error = 'States.DataLimitExceeded';
  constructor(
    readonly state: string,
    readonly what: string,
    readonly bytes: number,
  ) {
    super(
      'STATE_DATA_LIMIT',
      `The state/task '${state}' ${what} of ${bytes} bytes, exceeding the maximum number of bytes service limit (${SFN_MAX_STATE_BYTES}).`,
    );
  }
}

/** A value's size as Step Functions counts it: its JSON in UTF-8. */
export const dataBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8');

/** Fails the state `state` with States.DataLimitExceeded when `value` passes the quota. */
export function checkStateData(state: string, what: string, value: unknown): void {
  const bytes = dataBytes(value);
  if (bytes > SFN_MAX_STATE_BYTES) throw new DataLimitExceeded(state, what, bytes);
}

/** A path that selects nothing: States.Runtime in AWS, which no `States.ALL` catches either. */
export class PathNotFound extends ServiceError<'STATE_PATH_NOT_FOUND'> {
  override readonly name = 'PathNotFound';
  readonly error = 'States.Runtime';
  constructor(path: string) {
    super('STATE_PATH_NOT_FOUND', `The JSONPath '${path}' could not be found in the input`);
  }
}

function fields(path: string): string[] {
  if (!REFERENCE_PATH.test(path)) throw new Error(`the twin's ASL subset has no path ${JSON.stringify(path)}`);
  return path.split('.').slice(1);
}

/** The value at `path` in `input` (or the context object for `$$`), or undefined. */
export function selectOptional(input: unknown, path: string, context: StateContext = {}): unknown {
  let value: unknown = path.startsWith('$$') ? context : input;
  for (const field of fields(path)) {
    if (typeof value !== 'object' || value === null || !(field in value)) return undefined;
    value = (value as Record<string, unknown>)[field];
  }
  return value;
}

export function select(input: unknown, path: string, context: StateContext = {}): unknown {
  const value = selectOptional(input, path, context);
  if (value === undefined) throw new PathNotFound(path);
  return value;
}

/** A payload template (Parameters, ItemSelector, ResultSelector): `key.$` fields take the path's value. */
export function applyTemplate(template: unknown, input: unknown, context: StateContext = {}): unknown {
  if (Array.isArray(template)) return template.map((item) => applyTemplate(item, input, context));
  if (typeof template !== 'object' || template === null) return template;
  return Object.fromEntries(
    Object.entries(template).map(([key, value]) =>
      key.endsWith('.$')
        ? [key.slice(0, -2), select(input, String(value), context)]
        : [key, applyTemplate(value, input, context)],
    ),
  );
}

/** InputPath and OutputPath: absent is `$`, null is `{}`. */
export function applyPath(value: unknown, path: string | null | undefined): unknown {
  if (path === undefined || path === '$') return value;
  if (path === null) return {};
  return select(value, path);
}

/** ResultPath: absent is `$` (the result replaces the input), null discards the result. */
export function applyResultPath(input: unknown, result: unknown, path: string | null | undefined): unknown {
  if (path === undefined || path === '$') return result;
  if (path === null) return input;
  const keys = fields(path);
  const root: Record<string, unknown> =
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? structuredClone(input as Record<string, unknown>)
      : {};
  let node = root;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    node[key] = typeof next === 'object' && next !== null && !Array.isArray(next) ? next : {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = result;
  return root;
}
