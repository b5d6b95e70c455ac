import type { RunMode } from '../batch/types.js';
import { prefixes, RUN_DEFAULTS, RUN_REPORTS_PREFIX } from '../contract/service-layout.js';

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

Solves every file under ${prefixes.batch} of the local S3 server of \`npm start\` (outputs in ${prefixes.solved}, reports
in ${prefixes.reports}, the run report in ${RUN_REPORTS_PREFIX}<run id>/), as the scheduled run does in AWS.

  --sweep           list ${prefixes.incoming} instead: solve uploads that have no output for their current ETag
  --prefix P        only keys under P (a full key prefix, or a path under ${prefixes.batch} or ${prefixes.incoming})
  --concurrency N   invocations in flight at once (default ${RUN_DEFAULTS.maxConcurrency}, as the stack's batchMaxConcurrency)
  --batch-size N    keys per invocation (default ${RUN_DEFAULTS.itemsPerInvocation}, as the stack's batchItemsPerInvocation)

Environment: S3_ENDPOINT (default http://127.0.0.1:\${S3_PORT:-4569}), BUCKET (default sudoku-local).
Files are solved as the files function's role and listed as the state machine's (the local S3
decides each call by the stack's policies).
Exit status: 0 no file failed, 1 some file failed, 2 usage error or the bucket could not be listed.
`;

const usageError = (message: string): BatchCommand => ({ kind: 'usage-error', message });

/** Parses the arguments after `npm run batch --`; never throws. */
export function parseBatchArguments(argv: readonly string[]): BatchCommand {
  if (argv.includes('-h') || argv.includes('--help')) return { kind: 'help' };
  let mode: RunMode = 'batch';
  let prefix: string | undefined;
  const numbers: Record<'--concurrency' | '--batch-size', number | undefined> = {
    '--concurrency': undefined,
    '--batch-size': undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const [flag, inline] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    if (flag === '--sweep' && inline === undefined) {
      mode = 'sweep';
    } else if (flag === '--prefix') {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') return usageError('--prefix needs a value');
      prefix = value;
    } else if (flag === '--concurrency' || flag === '--batch-size') {
      const value = inline ?? argv[++i];
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) return usageError(`${flag} needs a positive integer, got '${value ?? ''}'`);
      numbers[flag] = n;
    } else {
      return usageError(`unknown argument '${arg}'`);
    }
  }
  return {
    kind: 'run',
    mode,
    prefix,
    maxConcurrency: numbers['--concurrency'],
    itemsPerInvocation: numbers['--batch-size'],
  };
}
