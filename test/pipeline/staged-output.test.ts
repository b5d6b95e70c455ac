// How a ranged output is cut into the parts of one multipart upload: every part but the last
// holds at least 5 MiB (S3's rule), a part joined from small pieces holds at most 5 MiB (it is
// read into memory), and the parts cover every byte of every piece once, in order.
import { describe, expect, it } from 'vitest';
import { MAX_PART_BYTES, MIN_PART_BYTES, planParts, type StagedPiece } from '../../functions/pipeline/staged-output.js';

const MIB = 1024 * 1024;

/** The parts as [key, from, to] runs, and each part's size. */
function laidOut(pieces: StagedPiece[]) {
  const parts = planParts(pieces);
  const slices = parts.flatMap((part) => ('copy' in part ? [part.copy] : part.join));
  const sizes = parts.map((part) => ('copy' in part ? part.copy.to - part.copy.from : part.size));
  return { parts, slices, sizes };
}

function expectCovered(pieces: StagedPiece[], slices: { piece: StagedPiece; from: number; to: number }[]) {
  const covered = new Map<string, number>();
  for (const { piece, from, to } of slices) {
    expect(from).toBe(covered.get(piece.key) ?? 0);
    expect(to).toBeGreaterThan(from);
    covered.set(piece.key, to);
  }
  for (const piece of pieces.filter((p) => p.size > 0)) expect(covered.get(piece.key)).toBe(piece.size);
  expect([...covered.keys()]).toEqual(pieces.filter((p) => p.size > 0).map((p) => p.key));
}

describe('planParts', () => {
  it.each([
    { name: 'small pieces only', sizes: Array.from({ length: 300 }, () => 40_000) },
    { name: 'a big piece after a small one (a range handed over in pieces)', sizes: [3 * MIB, 140 * MIB, 2 * MIB] },
    { name: 'big pieces of uneven sizes', sizes: [7 * MIB, 5 * MIB, 9 * MIB + 1, 1, 6 * MIB] },
    { name: 'a piece just over 5 GiB', sizes: [MAX_PART_BYTES + 1] },
    { name: 'empty pieces among others', sizes: [0, 2 * MIB, 0, 4 * MIB, 0] },
  ])(
    'keeps every part but the last at 5 MiB or more, joined parts at 5 MiB at most, every byte once: $name',
    ({ sizes }) => {
      const pieces = sizes.map((size, i) => ({ key: `out/${String(i).padStart(3, '0')}`, size }));
      const { parts, slices, sizes: partSizes } = laidOut(pieces);
      for (const size of partSizes.slice(0, -1)) expect(size).toBeGreaterThanOrEqual(MIN_PART_BYTES);
      for (const size of partSizes) expect(size).toBeLessThanOrEqual(MAX_PART_BYTES);
      for (const part of parts) if ('join' in part) expect(part.size).toBeLessThanOrEqual(MIN_PART_BYTES);
      expectCovered(pieces, slices);
    },
  );
});
