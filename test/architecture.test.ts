// The layout's rules, checked on the sources (docs/architecture.md draws them): which folder may
// import which, and that each bucket prefix is written once.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mjs)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f));
}

const SOURCES = ['functions', 'infra', 'bench', 'scripts'].flatMap(sourceFiles);

interface Parsed {
  /** Every module a file imports, statically or with `import()`, resolved relative to the repo. */
  imports: string[];
  /** Every string and template literal that is not a module specifier. */
  literals: string[];
}

function parse(file: string): Parsed {
  const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const imports: string[] = [];
  const literals: string[] = [];
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
  return { imports, literals };
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
});
