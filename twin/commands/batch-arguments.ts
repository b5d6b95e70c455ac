import { parseArgs } from 'node:util';
import type { RunMode } from '../../functions/contract/service-layout.js';
import { prefixes, RUN_DEFAULTS, RUN_REPORTS_PREFIX } from '../../functions/contract/service-layout.js';

/** What `npm run batch -- ...` asks for. */
export type BatchCommand =
  | { kind: 'help' }
  | {
      kind: 'run';
      mode: RunMode;
      prefix: string | undefined;
      maxConcurrency: number | undefined;
      itemsPerInvocation: number | undefined;
    }
  | { kind: 'usage-error'; message: string };

export const BATCH_USAGE = `usage: npm run batch [-- [--sweep] [--prefix P] [--concurrency N] [--batch-size N]]

Solves every file under ${prefixes.batch} of the local S3 server of \`npm start\` (outputs in ${prefixes.batchSolved}, reports
in ${prefixes.batchReports}, the run report in ${RUN_REPORTS_PREFIX}<run id>/), as the scheduled run does in AWS.

  --sweep           list ${prefixes.incoming} instead: solve uploads that have no output for their current ETag
                    (outputs in ${prefixes.solved}, reports in ${prefixes.reports}, as their S3 events would)
  --prefix P        only keys under P (a full key prefix, or a path under ${prefixes.batch} or ${prefixes.incoming})
  --concurrency N   invocations in flight at once (default ${RUN_DEFAULTS.maxConcurrency}, as the stack's batchMaxConcurrency)
  --batch-size N    keys per invocation (default ${RUN_DEFAULTS.itemsPerInvocation}, as the stack's batchItemsPerInvocation)

Environment: S3_ENDPOINT (default http://127.0.0.1:\${S3_PORT:-4569}), BUCKET (default sudoku-local).
Files are solved as the files function's role and listed as the state machine's (the local S3
decides each call by the stack's policies).
Exit status: 0 no file failed, 1 some file failed, 2 usage error or the bucket could not be listed.
`;

const usageError = (message: string): BatchCommand => ({ kind: 'usage-error', message });

/** The arguments `npm run batch` takes (parseArgs' config). */
const OPTIONS = {
  sweep: { type: 'boolean' },
  prefix: { type: 'string' },
  concurrency: { type: 'string' },
  'batch-size': { type: 'string' },
} as const;

/**
 * Parses the arguments after `npm run batch --`; never throws. node:util `parseArgs` splits them
 * (`--name value`, `--name=value`); the checks and their messages are here, in argument order.
 * Anything else (a positional, a short option, `--`, `--sweep=...`) is an unknown argument.
 */
export function parseBatchArguments(argv: readonly string[]): BatchCommand {
  if (argv.includes('-h') || argv.includes('--help')) return { kind: 'help' };
  const { tokens } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  let mode: RunMode = 'batch';
  let prefix: string | undefined;
  const numbers: Record<'concurrency' | 'batch-size', number | undefined> = {
    concurrency: undefined,
    'batch-size': undefined,
  };
  for (const token of tokens) {
    const arg = argv[token.index]!;
    if (token.kind !== 'option' || !Object.hasOwn(OPTIONS, token.name) || !token.rawName.startsWith('--')) {
      return usageError(`unknown argument '${arg}'`);
    }
    if (token.name === 'sweep') {
      if (token.inlineValue) return usageError(`unknown argument '${arg}'`);
      mode = 'sweep';
    } else if (token.name === 'prefix') {
      if (token.value === undefined || token.value === '') return usageError('--prefix needs a value');
      prefix = token.value;
    } else {
      const name = token.name as keyof typeof numbers;
      const n = Number(token.value);
      if (!Number.isInteger(n) || n < 1)
        return usageError(`--${name} needs a positive integer, got '${token.value ?? ''}'`);
      numbers[name] = n;
    }
  }
  return {
    kind: 'run',
    mode,
    prefix,
    maxConcurrency: numbers.concurrency,
    itemsPerInvocation: numbers['batch-size'],
  };
}
