import { gzipSync } from 'node:zlib';
import { outputKeysFor, prefixes } from '../../functions/contract/service-layout.js';
import type { FileReport } from '../../functions/pipeline/index.js';
import { isSolutionOf } from '../helpers/sudoku-rules.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import type { TestS3 } from '../helpers/local-s3.js';

/** Real puzzles (17 clues: each needs search), so a run does real solving. */
const PUZZLES = readPuzzleSet('puzzles2_17_clue');

const toNumbers = (s: string): number[][] =>
  Array.from({ length: 9 }, (_, r) => [...s.slice(r * 9, r * 9 + 9)].map((c) => (c === '.' ? 0 : Number(c))));

interface Format {
  ext: 'txt' | 'csv' | 'jsonl' | 'json';
  body(puzzles: string[]): string;
  /** The solutions an output holds, in row order. */
  solutions(output: string): string[];
}

const FORMATS: Format[] = [
  { ext: 'txt', body: (p) => `${p.join('\n')}\n`, solutions: (o) => o.split('\n').slice(0, -1) },
  {
    ext: 'csv',
    body: (p) => `quizzes,solutions\n${p.map((x) => `${x.replace(/\./g, '0')},`).join('\n')}\n`,
    solutions: (o) =>
      o
        .split('\n')
        .slice(1, -1)
        .map((l) => l.split(',')[1]!),
  },
  {
    ext: 'jsonl',
    body: (p) => `${p.map((x, i) => JSON.stringify(i % 2 ? x : toNumbers(x))).join('\n')}\n`,
    solutions: (o) =>
      o
        .split('\n')
        .slice(0, -1)
        .map((l) => {
          const s = (JSON.parse(l) as { solution: string | number[][] }).solution;
          return typeof s === 'string' ? s : s.flat().join('');
        }),
  },
  {
    ext: 'json',
    body: (p) => JSON.stringify({ boards: p }),
    solutions: (o) => (JSON.parse(o) as { results: { solution: string }[] }).results.map((r) => r.solution),
  },
];

export interface PuzzleFile {
  /** The source key, e.g. batch/run-1/file-07.csv.gz */
  key: string;
  /** The key under the mode's prefix, e.g. run-1/file-07.csv.gz */
  path: string;
  body: Buffer;
  puzzles: string[];
  format: Format;
}

/**
 * `count` files under `folder` cycling through every format, plain and gzipped (8 kinds), each
 * with `perFile` different puzzles.
 */
export function mixedPuzzleFiles(prefix: string, folder: string, count: number, perFile = 4): PuzzleFile[] {
  return Array.from({ length: count }, (_, i) => {
    const format = FORMATS[i % FORMATS.length]!;
    const gzip = Math.floor(i / FORMATS.length) % 2 === 1;
    const puzzles = Array.from({ length: perFile }, (_, k) => PUZZLES[(i * perFile + k) % PUZZLES.length]!);
    const path = `${folder}/file-${String(i).padStart(3, '0')}.${format.ext}${gzip ? '.gz' : ''}`;
    const text = format.body(puzzles);
    return { key: prefix + path, path, body: gzip ? gzipSync(text) : Buffer.from(text), puzzles, format };
  });
}

export async function putAll(s3: TestS3, files: PuzzleFile[]): Promise<void> {
  await Promise.all(files.map((f) => s3.put(f.key, f.body)));
}

/** Where a source key under incoming/ or batch/ answers (outputKeysFor, whichever prefix the key is under). */
export function answersOf(sourceKey: string): { outputKey: string; reportKey: string } {
  const prefix = sourceKey.startsWith(prefixes.batch) ? prefixes.batch : prefixes.incoming;
  const keys = outputKeysFor(sourceKey, prefix);
  if (!keys) throw new Error(`${sourceKey} is under neither incoming/ nor batch/`);
  return keys;
}

export async function reportOf(s3: TestS3, sourceKey: string): Promise<FileReport | undefined> {
  const body = await s3.text(answersOf(sourceKey).reportKey);
  return body === undefined ? undefined : (JSON.parse(body) as FileReport);
}

/** The file's output holds a verified solution for each of its puzzles, in order. */
export async function solvedCorrectly(s3: TestS3, file: PuzzleFile): Promise<boolean> {
  const output = await s3.text(answersOf(file.key).outputKey);
  if (output === undefined) return false;
  const answers = file.format.solutions(output);
  return (
    answers.length === file.puzzles.length && answers.every((solution, i) => isSolutionOf(file.puzzles[i]!, solution))
  );
}

export async function readJson<T>(s3: TestS3, key: string): Promise<T> {
  const body = await s3.text(key);
  if (body === undefined) throw new Error(`no object ${key}`);
  return JSON.parse(body) as T;
}
