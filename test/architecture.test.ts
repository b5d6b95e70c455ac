// The layout's rules, checked on the sources (docs/architecture.md draws them): which folder may
// import which, and that each shared fact (bucket prefixes, problem codes, routes, map state
// names, accepted keys, the bundle's path, S3's key limit) is written once.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '../functions/contract/api-routes.js';
import { ENV } from '../functions/contract/environment.js';
import { MAP_STATE_NAMES } from '../functions/contract/service-layout.js';
import { PROBLEM_CODES } from '../functions/sudoku/index.js';
import { BENCH_SETS, PUZZLES_DIR_ENV, TDOKU_VECTORS } from '../bench/puzzle-sets.js';
import { bundles, workerEntry } from '../scripts/bundles.mjs';
import { LOCAL_ACCESS_KEYS } from '../twin/iam/local-account.js';
import { S3RVER_ENV } from '../twin/s3/s3rver-messages.js';
import { FILES_CONCURRENCY_ENV } from '../twin/stack-limits.js';
import { cycles } from './helpers/cycles.js';
import { puzzlesDir } from './helpers/puzzle-sets.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mjs)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f));
}

const SOURCES = ['functions', 'cli', 'twin', 'infra', 'bench', 'scripts'].flatMap(sourceFiles);

/**
 * Files generated from the OpenAPI document: their string literals (routes, problem codes, types)
 * are the document's, which takes them from the contract and the core, and
 * test/client/openapi-types.test.ts keeps them equal; they write no fact of their own.
 */
const GENERATED = new Set(['functions/client/openapi-types.ts']);

interface Parsed {
  /** Every module a file imports, statically or with `import()`, resolved relative to the repo. */
  imports: string[];
  /** Every string and template literal that is not a module specifier. */
  literals: string[];
  /** The names of the module's exported `const` declarations (not re-exports). */
  exportedConstants: string[];
}

function parse(file: string): Parsed {
  const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const imports: string[] = [];
  const literals: string[] = [];
  const exportedConstants: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const d of statement.declarationList.declarations)
      if (ts.isIdentifier(d.name)) exportedConstants.push(d.name.text);
  }
  const specifiers = new Set<ts.Node>();
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      specifiers.add(node.moduleSpecifier);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
      specifiers.add(node.arguments[0]);
    }
    if (specifiers.has(node) && ts.isStringLiteral(node)) {
      const spec = node.text;
      imports.push(spec.startsWith('.') ? path.normalize(path.join(path.dirname(file), spec)) : spec);
    } else if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      literals.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { imports, literals: GENERATED.has(file) ? [] : literals, exportedConstants };
}

const parsed = new Map(SOURCES.map((file) => [file, parse(file)]));

/** The files of `from` that import something under `to`, with what they import. */
function importsBetween(from: string, to: string): string[] {
  const found: string[] = [];
  for (const [file, { imports }] of parsed) {
    if (!file.startsWith(`${from}/`)) continue;
    for (const imported of imports) if (imported.startsWith(`${to}/`)) found.push(`${file} -> ${imported}`);
  }
  return found;
}

describe('arrows run one way', () => {
  it('parses the sources it checks', () => {
    expect(SOURCES.length).toBeGreaterThan(50);
    expect(parsed.get('functions/handler/dispatch.ts')?.imports).toContain('functions/contract/event-kind.js');
  });

  it('nothing outside functions/handler imports the entry point', () => {
    const outside = SOURCES.filter((f) => !f.startsWith('functions/handler/')).map((f) => f.split('/')[0]!);
    const found = [...new Set(outside)].flatMap((dir) =>
      importsBetween(dir, 'functions/handler').filter((line) => !line.startsWith('functions/handler/')),
    );
    expect(found).toEqual([]);
  });

  it.each([
    ['functions/batch', 'functions/s3'],
    ['functions/s3', 'functions/batch'],
    ['functions/pipeline', 'functions/s3'],
    ['functions/pipeline', 'functions/batch'],
    ['functions/pipeline', 'functions/http'],
    ['functions/http', 'functions/pipeline'],
    ['functions/formats', 'functions/pipeline'],
    ['functions/formats', 'functions/observability'],
    ['functions/sudoku', 'functions/formats'],
    ['functions/contract', 'functions/sudoku'],
    ['bench', 'test'],
    ['functions', 'twin'],
    ['functions', 'cli'],
  ])('%s imports nothing from %s', (from, to) => {
    expect(importsBetween(from, to)).toEqual([]);
  });

  it('the core and the shared contract import nothing outside themselves but Node built-ins', () => {
    for (const dir of ['functions/sudoku', 'functions/contract']) {
      for (const [file, { imports }] of parsed) {
        if (!file.startsWith(`${dir}/`)) continue;
        const foreign = imports.filter((i) => !i.startsWith(`${dir}/`) && !i.startsWith('node:') && i !== 'aws-lambda');
        expect(foreign, file).toEqual([]);
      }
    }
  });

  it('infra imports from functions/ only the pure contract', () => {
    const found = importsBetween('infra', 'functions').filter((line) => !line.includes('-> functions/contract/'));
    expect(found).toEqual([]);
  });
});

describe('functions/ holds what the Lambda bundle ships, and nothing of the twin', () => {
  /** The files of the repository a file imports (`.js` specifiers name the `.ts` sources). */
  const importsOf = (file: string): string[] =>
    (parsed.get(file)?.imports ?? []).map((i) => i.replace(/\.js$/, '.ts')).filter((i) => parsed.has(i));

  it("every source under functions/ is reached from the handler bundle's entries (the command and the twin live in cli/ and twin/)", () => {
    const reached = new Set<string>();
    const visit = (file: string): void => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const imported of importsOf(file)) visit(imported);
    };
    // The page's script ships too: bundled at build time and inlined into the page the handler serves.
    for (const entry of [bundles.handler!, workerEntry, 'functions/web/page/main.ts']) visit(entry);
    expect(reached.has('functions/pipeline/s3-client.ts')).toBe(true);
    // Also in functions/ without being bundled: the contract the stack reads (infra/ imports it),
    // each folder's index.ts (its public face, for tests), and the AssemblyScript source compiled
    // into the kernel the solver imports.
    for (const file of SOURCES.filter((f) => f.startsWith('infra/'))) for (const i of importsOf(file)) visit(i);
    const unshipped = SOURCES.filter(
      (file) =>
        file.startsWith('functions/') &&
        !/^functions\/[^/]+\/index\.ts$/.test(file) &&
        !file.startsWith('functions/sudoku/assembly/') &&
        !reached.has(file),
    );
    expect(unshipped).toEqual([]);
  });

  it.each(Object.entries(LOCAL_ACCESS_KEYS))(
    "no shipped source writes the twin's access key of %s (%s): the twin gives keys through the environment",
    (_caller, key) => {
      const writing = [...parsed]
        .filter(([file, { literals }]) => file.startsWith('functions/') && literals.some((text) => text.includes(key)))
        .map(([file]) => file);
      expect(writing).toEqual([]);
    },
  );
});

describe('the twin', () => {
  it("reads the stack's limits from the synthesized template: only the synthesis (twin/iam/stack-template.ts) imports infra/settings.ts", () => {
    const found = importsBetween('twin', 'infra').filter(
      (line) => line.endsWith('-> infra/settings.js') && !line.startsWith('twin/iam/stack-template.ts '),
    );
    expect(found).toEqual([]);
  });

  it("runs the handler in one Lambda runtime, a module of its own (twin/lambda/runtime-worker.mjs): no worker thread runs code from a string but tsx's loader stub", () => {
    const fromStrings = SOURCES.filter(
      (file) =>
        file.startsWith('twin/') &&
        file !== 'twin/lambda/source-worker.ts' &&
        /\beval:\s*true\b/.test(readFileSync(path.join(root, file), 'utf8')),
    );
    expect(fromStrings).toEqual([]);
    expect(SOURCES).toContain('twin/lambda/runtime-worker.mjs');
  });

  it('says what an invocation came to with one Invocation type, for the gateway, S3 events and state machines alike', () => {
    const declaring = SOURCES.filter((file) =>
      /\bexport (type|interface) Invocation\b/.test(readFileSync(path.join(root, file), 'utf8')),
    );
    expect(declaring).toEqual(['twin/lambda/runtime.ts']);
  });
});

describe('the repository stands alone', () => {
  /** Every source of test/ but this file, which names what it looks for, and the test of the bench's finding them (in folders it makes). */
  const testSources = sourceFiles('test').filter(
    (f) => f !== 'test/architecture.test.ts' && f !== 'test/bench/puzzle-sets.test.ts',
  );
  const PUZZLE_FOLDERS = ['shared/puzzles', PUZZLES_DIR_ENV];

  it("no test names a folder beside the repository (../shared) or the full sets' variable: tests read test/fixtures", () => {
    const outside = testSources.filter((file) =>
      /\.\.\/shared\b|['"]shared['"]|SUDOKU_PUZZLES_DIR|fullPuzzleSets/.test(
        readFileSync(path.join(root, file), 'utf8'),
      ),
    );
    expect(testSources.length).toBeGreaterThan(100);
    expect(outside).toEqual([]);
  });

  it("the tests' puzzle sets are the fixtures committed under test/fixtures, every set the bench names among them", () => {
    expect(path.relative(root, puzzlesDir)).toBe(path.join('test', 'fixtures', 'puzzles'));
    for (const name of [...BENCH_SETS, TDOKU_VECTORS]) expect(existsSync(path.join(puzzlesDir, name)), name).toBe(true);
  });

  it('only bench/puzzle-sets.ts says where the full sets are (../shared/puzzles or the variable)', () => {
    const naming = [...parsed]
      .filter(([, { literals }]) =>
        literals.some(
          (l) =>
            PUZZLE_FOLDERS.some((folder) => l.includes(folder)) || (l === 'shared' && literals.includes('puzzles')),
        ),
      )
      .map(([file]) => file);
    expect(naming).toEqual(['bench/puzzle-sets.ts']);
  });
});

describe('no loops', () => {
  /** The files of the repository a file imports (`.js` specifiers name the `.ts` sources). */
  const localImports = (file: string): string[] =>
    (parsed.get(file)?.imports ?? []).map((i) => i.replace(/\.js$/, '.ts')).filter((i) => parsed.has(i));

  it('no module imports itself back through others (functions/s3 once did, over decodeEventKey)', () => {
    const starts = [...parsed.keys()].filter((file) => file.startsWith('functions/'));
    expect(cycles(starts, localImports)).toEqual([]);
  });

  it('every error class of the service extends the one ServiceError (with its code); the core, which imports nothing outside itself, gives its own a code', () => {
    const bare = SOURCES.filter((file) => {
      if (!file.startsWith('functions/') || file === 'functions/contract/service-error.ts') return false;
      const text = readFileSync(path.join(root, file), 'utf8');
      if (!/\bclass \w+ extends Error\b/.test(text)) return false;
      return !(file.startsWith('functions/sudoku/') && /\breadonly code\b/.test(text));
    });
    expect(bare).toEqual([]);
  });
});

describe('one source for each fact', () => {
  it.each(['incoming/', 'solved/', 'reports/', 'batch/'])(
    'the prefix %s is written as a literal in one file only',
    (prefix) => {
      const writing = [...parsed]
        .filter(([, { literals }]) => literals.some((text) => new RegExp(`(^|[^\\w./-])${prefix}`).test(text)))
        .map(([file]) => file);
      expect(writing).toEqual(['functions/contract/service-layout.ts']);
    },
  );

  /** The files that write `text` as a whole string literal. */
  const writers = (text: string): string[] =>
    [...parsed].filter(([, { literals }]) => literals.includes(text)).map(([file]) => file);

  it.each(PROBLEM_CODES)(
    'the problem code %s is written only in the core (which exports each code with its class)',
    (code) => {
      expect(
        writers(code).every((file) => file.startsWith('functions/sudoku/')),
        writers(code).join(', '),
      ).toBe(true);
    },
  );

  it.each(
    Object.values(API_ROUTES).flatMap(({ method, path }) => [`${method} ${path}`, ...(path === '/' ? [] : [path])]),
  )(
    'the route %s is not written outside functions/contract/api-routes.ts (bench/ calls the API as any client)',
    (text) => {
      const elsewhere = writers(text).filter(
        (file) => !file.startsWith('bench/') && file !== 'functions/contract/api-routes.ts',
      );
      expect(elsewhere).toEqual([]);
    },
  );

  it('the router, the OpenAPI document and the stack take the routes from the contract', () => {
    for (const file of ['functions/http/routes.ts', 'functions/http/openapi.ts', 'infra/settings.ts']) {
      expect(parsed.get(file)?.imports, file).toContain('functions/contract/api-routes.js');
    }
  });

  it.each(Object.values(MAP_STATE_NAMES))('the map state name %s is written in the contract only', (name) => {
    expect(writers(name)).toEqual(['functions/contract/service-layout.ts']);
  });

  it('the S3 and batch adapters accept keys by the one acceptSourceKey', () => {
    for (const adapter of ['functions/s3/handle-event.ts', 'functions/batch/listing.ts']) {
      expect(parsed.get(adapter)?.imports, adapter).toContain('functions/contract/service-layout.js');
      expect(readFileSync(path.join(root, adapter), 'utf8'), adapter).toContain('acceptSourceKey(');
    }
    const deciding = SOURCES.filter((file) => file.startsWith('functions/')).filter(
      (file) =>
        /\boutputKeysFor\(/.test(readFileSync(path.join(root, file), 'utf8')) &&
        !file.startsWith('functions/contract/'),
    );
    expect(deciding).toEqual([]);
  });

  it("the bundle's path is written in scripts/bundles.mjs only", () => {
    const writing = [...parsed]
      .filter(
        ([, { literals }]) =>
          literals.includes('dist/handler') || (literals.includes('dist') && literals.includes('handler')),
      )
      .map(([file]) => file);
    expect(writing).toEqual(['scripts/bundles.mjs']);
  });

  it('no two source files export a constant of the same SHOUTED name (S3_MAX_KEY_BYTES, ...)', () => {
    const exportedBy = new Map<string, string[]>();
    for (const [file, { exportedConstants }] of parsed) {
      for (const name of exportedConstants.filter((n) => /^[A-Z][A-Z0-9_]+$/.test(n))) {
        exportedBy.set(name, [...(exportedBy.get(name) ?? []), file]);
      }
    }
    expect(exportedBy.get('S3_MAX_KEY_BYTES')).toEqual(['functions/contract/aws-quotas.ts']);
    expect([...exportedBy].filter(([, files]) => files.length > 1)).toEqual([]);
  });

  it("formats/ has one codec table, which also says each format's content type", () => {
    const declaring = SOURCES.filter((file) =>
      /\bfunction codecFor\b/.test(readFileSync(path.join(root, file), 'utf8')),
    );
    expect(declaring).toEqual(['functions/formats/codecs.ts']);
    for (const type of ['text/csv; charset=utf-8', 'application/x-ndjson']) {
      expect(writers(type), type).toEqual(['functions/formats/codecs.ts']);
    }
  });

  it('a .txt error line is worded in one place, for files and HTTP text/plain alike', () => {
    const wording = [...parsed]
      .filter(([, { literals }]) => literals.some((text) => text.startsWith('error line ')))
      .map(([file]) => file);
    expect(wording).toEqual(['functions/formats/error-line.ts']);
  });

  /** A file's code without its comments (a comment may name process.env). */
  const code = (file: string): string =>
    readFileSync(path.join(root, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

  it('the shipped code and the command read the environment in functions/contract/environment.ts only', () => {
    const reading = SOURCES.filter((file) => /^(functions|cli)\//.test(file)).filter((file) =>
      /\bprocess\.env\b|\bfrom ['"](node:)?process['"]|\bglobalThis\.process\b/.test(code(file)),
    );
    expect(reading).toEqual(['functions/contract/environment.ts']);
  });

  it("every environment variable the code reads, the shipped code's and the twin's, is in the table of docs/infra.md", () => {
    const docs = readFileSync(path.join(root, 'docs/infra.md'), 'utf8');
    const section = docs.slice(docs.indexOf('### Environment variables'));
    const table = section.slice(0, section.indexOf('\n#'));
    const listed = new Set(
      table
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1])),
    );
    const twinReads = SOURCES.filter((file) => file.startsWith('twin/')).flatMap((file) => {
      const text = code(file);
      return [
        ...[...text.matchAll(/(?<!delete )\b(?:process\.)?env\.([A-Z][A-Z0-9_]+)\b(?!\s*\?\?=)/g)].map((m) => m[1]),
        ...[...text.matchAll(/\boverride\(env, '([A-Z0-9_]+)'\)/g)].map((m) => m[1]),
      ];
    });
    const read = [...Object.values(ENV), ...Object.values(S3RVER_ENV), FILES_CONCURRENCY_ENV, ...twinReads];
    expect(twinReads).toContain('BUCKET');
    expect([...new Set(read)].filter((name) => !listed.has(name))).toEqual([]);
  });
});
