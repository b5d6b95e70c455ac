// The package as a user gets it: packed (`npm run package`: scripts/pack.mjs, npm pack of the files
// a user needs), installed offline into a CDK app outside the repository, imported as `sudoku-serverless/construct` from plain JavaScript, with two services in
// one stack and a third in another (test/infra/fixtures/consumer-app.mjs). The app synthesizes with
// cdk-nag clean, no two resources ask for the same name, and the twin's IAM evaluator decides each
// service's requests as it decides the Sudoku stack's, and refuses each one the other's bucket and
// state machine. One pack, one install and one synth serve every assertion.
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTPUT_PREFIXES, prefixes, RUN_REPORTS_PREFIX } from '../../functions/contract/service-layout.js';
import { handlerBundleDir, root } from '../../infra/paths.js';
import { readSettings } from '../../infra/settings.js';
import { Authorizer, type Decision } from '../../twin/iam/decide.js';
import { buildPolicyModel, notifyingBucketId } from '../../twin/iam/policy-model.js';
import type { CloudFormationTemplate } from '../../twin/iam/resolve-template.js';
import { loadStackTemplate } from '../../twin/iam/stack-template.js';
import { startHttpServer } from '../../twin/gateway/http-server.js';
import { EASY, EASY_SOLUTION } from '../helpers/boards.js';
import { deployedIdentity } from './helpers.js';

const run = promisify(execFile);

/** What the consumer app says of each service: the logical IDs of its parts, in its stack. */
interface ServiceFacts {
  readonly stack: string;
  readonly bucket: string;
  readonly filesRole: string;
  readonly apiRole: string;
  readonly largeFileStateMachine: string;
  readonly batchStateMachine: string;
  readonly alarmTopic: string;
  readonly apiUrl: unknown;
}

interface Facts {
  readonly badPropMessage: string | undefined;
  readonly services: Record<'A' | 'B' | 'C', ServiceFacts>;
}

interface Consumer {
  readonly dir: string;
  /** The packages and commands the install put in the app's node_modules (before the peers are linked). */
  readonly installedPackages: readonly string[];
  readonly bins: readonly string[];
  /** What the installed `sudoku --help` prints. */
  readonly commandHelp: string;
  /** What tsc says of test/infra/fixtures/consumer-types.ts in the app's folder ('' when it compiles). */
  readonly typeErrors: string;
  readonly installed: string;
  readonly facts: Facts;
  readonly templates: Record<string, CloudFormationTemplate>;
  readonly violations: unknown[];
}

/** The packages the app needs beside ours, linked from the repository's install (no network, no copy). */
const LINKED = ['aws-cdk-lib', 'constructs', 'cdk-nag'];

/** A TypeScript user's settings for Node's ESM: the package's `exports` and its declarations decide the import. */
const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  },
  files: ['types.ts'],
};

/** The newest modification time of the sources under `dirs`. */
function newestSource(dirs: readonly string[]): number {
  return Math.max(
    ...dirs.flatMap((dir) =>
      readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => statSync(path.join(root, dir, file)).mtimeMs),
    ),
  );
}

/** Each library and the folders its sources lie in. */
const LIBRARY_SOURCES = {
  construct: ['infra', 'functions/contract'],
  client: ['functions/client', 'functions/contract'],
} as const;

async function packAndInstall(): Promise<Consumer> {
  expect(existsSync(path.join(handlerBundleDir, 'index.mjs')), 'dist/handler missing: run `npm run build`').toBe(true);
  for (const [name, dirs] of Object.entries(LIBRARY_SOURCES)) {
    const library = path.join(root, 'dist', 'lib', name, 'index.mjs');
    expect(existsSync(library), `dist/lib/${name} missing: run \`npm run build\``).toBe(true);
    // What is packed is what was built: a library older than its sources would test old code.
    expect(
      statSync(library).mtimeMs,
      `dist/lib/${name} is older than its sources: run \`npm run build\``,
    ).toBeGreaterThanOrEqual(newestSource(dirs));
  }
  const scratch = mkdtempSync(path.join(tmpdir(), 'sudoku-consumer-'));
  // Packed as `npm run package` packs it (scripts/pack.mjs), installed as a user installs a tarball, offline.
  const packed = await run(process.execPath, [path.join(root, 'scripts', 'pack.mjs'), scratch], { cwd: root });
  const tarball = packed.stdout.trim();

  const dir = path.join(scratch, 'app');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // The peers are the app's own to bring (linked below), not npm's to fetch.
  await run(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps', tarball],
    {
      cwd: dir,
    },
  );
  const installedPackages = readdirSync(path.join(dir, 'node_modules')).filter((name) => !name.startsWith('.'));
  const bins = readdirSync(path.join(dir, 'node_modules', '.bin'));
  for (const name of LINKED)
    symlinkSync(path.join(root, 'node_modules', name), path.join(dir, 'node_modules', name), 'dir');

  const fixtures = path.join(root, 'test', 'infra', 'fixtures');
  copyFileSync(path.join(fixtures, 'consumer-app.mjs'), path.join(dir, 'app.mjs'));
  copyFileSync(path.join(fixtures, 'consumer-types.ts'), path.join(dir, 'types.ts'));
  copyFileSync(path.join(fixtures, 'consumer-client.mjs'), path.join(dir, 'client.mjs'));
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG));
  const outdir = path.join(dir, 'cdk.out');
  const factsFile = path.join(dir, 'facts.json');
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  // The synth and the type check at once: two processes, two cores.
  const [synth, typeCheck] = await Promise.allSettled([
    run(process.execPath, ['app.mjs', outdir, factsFile], { cwd: dir, timeout: 150_000 }),
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir, timeout: 150_000 }),
  ]);
  const synthError = synth.status === 'rejected' ? synth.reason : undefined;
  const reportFile = path.join(outdir, 'validation-report.json');
  const violations = existsSync(reportFile)
    ? (
        JSON.parse(readFileSync(reportFile, 'utf8')) as { pluginReports: { violations: unknown[] }[] }
      ).pluginReports.flatMap((r) => r.violations)
    : [];
  if (synthError && violations.length === 0) throw synthError;
  const template = (stack: string) =>
    JSON.parse(readFileSync(path.join(outdir, `${stack}.template.json`), 'utf8')) as CloudFormationTemplate;
  const command = await run(path.join(dir, 'node_modules', '.bin', 'sudoku'), ['--help'], { cwd: dir });
  return {
    dir,
    installedPackages,
    bins,
    commandHelp: command.stdout + command.stderr,
    typeErrors:
      typeCheck.status === 'fulfilled'
        ? ''
        : String((typeCheck.reason as { stdout?: string }).stdout ?? typeCheck.reason),
    installed: path.join(dir, 'node_modules', 'sudoku-serverless'),
    facts: JSON.parse(readFileSync(factsFile, 'utf8')) as Facts,
    templates: synthError ? {} : { Shop: template('Shop'), Reports: template('Reports') },
    violations,
  };
}

let consumer: Consumer;
beforeAll(async () => {
  consumer = await packAndInstall();
}, 240_000);
afterAll(() => {
  // The tarball, the app with its install and its cdk.out: the links into the repository go with it, not their targets.
  if (consumer) rmSync(path.dirname(consumer.dir), { recursive: true, force: true });
});

describe('the packed package', () => {
  it('ships the handler bundle, the construct and client libraries and their types, and no tests, bench or twin', () => {
    const { installed } = consumer;
    for (const file of [
      'dist/handler/index.mjs',
      'dist/lib/construct/index.mjs',
      'dist/lib/construct/index.d.ts',
      'dist/lib/client/index.mjs',
      'dist/lib/client/index.d.ts',
    ])
      expect(existsSync(path.join(installed, file)), file).toBe(true);
    for (const folder of ['test', 'bench', 'twin', 'infra', 'functions', 'node_modules'])
      expect(existsSync(path.join(installed, folder)), folder).toBe(false);
  });

  it('gives TypeScript users the construct and its typed props, and the typed client: a mistyped, unknown or misspelt setting, or a board of the wrong type, does not compile', () => {
    expect(consumer.typeErrors).toBe('');
  });

  it("installs nothing but itself and its command: the bundles hold what the functions and the command run, and the repository's pinned Node stays out", () => {
    const manifest = JSON.parse(readFileSync(path.join(consumer.installed, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    for (const field of ['dependencies', 'optionalDependencies', 'devDependencies', 'scripts'])
      expect(manifest[field], field).toBeUndefined();
    expect(Object.keys(manifest.peerDependencies as object).sort()).toEqual(['aws-cdk-lib', 'constructs']);
    expect(consumer.installedPackages).toEqual(['sudoku-serverless']);
    expect(consumer.bins).toEqual(['sudoku']);
    expect(consumer.commandHelp).toMatch(/^Usage: sudoku solve/);
  });
});

describe('the packed client, in an app of its own', () => {
  it('solves a board and a list, and throws a bad board as a typed problem, against the deployed bundle behind the twin gateway', async () => {
    const { handler } = (await import(pathToFileURL(path.join(handlerBundleDir, 'index.mjs')).href)) as {
      handler: Parameters<typeof startHttpServer>[0]['handler'];
    };
    const server = await startHttpServer({ port: 0, handler });
    try {
      const bad = `${EASY.slice(0, 80)}x`;
      const { stdout } = await run(process.execPath, ['client.mjs', `${server.url}/`, EASY, bad], {
        cwd: consumer.dir,
      });
      const answer = JSON.parse(stdout) as {
        one: { solution: string; unique: boolean };
        many: { index: number; solution?: string; status?: number }[];
        problem: { status: number; codes: string[] };
      };
      expect(answer.one).toMatchObject({ solution: EASY_SOLUTION, unique: true });
      expect(answer.many.map((r) => r.solution ?? r.status)).toEqual([EASY_SOLUTION, 400, EASY_SOLUTION]);
      expect(answer.problem).toEqual({ status: 400, codes: ['BAD_CHARACTER'] });
    } finally {
      await server.close();
    }
  });
});

describe('a CDK app of its own, from the packed package', () => {
  it('synthesizes two services in one stack and one in another, with no cdk-nag finding', () => {
    expect(consumer.violations).toEqual([]);
    expect(Object.keys(consumer.templates).sort()).toEqual(['Reports', 'Shop']);
    expect(consumer.facts.services.A.stack).toBe('Shop');
    expect(consumer.facts.services.B.stack).toBe('Shop');
    expect(consumer.facts.services.C.stack).toBe('Reports');
  });

  it('gives no two resources the same name, in one stack or across the account', () => {
    const named = Object.values(consumer.templates).flatMap((t) =>
      Object.values(deployedIdentity(Template.fromJSON(t, { skipCyclicalDependenciesCheck: true })).resources)
        .filter((r) => r.name !== undefined)
        .map((r) => `${r.type} ${JSON.stringify(r.name)}`),
    );
    expect(named.length).toBeGreaterThanOrEqual(3 * 5);
    expect(named.filter((name, i) => named.indexOf(name) !== i)).toEqual([]);
  });

  it('refuses a bad prop with the message `-c` gets from the stack', () => {
    let contextMessage: string | undefined;
    try {
      readSettings(new App({ context: { apiMemoryMb: 64 } }).node);
    } catch (error) {
      contextMessage = (error as Error).message;
    }
    expect(contextMessage).toMatch(/^context "apiMemoryMb" must be an integer from 128 to 10240/);
    expect(consumer.facts.badPropMessage).toBe(contextMessage);
  });
});

/** One request a role of the service makes, on its own bucket and large-file state machine. */
interface Edge {
  readonly who: 'filesRole' | 'apiRole';
  readonly action: string;
  /** The resource, given the service's bucket name and large-file state machine ARN. */
  readonly resource: (bucket: string, largeFileArn: string) => string;
}

const object = (key: string) => (bucket: string) => `arn:aws:s3:::${bucket}/${key}`;
const EDGES: readonly Edge[] = [
  ...[prefixes.incoming, prefixes.batch, ...OUTPUT_PREFIXES, prefixes.staging, RUN_REPORTS_PREFIX].flatMap((prefix) =>
    ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'].map((action) => ({
      who: 'filesRole' as const,
      action,
      resource: object(`${prefix}x.txt`),
    })),
  ),
  { who: 'filesRole', action: 's3:ListBucket', resource: (bucket) => `arn:aws:s3:::${bucket}` },
  { who: 'filesRole', action: 'states:StartExecution', resource: (_bucket, machine) => machine },
  { who: 'apiRole', action: 's3:GetObject', resource: object(`${prefixes.incoming}x.txt`) },
  { who: 'apiRole', action: 's3:PutObject', resource: object(`${prefixes.solved}x.txt`) },
  { who: 'apiRole', action: 'states:StartExecution', resource: (_bucket, machine) => machine },
];

/** Each edge's decision for the roles and resources `ids` names in `template`. */
async function decisions(
  template: CloudFormationTemplate,
  ids: Pick<ServiceFacts, 'bucket' | 'filesRole' | 'apiRole' | 'largeFileStateMachine'>,
  target = ids,
): Promise<Decision[]> {
  const model = buildPolicyModel(template);
  const authorizer = new Authorizer(model);
  const bucket = model.resolver.nameOf(target.bucket);
  const machine = model.resolver.arnOf(target.largeFileStateMachine);
  return Promise.all(
    EDGES.map(
      async (edge) =>
        (
          await authorizer.decide({
            caller: { role: ids[edge.who] },
            action: edge.action,
            resource: edge.resource(bucket, machine),
            context: { 's3:TlsVersion': '1.3' },
          })
        ).decision,
    ),
  );
}

describe("each service's IAM edges, decided by the twin's evaluator", () => {
  let today: Decision[];
  beforeAll(async () => {
    const sudoku = await loadStackTemplate();
    const only = (prefix: string, type: string) => {
      const ids = Object.keys(sudoku.Resources).filter(
        (id) => id.startsWith(prefix) && sudoku.Resources[id]!.Type === type,
      );
      expect(ids, prefix).toHaveLength(1);
      return ids[0]!;
    };
    today = await decisions(sudoku, {
      bucket: notifyingBucketId(sudoku)!,
      filesRole: only('FilesSolverRole', 'AWS::IAM::Role'),
      apiRole: only('ApiSolverRole', 'AWS::IAM::Role'),
      largeFileStateMachine: only('LargeFileStateMachine', 'AWS::StepFunctions::StateMachine'),
    });
  });

  it('are those of the Sudoku stack today: the files function works its own bucket by prefix and starts its own large files; the API function touches neither', async () => {
    expect(today.filter((d) => d === 'Allowed').length).toBeGreaterThan(5);
    expect(today).toContain('ExplicitlyDenied');
    for (const name of ['A', 'B', 'C'] as const) {
      const service = consumer.facts.services[name];
      expect(await decisions(consumer.templates[service.stack]!, service), name).toEqual(today);
    }
  });

  it.each([
    ['A', 'B'],
    ['B', 'A'],
  ] as const)(
    "refuse service %s's roles everything on service %s's bucket and large-file state machine",
    async (own, other) => {
      const { services } = consumer.facts;
      const refused = await decisions(consumer.templates.Shop!, services[own], services[other]);
      expect(refused.filter((d) => d === 'Allowed')).toEqual([]);
    },
  );
});
