import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { gzipSync } from 'node:zlib';
import { prefixes } from '../../functions/contract/service-layout.js';

const EASY = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
const HARD = [
  '.................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...',
  '.................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....',
  '.................1.....2.3......425...6.......17....8.....7...64...6....9..8...1.',
];
const toNumbers = (s: string) =>
  Array.from({ length: 9 }, (_, r) => [...s.slice(r * 9, r * 9 + 9)].map((c) => (c === '.' ? 0 : Number(c))));

/**
 * The objects named by events/s3-*.json, so `npm run invoke -- events/s3-put.json` has something
 * to solve. Written under incoming/ at start (only if missing), so they are solved right away too.
 */
export const SAMPLE_OBJECTS: Record<string, string | Buffer> = {
  // One blank line and one bad line, so the report has something to say.
  [`${prefixes.incoming}samples/puzzles.txt`]: `${[EASY, ...HARD, '', 'this line is not a puzzle', EASY.replace('5', '6')].join('\n')}\n`,
  [`${prefixes.incoming}samples/kaggle.csv`]: `quizzes,solutions\n${[EASY, ...HARD].map((p) => `${p.replace(/\./g, '0')},`).join('\n')}\n`,
  [`${prefixes.incoming}samples/my puzzles+more.jsonl`]: `${[JSON.stringify(EASY), JSON.stringify(toNumbers(HARD[0]!)), JSON.stringify({ board: HARD[1] })].join('\n')}\n`,
  [`${prefixes.incoming}samples/boards.json`]: `${JSON.stringify({ boards: [EASY, ...HARD] }, null, 2)}\n`,
  [`${prefixes.incoming}samples/puzzles.txt.gz`]: gzipSync(`${[EASY, ...HARD].join('\n')}\n`),
};

/** Puts every sample that is not in the bucket yet; returns the keys written. */
export async function seedSamples(client: S3Client, bucket: string): Promise<string[]> {
  const written: string[] = [];
  for (const [key, body] of Object.entries(SAMPLE_OBJECTS)) {
    const exists = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
      () => true,
      () => false,
    );
    if (exists) continue;
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    written.push(key);
  }
  return written;
}
