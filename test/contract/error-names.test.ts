// The error names the state machines' Retry and Catch rules match are the names of error classes
// the function throws: a class renamed alone would leave a rule matching nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { BatchItemsFailedError } from '../../functions/batch/errors.js';
import type { MapResult } from '../../functions/batch/types.js';
import { ERROR_NAMES } from '../../functions/contract/error-names.js';
import { SourceChangedError } from '../../functions/pipeline/object-versions.js';
import { TimeLimitError } from '../../functions/pipeline/time-limit.js';
import { flatten, synth } from '../infra/helpers.js';

/** One instance of each class whose name a rule may match. */
const thrown: Error[] = [
  new TimeLimitError(0, 0),
  new SourceChangedError('incoming/a.txt'),
  new BatchItemsFailedError({ items: [] } as unknown as MapResult),
];

/** Every name in an `ErrorEquals` anywhere in a state machine definition. */
function matchedNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) matchedNames(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) {
      if (key === 'ErrorEquals') for (const name of field as string[]) into.add(name);
      else matchedNames(field, into);
    }
  }
  return into;
}

let ruleNames: string[];
beforeAll(() => {
  const machines = Object.values(synth().template.findResources('AWS::StepFunctions::StateMachine')) as {
    Properties: { DefinitionString: unknown };
  }[];
  expect(machines.length).toBeGreaterThan(0);
  const names = new Set<string>();
  for (const machine of machines) matchedNames(JSON.parse(flatten(machine.Properties.DefinitionString)), names);
  // `States.*` and `Service.Exception` names are AWS's; the rest are the function's own.
  ruleNames = [...names].filter((name) => !name.includes('.'));
});

describe('error names the state machines match', () => {
  it('every retry or catch rule of our own matches the name of an error class the function throws', () => {
    const classNames = thrown.map((error) => error.name);
    expect(ruleNames.length).toBeGreaterThan(0);
    for (const name of ruleNames) expect(classNames, name).toContain(name);
  });

  it('every contract error name is matched by a rule and carried by its class, whose name it is', () => {
    expect(new Set(ruleNames)).toEqual(new Set(Object.values(ERROR_NAMES)));
    for (const error of thrown) expect(error.name).toBe(error.constructor.name);
    expect(thrown.map((error) => error.name).sort()).toEqual(Object.values(ERROR_NAMES).sort());
  });
});
