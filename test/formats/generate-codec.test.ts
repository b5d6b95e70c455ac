import { describe, expect, it } from 'vitest';
import { answerBatch, answerBatchInTurns } from '../../functions/formats/index.js';
import type { RowBatch } from '../../functions/formats/index.js';
import { generatePuzzle } from '../../functions/sudoku/logic/index.js';

/** A batch of seed lines, as `sudoku generate` hands its threads. */
function seedBatch(lines: string[], answer: RowBatch['answer']): RowBatch {
  const text = `${lines.join('\n')}\n`;
  return {
    format: 'txt',
    firstLine: 1,
    bytes: new TextEncoder().encode(text),
    lines: lines.length,
    overlong: [],
    maxLineChars: 1 << 20,
    answer,
  };
}

describe('seeds answered as rows (sudoku generate on threads)', () => {
  it('answers each seed line with the puzzle the core makes from it: padded or not, or a text seed', () => {
    const seeds = ['0000000007', '8', '4294967295', 'my book, page 3'];
    const answer = answerBatch(seedBatch(seeds, { generate: 'medium', symmetric: true }));
    const puzzles = new TextDecoder().decode(answer.text).split('\n').slice(0, -1);
    const core = [7, 8, 4294967295, 'my book, page 3'].map((seed) => {
      const made = generatePuzzle({ level: 'medium', seed, symmetric: true });
      return made.ok && made.puzzle;
    });
    expect(puzzles).toEqual(core);
    expect(answer.counts).toMatchObject({ rows: 4, solved: 4 });
  });

  it('answers a seed the generator gives up on with an error line naming it, and goes on with the next', () => {
    // At extreme, 30 attempts find a puzzle for seed 4 and none for seed 5.
    const answer = answerBatch(seedBatch(['4', '5', '4'], { generate: 'extreme', symmetric: false, maxAttempts: 30 }));
    const lines = new TextDecoder().decode(answer.text).split('\n');
    const made = generatePuzzle({ level: 'extreme', seed: 4, maxAttempts: 30 });
    expect(lines[0]).toBe(made.ok && made.puzzle);
    expect(lines[1]).toBe(
      'error line 2: GENERATION_LIMIT: No extreme puzzle was found in 30 attempts from this seed; try another seed',
    );
    expect(lines[2]).toBe(lines[0]);
    expect(answer.failures).toEqual([expect.objectContaining({ problem: expect.objectContaining({ line: 2 }) })]);
    expect(answer.counts).toMatchObject({ rows: 3, solved: 2 });
  });

  it('answers a batch of seeds slice by slice in this thread exactly as in one piece', async () => {
    const batch = seedBatch(
      Array.from({ length: 30 }, (_, i) => String(i + 100)),
      { generate: 'easy', symmetric: false },
    );
    // sliceMs 0: slices of 50 bytes (four or five seeds) whatever their speed.
    expect(await answerBatchInTurns(batch, undefined, 50, 0)).toEqual(answerBatch(batch));
  });
});
