import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coldStartFiles } from '../../bench/sections/bundle.js';
import { openApiMismatches } from '../http/openapi-conformance.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundleDir = path.join(root, 'dist', 'handler');
const eventsDir = path.join(root, 'events');

/** What each sample event must produce (a sample added without an entry here fails the test). */
const EXPECTED_STATUS: Record<string, number> = {
  'http-health.json': 200,
  'http-openapi.json': 200,
  'http-solve-string.json': 200,
  'http-solve-chars.json': 200,
  'http-solve-numbers.json': 200,
  'http-solve-batch.json': 200,
  'http-solve-text-lines.json': 200,
  'http-solve-base64.json': 200,
  'http-solve-bad-board.json': 400,
  'http-solve-malformed-json.json': 400,
  'http-unknown-route.json': 404,
  'http-solve-wrong-method.json': 405,
  'http-solve-unsupported-type.json': 415,
  'http-solve-no-solution.json': 422,
  'http-grade-batch.json': 200,
  'http-hint.json': 200,
  'http-puzzle.json': 200,
  'http-puzzle-bad-level.json': 400,
};

/** Modules only the twin runs: the whole-job runner, its run request and report, the TypeScript worker factory. */
const TWIN_ONLY_MODULES = [
  'twin/stepfunctions/batch-run.ts',
  'twin/stepfunctions/run-request.ts',
  'twin/stepfunctions/run-report.ts',
  'twin/lambda/source-worker.ts',
];

/** What those modules hold that the bundle must not: tsx plumbing, the worker's TypeScript entry, the runner's names. */
const TWIN_ONLY_MARKERS = ['tsx/package.json', 'tsImport', 'batch-worker.ts', 'RUN_FAILED', 'sudoku-local-batch'];

/** The schedules' input: it starts the state machine in AWS and is no event of the function's. */
const SCHEDULE_EVENTS = ['batch-schedule-batch.json', 'batch-schedule-sweep.json'];

/** Runs in the child: loads the bundle beside it and invokes it with each event file given. */
const RUNNER = `
import { readFileSync } from 'node:fs';
const { handler } = await import('./index.mjs');
const context = { awsRequestId: 'bundle-test', functionName: 'sudoku', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:sudoku', memoryLimitInMB: '1024',
  logGroupName: '/aws/lambda/sudoku', logStreamName: 'x', callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 30000, done() {}, fail() {}, succeed() {} };
const out = [];
for (const file of process.argv.slice(2)) {
  const event = file === '-' ? { mystery: true } : JSON.parse(readFileSync(file, 'utf8'));
  try { out.push({ file, result: await handler(event, context) }); }
  catch (error) { out.push({ file, error: { name: error.name, message: error.message } }); }
}
process.stderr.write('RESULTS ' + JSON.stringify(out) + '\\n');
`;

interface RunOutput {
  file: string;
  result?: { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded: boolean };
  error?: { name: string; message: string };
}

let workDir: string;
let outputs: RunOutput[];
let logLines: string[];
let openApi: unknown;

beforeAll(() => {
  if (!existsSync(path.join(bundleDir, 'index.mjs')))
    throw new Error('dist/handler/index.mjs is missing: run `npm run build` (npm test does)');
  // A folder outside the repository with nothing but the bundle: no node_modules to fall back on.
  workDir = mkdtempSync(path.join(tmpdir(), 'sudoku-handler-bundle-'));
  cpSync(bundleDir, workDir, { recursive: true });
  writeFileSync(path.join(workDir, 'run.mjs'), RUNNER);
  const files = [...Object.keys(EXPECTED_STATUS), ...SCHEDULE_EVENTS].map((name) => path.join(eventsDir, name));
  const child = spawnSync(process.execPath, ['run.mjs', ...files, '-'], {
    cwd: workDir,
    encoding: 'utf8',
    // Lambda's own environment, roughly: no NODE_PATH, no repository on the way up.
    env: {
      PATH: process.env.PATH ?? '',
      AWS_REGION: 'eu-west-1',
      AWS_LAMBDA_FUNCTION_NAME: 'sudoku',
      POWERTOOLS_SERVICE_NAME: 'sudoku-bundle-test',
    },
    timeout: 60_000,
  });
  expect(child.status, child.stderr).toBe(0);
  logLines = `${child.stdout}\n${child.stderr}`.split('\n').filter((l) => l.startsWith('{'));
  const line = child.stderr.split('\n').find((l) => l.startsWith('RESULTS '));
  outputs = JSON.parse(line!.slice('RESULTS '.length)) as RunOutput[];
  openApi = JSON.parse(outputs.find((o) => o.file.endsWith('http-openapi.json'))!.result!.body);
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('the built bundle dist/handler/index.mjs, run alone from a folder outside the repository', () => {
  it('has no node_modules folder it could resolve packages from', () => {
    for (let dir = workDir; ; dir = path.dirname(dir)) {
      expect(existsSync(path.join(dir, 'node_modules')), dir).toBe(false);
      if (path.dirname(dir) === dir) break;
    }
    expect(workDir.startsWith(root)).toBe(false);
  });

  it('has a sample event with an expected status for every events/http-*.json file', () => {
    const samples = readdirSync(eventsDir)
      .filter((name) => /^http-.*\.json$/.test(name))
      .sort();
    expect(samples).toEqual(Object.keys(EXPECTED_STATUS).sort());
  });

  it.each(Object.entries(EXPECTED_STATUS))(
    'answers %s with status %i, as the OpenAPI document describes',
    (name, status) => {
      const output = outputs.find((o) => o.file.endsWith(`/${name}`))!;
      expect(output.error).toBeUndefined();
      expect(output.result!.statusCode).toBe(status);
      const event = JSON.parse(readFileSync(path.join(eventsDir, name), 'utf8')) as {
        rawPath: string;
        requestContext: { http: { method: string } };
      };
      const mismatches = openApiMismatches(openApi, {
        method: event.requestContext.http.method,
        path: event.rawPath,
        status,
        contentType: output.result!.headers['content-type'],
        body: output.result!.body,
      });
      expect(mismatches).toEqual([]);
    },
  );

  it('throws UnrecognisedEventError for an event of no known kind, so Lambda retries and dead-letters it', () => {
    const output = outputs.find((o) => o.file === '-')!;
    expect(output.error?.name).toBe('UnrecognisedEventError');
  });

  it.each(SCHEDULE_EVENTS)(
    'has no event kind only the twin sends: %s (a run request, run by the local runner) is unrecognised',
    (name) => {
      const output = outputs.find((o) => o.file.endsWith(`/${name}`))!;
      expect(output.result).toBeUndefined();
      expect(output.error?.name).toBe('UnrecognisedEventError');
    },
  );

  it('writes structured JSON logs with the Lambda request id, and EMF metrics', () => {
    const records = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      records.some(
        (r) =>
          r.message === 'HTTP request' && r.function_request_id === 'bundle-test' && r.service === 'sudoku-bundle-test',
      ),
    ).toBe(true);
    expect(records.some((r) => r.level === 'ERROR' && String(r.message).startsWith('Unrecognised event'))).toBe(true);
    const emf = records.filter((r) => typeof r._aws === 'object');
    expect(emf.length).toBeGreaterThan(0);
    expect(emf.some((r) => typeof r.BoardsSolved === 'number' && typeof r.SolveTime === 'number')).toBe(true);
    expect(emf.some((r) => typeof r.BoardsFailed === 'number')).toBe(true);
    expect(records.some((r) => String(r.message).includes('No application metrics'))).toBe(false);
  });
});

describe('what the deployable bundle holds', () => {
  const files = () => readdirSync(bundleDir, { recursive: true, encoding: 'utf8' });
  const sources = () =>
    files()
      .filter((file) => file.endsWith('.map'))
      .flatMap(
        (file) => (JSON.parse(readFileSync(path.join(bundleDir, file), 'utf8')) as { sources: string[] }).sources,
      );

  it('ships none of the twin (twin/) or the command (cli/), nor its AGPL IAM evaluator, s3rver, tsx or the CDK', () => {
    expect(sources().some((s) => s.includes('functions/pipeline/'))).toBe(true);
    const foreign = sources().filter((s) =>
      /(^|\/)(twin|cli)\/|@cloud-copilot\/|node_modules\/s3rver\/|node_modules\/tsx\/|node_modules\/aws-cdk-lib\//.test(
        s,
      ),
    );
    expect(foreign).toEqual([]);
  });

  it('loads on a cold start only what an HTTP request needs: no AWS SDK, file pipeline, logical solver, page or OpenAPI document', () => {
    // index.mjs and the chunks it imports statically, transitively: what Node parses before the
    // handler exists. Everything else is read by `await import()` on first use.
    const graph = coldStartFiles(path.join(bundleDir, 'index.mjs'));
    expect(graph.length).toBeGreaterThan(1);
    const loaded = graph.flatMap(
      (file) => (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources,
    );
    expect(loaded.some((s) => s.endsWith('functions/http/handle-event.ts'))).toBe(true);
    expect(loaded.some((s) => s.endsWith('functions/sudoku/solve-board.ts'))).toBe(true);
    // names.ts lends the level and technique names the OpenAPI document lists, nothing that runs.
    const unwanted = loaded.filter((s) =>
      /@aws-sdk\/|@smithy\/|functions\/(pipeline|parallel|s3\/(?!event-)|batch\/handle)|functions\/http\/openapi|functions\/web\/|functions\/sudoku\/logic\/(?!names\.ts)|functions\/formats\/(csv|jsonl|json-document|codecs|solve-stream|grade-codec|generate-codec)/.test(
        s,
      ),
    );
    expect(unwanted).toEqual([]);
  });

  it('ships no twin-only code: no whole-job runner or run request, no tsx plumbing for the TypeScript worker', () => {
    const code = files()
      .filter((file) => file.endsWith('.mjs'))
      .map((file) => readFileSync(path.join(bundleDir, file), 'utf8'))
      .join('\n');
    // A guard on a module that moved or went away guards nothing: each must exist, and each marker
    // must be in one of them, or this test says so instead of passing on code no longer there.
    const twinOnly = TWIN_ONLY_MODULES.filter((module) => existsSync(path.join(root, module)));
    expect(twinOnly).toEqual(TWIN_ONLY_MODULES);
    const twinCode = twinOnly.map((module) => readFileSync(path.join(root, module), 'utf8')).join('\n');
    for (const marker of TWIN_ONLY_MARKERS) {
      expect(twinCode.includes(marker), `${marker} in the twin's modules`).toBe(true);
      expect(code.includes(marker), `${marker} in the bundle`).toBe(false);
    }
    expect(sources().filter((s) => TWIN_ONLY_MODULES.some((module) => s.endsWith(module)))).toEqual([]);
    expect(code).toContain('batch-worker.mjs');
  });
});
