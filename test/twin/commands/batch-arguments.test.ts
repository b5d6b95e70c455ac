// Every `npm run batch` command line its parser tells apart, with what it makes of it: the
// behaviour and the messages, pinned (twin/commands/batch-arguments.ts reads them with
// node:util parseArgs).
import { describe, expect, it } from 'vitest';
import { type BatchCommand, parseBatchArguments } from '../../../twin/commands/batch-arguments.js';

const CASES: [string[], BatchCommand][] = [
  [[], { kind: 'run', mode: 'batch', prefix: undefined, maxConcurrency: undefined, itemsPerInvocation: undefined }],
  [['-h'], { kind: 'help' }],
  [['--help'], { kind: 'help' }],
  [
    ['--sweep'],
    { kind: 'run', mode: 'sweep', prefix: undefined, maxConcurrency: undefined, itemsPerInvocation: undefined },
  ],
  [['--sweep=1'], { kind: 'usage-error', message: "unknown argument '--sweep=1'" }],
  [
    ['--prefix', 'p/'],
    { kind: 'run', mode: 'batch', prefix: 'p/', maxConcurrency: undefined, itemsPerInvocation: undefined },
  ],
  [
    ['--prefix=p/'],
    { kind: 'run', mode: 'batch', prefix: 'p/', maxConcurrency: undefined, itemsPerInvocation: undefined },
  ],
  [['--prefix'], { kind: 'usage-error', message: '--prefix needs a value' }],
  [['--prefix='], { kind: 'usage-error', message: '--prefix needs a value' }],
  [['--prefix', ''], { kind: 'usage-error', message: '--prefix needs a value' }],
  [
    ['--concurrency', '4'],
    { kind: 'run', mode: 'batch', prefix: undefined, maxConcurrency: 4, itemsPerInvocation: undefined },
  ],
  [
    ['--concurrency=4'],
    { kind: 'run', mode: 'batch', prefix: undefined, maxConcurrency: 4, itemsPerInvocation: undefined },
  ],
  [
    ['--batch-size', '2'],
    { kind: 'run', mode: 'batch', prefix: undefined, maxConcurrency: undefined, itemsPerInvocation: 2 },
  ],
  [['--concurrency', '0'], { kind: 'usage-error', message: "--concurrency needs a positive integer, got '0'" }],
  [['--concurrency'], { kind: 'usage-error', message: "--concurrency needs a positive integer, got ''" }],
  [['--batch-size=x'], { kind: 'usage-error', message: "--batch-size needs a positive integer, got 'x'" }],
  [['--batch-size', '1.5'], { kind: 'usage-error', message: "--batch-size needs a positive integer, got '1.5'" }],
  [
    ['--concurrency', ' 3'],
    { kind: 'run', mode: 'batch', prefix: undefined, maxConcurrency: 3, itemsPerInvocation: undefined },
  ],
  [['extra'], { kind: 'usage-error', message: "unknown argument 'extra'" }],
  [['--sweeep'], { kind: 'usage-error', message: "unknown argument '--sweeep'" }],
  [['-s'], { kind: 'usage-error', message: "unknown argument '-s'" }],
  [['--'], { kind: 'usage-error', message: "unknown argument '--'" }],
  [
    ['--sweep', '--prefix', 'late/', '--concurrency=4', '--batch-size', '2'],
    { kind: 'run', mode: 'sweep', prefix: 'late/', maxConcurrency: 4, itemsPerInvocation: 2 },
  ],
  [
    ['--prefix', '--sweep'],
    { kind: 'run', mode: 'batch', prefix: '--sweep', maxConcurrency: undefined, itemsPerInvocation: undefined },
  ],
  [['--concurrency', '-1'], { kind: 'usage-error', message: "--concurrency needs a positive integer, got '-1'" }],
];

describe('npm run batch command line', () => {
  it.each(CASES)('%j reads as %j', (argv, expected) => {
    expect(parseBatchArguments(argv)).toStrictEqual(expected);
  });
});
