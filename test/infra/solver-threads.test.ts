// The function's memory setting also says how many threads solve a file: the vCPUs it buys.
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { solverThreadsForMemory } from '../../functions/contract/service-layout.js';
import { synth } from './helpers.js';

function solverThreadsAt(memoryMb: number): unknown {
  const functions = synth({ filesMemoryMb: memoryMb }).template.findResources('AWS::Lambda::Function', {
    Properties: { Description: Match.stringLikeRegexp('for files') },
  });
  const solver = Object.values(functions)[0] as {
    Properties: { MemorySize: number; Environment: { Variables: Record<string, unknown> } };
  };
  expect(solver.Properties.MemorySize).toBe(memoryMb);
  return solver.Properties.Environment.Variables.SOLVER_THREADS;
}

describe('SOLVER_THREADS from the memory setting', () => {
  it('is one thread at the default 1,769 MB (one vCPU), two at 3,538 MB, six at 10,240 MB', () => {
    expect(solverThreadsAt(1769)).toBe('1');
    expect(solverThreadsAt(3538)).toBe('2');
    expect(solverThreadsAt(10240)).toBe('6');
  });

  it('rounds to the nearest whole vCPU, never below one or above six', () => {
    expect([128, 2048, 3008, 5308, 7076, 8845, 10240].map(solverThreadsForMemory)).toEqual([1, 1, 2, 3, 4, 5, 6]);
  });
});
