// The Amazon States Language's data flow as the twin applies it (twin/stepfunctions/asl-data.ts): the
// paths the stack's definitions use, with the semantics the ASL specification gives them.
import { describe, expect, it } from 'vitest';
import { SFN_MAX_STATE_BYTES } from '../../../functions/contract/aws-quotas.js';
import {
  applyPath,
  applyResultPath,
  applyTemplate,
  checkStateData,
  DataLimitExceeded,
  PathNotFound,
} from '../../../twin/stepfunctions/asl-data.js';

const input = { job: { id: 'j', size: 3 }, range: { index: 2 } };

describe('ASL data flow in the twin', () => {
  it('puts a result where ResultPath says, keeps the input for null, replaces it for $', () => {
    expect(applyResultPath(input, { rows: 1 }, '$.result')).toEqual({ ...input, result: { rows: 1 } });
    expect(applyResultPath(input, { Error: 'E' }, '$.error.detail')).toEqual({
      ...input,
      error: { detail: { Error: 'E' } },
    });
    expect(applyResultPath(input, { rows: 1 }, null)).toBe(input);
    expect(applyResultPath(input, { rows: 1 }, undefined)).toEqual({ rows: 1 });
    // The input is not changed in place: a Map's children share it.
    expect(input).toEqual({ job: { id: 'j', size: 3 }, range: { index: 2 } });
  });

  it('selects with InputPath/OutputPath, and null gives {}', () => {
    expect(applyPath(input, '$.job')).toEqual({ id: 'j', size: 3 });
    expect(applyPath(input, null)).toEqual({});
    expect(applyPath(input, undefined)).toBe(input);
    expect(() => applyPath(input, '$.missing')).toThrow(PathNotFound);
  });

  it('fills a payload template from the input and the Map item context', () => {
    const template = {
      largeFile: 'range',
      'job.$': '$.job',
      'range.$': '$$.Map.Item.Value',
      nested: { 'i.$': '$$.Map.Item.Index' },
    };
    expect(applyTemplate(template, input, { Map: { Item: { Index: 7, Value: { start: 0 } } } })).toEqual({
      largeFile: 'range',
      job: input.job,
      range: { start: 0 },
      nested: { i: 7 },
    });
  });

  it('fails a state whose data passes 256 KiB of UTF-8 JSON with States.DataLimitExceeded, and not one at it', () => {
    // A string of n bytes is n + 2 bytes of JSON; a 3-byte character counts 3.
    expect(() => checkStateData('S', 'has an output', 'x'.repeat(SFN_MAX_STATE_BYTES - 2))).not.toThrow();
    expect(() => checkStateData('S', 'has an output', 'x'.repeat(SFN_MAX_STATE_BYTES - 1))).toThrow(DataLimitExceeded);
    const euro = '€'.repeat(Math.ceil(SFN_MAX_STATE_BYTES / 3));
    expect(() => checkStateData('S', 'has an output', euro)).toThrow(/'S' has an output of \d+ bytes/);
  });
});
